package dev.prism.examples;

import dev.prism.report.Report;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.posix.PosixBenchmarks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML report from real results — two benchmarks, two task counts, two systems (tmpfs and the
 * disk filesystem) — rendered by Debian's chromium, headless: every chart is drawn without script
 * errors and is not blank, latency axes are logarithmic, no error bar leaves its chart, titles are
 * short, the summary against the first set is there, and a screenshot of it is not blank. Skipped
 * without chromium, unless PRISM_REQUIRE_BROWSER=1.
 */
class ReportInBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path work;

    private static List<RunResult> results(Path target) {
        return Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles().files(100))
                .benchmark(PosixBenchmarks.listFiles().files(100)).tasks(1, 2).repetitions(3).build().execute().runs();
    }

    private String chromium(Path userData, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + userData));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        return out;
    }

    @Test
    void report_rendersEveryChartWithoutErrors_andTheScreenshotIsNotBlank() throws Exception {
        dev.prism.testing.Required.require(Files.isExecutable(CHROMIUM), "PRISM_REQUIRE_BROWSER",
                "chromium is not installed (apt-get install chromium)");
        Path shm = Path.of("/dev/shm");
        dev.prism.testing.Required.tmpfsAtDevShm();
        Path tmpfs = Files.createTempDirectory(shm, "prism-report-");
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        try {
            sets.put("tmpfs", results(tmpfs));
        } finally {
            Files.deleteIfExists(tmpfs);
        }
        sets.put("disk", results(Files.createDirectories(work.resolve("disk"))));
        Path html = work.resolve("report.html");
        Report report = Report.of(sets);
        report.writeHtml(html);
        report.writeCsv(work.resolve("report.csv"));
        report.writeHistogramLog(work.resolve("report.hlog"));

        String dom = chromium(work.resolve("profile"), "--dump-dom", html.toUri().toString());
        // create_files measures 4 operations, list_files 2: three charts each (latency, distribution, throughput),
        // two of them on a logarithmic latency axis, every error bar inside its chart, none of them blank; and per
        // configuration one chart of each rank's timed phase at 2 tasks
        assertThat(dom).doesNotContain("data-error").contains("data-rendered=\"20\"").contains("data-log-axes=\"12\"")
                .contains("data-overflowing-bars=\"0\"").contains("data-blank-charts=\"0\"").contains("data-rank-charts=\"2\"")
                // the straggler outlined in its own set's colour: a red one read as the second set's bar
                .contains("data-straggler-clashes=\"0\"");
        // the verdict first, then the summary with both values beside each ratio
        assertThat(dom.indexOf("id=\"verdict\"")).isPositive().isLessThan(dom.indexOf("Summary against tmpfs"));
        assertThat(dom).containsPattern("<td>\\d+\\.\\d\\d <small>\\([^<]+ → [^<]+\\)</small></td>");
        // short titles with the parameters below them, and the summary against the first set
        assertThat(dom).containsPattern("<h3>create_files — create</h3><div class=\"params\">[^<]*files=100[^<]*</div>")
                .contains("Summary against tmpfs").contains("<th>disk mean</th>");
        Files.writeString(work.resolve("dom.html"), dom);
        assertThat(Files.readString(html)).doesNotContain("http://").doesNotContain("https://cdn");

        // the observer of "no blank charts", independent of the page's own count: where layout put each canvas (the
        // test's script, appended to a copy), and what Chromium painted there in a screenshot of the whole page
        Path observed = work.resolve("observed.html");
        Files.writeString(observed, Files.readString(html).replace("</body></html>", CANVAS_BOXES + "</body></html>"));
        String laidOut = chromium(work.resolve("profile"), "--window-size=1200,1400", "--dump-dom", observed.toUri().toString());
        java.util.regex.Matcher boxes = java.util.regex.Pattern.compile("data-test-boxes=\"([0-9, ;]+)\"").matcher(laidOut);
        assertThat(boxes.find()).as("the test's script ran").isTrue();
        String[] parts = boxes.group(1).split(";");
        int height = Integer.parseInt(parts[0].strip());
        Path shot = work.resolve("report.png");
        chromium(work.resolve("profile"), "--window-size=1200," + height, "--hide-scrollbars", "--screenshot=" + shot,
                observed.toUri().toString());
        BufferedImage image = ImageIO.read(shot.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight()).isEqualTo(height);
        assertThat(parts).as("a box per chart").hasSize(1 + 20);
        for (int i = 1; i < parts.length; i++) {
            int[] box = java.util.Arrays.stream(parts[i].split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
            // an empty canvas is the page's one background colour; axes, labels and lines are many, anti-aliased
            assertThat(distinctColours(image.getSubimage(box[0], box[1], box[2], box[3])))
                    .as("colours painted in chart %d at %s", i, parts[i]).isGreaterThan(10);
        }

        assertThat(Files.readAllLines(work.resolve("report.csv"))).hasSize(1 + 2 * 2 * (4 + 2));
        assertThat(Files.readString(work.resolve("report.hlog"))).contains("Tag=tmpfs/create_files/t2/open");
    }

    /**
     * The test's own script, run after the report's: the page's height, then each canvas's box (left, top, width,
     * height in CSS pixels of the page, which the screenshot's scale of 1 matches), in an attribute of the test's own.
     */
    private static final String CANVAS_BOXES = "<script>document.documentElement.setAttribute('data-test-boxes',"
            + " [document.documentElement.scrollHeight].concat(Array.from(document.querySelectorAll('canvas'), c => {"
            + " const r = c.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]"
            + ".map(Math.floor).join(','); })).join(';'));</script>";

    private static int distinctColours(BufferedImage image) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
