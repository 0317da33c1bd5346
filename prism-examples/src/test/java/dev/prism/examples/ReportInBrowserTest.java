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

        Path shot = work.resolve("report.png");
        chromium(work.resolve("profile"), "--window-size=1200,1400", "--screenshot=" + shot, html.toUri().toString());
        BufferedImage image = ImageIO.read(shot.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(distinctColours(image)).as("a blank page has one or two colours").isGreaterThan(20);

        assertThat(Files.readAllLines(work.resolve("report.csv"))).hasSize(1 + 2 * 2 * (4 + 2));
        assertThat(Files.readString(work.resolve("report.hlog"))).contains("Tag=tmpfs/create_files/t2/open");
    }

    private static int distinctColours(BufferedImage image) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
