package dev.prism.report;

import dev.prism.RunResult;
import dev.prism.report.internal.BreakdownTables;
import dev.prism.report.internal.ChartData;
import dev.prism.report.internal.HistogramLog;
import dev.prism.report.internal.HtmlTables;
import dev.prism.report.internal.HtmlPage;
import dev.prism.report.internal.MeasurementCsv;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.spi.AtomicFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Result sets side by side — one per system, or before and after an upgrade — as one self-contained
 * HTML page (Chart.js inlined: no network needed to view it). When two or more sets are given, a
 * summary comes first: per operation the ratio of each set to the first and {@link Comparison}'s
 * verdict. Then per benchmark configuration and operation three charts, one line per set: latency
 * against task count on a logarithmic axis (mean solid, p99 dashed, each with the 95% confidence
 * interval over repetitions as error bars); the percentile distribution from the stored histograms
 * on a "nines" axis, as HdrHistogram plots it; ops/s and bytes/s against task count. Then
 * percentile tables and each set's host and target. Also CSV of every measurement and an
 * HdrHistogram log for HdrHistogram's own tools. {@link Comparison.Options#pairIgnoring} puts runs
 * that differ in named parameters on the same charts: an A/B report.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.RunResult;
 * import dev.prism.Scenario;
 * import dev.prism.report.Report;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 * import java.util.LinkedHashMap;
 * import java.util.List;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var scenario = Scenario.builder().target(tmp).benchmark(touch).tasks(1, 2).repetitions(3).build();
 * var sets = new LinkedHashMap<String, List<RunResult>>();
 * sets.put("first", scenario.execute().runs());
 * sets.put("second", scenario.execute().runs());
 * var report = Report.of(sets);
 * report.writeHtml(tmp.resolve("prism-example-report.html"));
 * }</pre>
 */
public final class Report {
    private final Map<String, List<RunResult>> sets;
    private final Comparison.Options comparing;
    private final String xParameter;
    private final History history;

    private Report(Map<String, List<RunResult>> sets, Comparison.Options comparing, String xParameter) {
        this(sets, comparing, xParameter, null);
    }

    private Report(Map<String, List<RunResult>> sets, Comparison.Options comparing, String xParameter, History history) {
        this.sets = sets;
        this.comparing = comparing;
        this.xParameter = xParameter;
        this.history = history;
    }

    /** @return a report of these result sets, by label, in order, judged with {@link Comparison#defaults()} */
    public static Report of(Map<String, List<RunResult>> sets) {
        return of(sets, Comparison.defaults());
    }

    /**
     * @param comparing how the summary pairs and judges runs; its {@link Comparison.Options#pairIgnoring} parameters
     *                  also leave the charts' grouping
     * @return a report of these result sets, by label, in order
     */
    public static Report of(Map<String, List<RunResult>> sets, Comparison.Options comparing) {
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one result set");
        }
        sets.forEach((label, runs) -> {
            if (runs.isEmpty()) {
                throw new IllegalArgumentException("result set '" + label + "' holds no runs");
            }
        });
        return new Report(new LinkedHashMap<>(sets), java.util.Objects.requireNonNull(comparing, "comparing"), null);
    }

    /**
     * @param parameter a parameter swept over the runs ({@code -p files=100,1000,10000}): the latency and throughput
     *                  charts put its values on the x axis instead of the task count, one line per set and task count
     * @return this report with {@code parameter} on the x axis
     * @throws IllegalArgumentException when no run has that parameter
     */
    public Report xAxis(String parameter) {
        if (sets.values().stream().flatMap(List::stream).noneMatch(r -> r.parameters().containsKey(parameter))) {
            throw new IllegalArgumentException("no run has a parameter '" + parameter + "' to put on the x axis; parameters: "
                    + String.join(", ", new TreeSet<>(sets.values().stream().flatMap(List::stream)
                    .flatMap(r -> r.parameters().keySet().stream()).toList())));
        }
        return new Report(sets, comparing, parameter, history);
    }

    /**
     * @param history runs over time to show beside the sets: what shifted, and the series that did (at most 24 drawn)
     * @return this report with a history section after its verdict
     */
    public Report history(History history) {
        return new Report(sets, comparing, xParameter, java.util.Objects.requireNonNull(history, "history"));
    }

    /** Writes the HTML page. */
    public void writeHtml(Path file) throws IOException {
        AtomicFiles.write(file, html().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the HTML page */
    public String html() throws IOException {
        String chartJs = HtmlPage.chartJs();
        // JSON inside <script>: a '<' only ever stands in a string, where \u003c reads the same; none left, no name can
        // end the script (</script>) or put the parser into its escaped states (<!--<script>), which swallowed the page
        String data = new ObjectMapper().writeValueAsString(new ChartData(sets, comparing, xParameter).json())
                .replace("<", "\\u003c");
        HtmlTables tables = new HtmlTables(sets, comparing);
        BreakdownTables breakdowns = new BreakdownTables(sets);
        String historySection = history == null ? "" : dev.prism.report.internal.HistoryPage.section(history, history.series());
        String historyData = history == null ? "{\"series\":[]}" : dev.prism.report.internal.HistoryPage.data(history.moved(), 24)
                .replace("<", "\\u003c");
        return HtmlPage.fill(Map.ofEntries(Map.entry("chart.js", chartJs), Map.entry("banner", tables.banner()),
                Map.entry("history", historySection), Map.entry("history.data", historyData), Map.entry("summary", tables.summary()),
                Map.entry("interfaces", breakdowns.interfaces()), Map.entry("formats", breakdowns.formats()),
                Map.entry("attribution", breakdowns.fileCalls()),
                Map.entry("tables", tables.measurements()), Map.entry("data", data)));
    }

    /** Writes every measurement as CSV: one row per set × run × operation. */
    public void writeCsv(Path file) throws IOException {
        AtomicFiles.write(file, MeasurementCsv.of(sets).getBytes(StandardCharsets.UTF_8));
    }

    /** Writes each operation's histogram as an HdrHistogram log, tagged {@code set/benchmark/t<tasks>/op}. */
    public void writeHistogramLog(Path file) throws IOException {
        AtomicFiles.write(file, HistogramLog.of(sets));
    }

}
