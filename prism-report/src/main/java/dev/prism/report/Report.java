package dev.prism.report;

import dev.prism.DataSize;
import dev.prism.Measurement;
import dev.prism.Pacing;
import dev.prism.RepetitionResult;
import dev.prism.RepetitionStats;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.report.internal.HistogramLog;
import dev.prism.report.internal.HtmlPage;
import dev.prism.report.internal.MeasurementCsv;
import dev.prism.spi.Formats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.spi.AtomicFiles;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * var touch = dev.prism.Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { java.nio.file.Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
 * var scenario = dev.prism.Scenario.builder().target(tmp).benchmark(touch).tasks(1, 2).repetitions(3).build();
 * var sets = new java.util.LinkedHashMap<String, java.util.List<dev.prism.RunResult>>();
 * sets.put("first", scenario.execute().runs());
 * sets.put("second", scenario.execute().runs());
 * var report = dev.prism.report.Report.of(sets);
 * report.writeHtml(tmp.resolve("prism-example-report.html"));
 * }</pre>
 */
public final class Report {
    private final Map<String, List<RunResult>> sets;
    private final Comparison.Options comparing;
    private final String xParameter;

    private Report(Map<String, List<RunResult>> sets, Comparison.Options comparing, String xParameter) {
        this.sets = sets;
        this.comparing = comparing;
        this.xParameter = xParameter;
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
        return new Report(sets, comparing, parameter);
    }

    /** Writes the HTML page. */
    public void writeHtml(Path file) throws IOException {
        AtomicFiles.write(file, html().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the HTML page */
    public String html() throws IOException {
        String chartJs = HtmlPage.chartJs();
        String data = new ObjectMapper().writeValueAsString(data()).replace("</", "<\\/");
        return HtmlPage.fill(Map.of("chart.js", chartJs, "summary", summary(), "tables", tables(), "data", data));
    }

    /** @return the run's configuration without the parameters ignored when pairing (and without empty values) */
    private String key(RunResult run) {
        Map<String, String> shared = new LinkedHashMap<>(comparing.withoutIgnored(run.parameters()));
        if (xParameter != null) {
            shared.remove(xParameter);
        }
        String params = Formats.parameters(shared);
        return run.benchmark() + (params.isEmpty() ? "" : " " + params);
    }

    /** @return per configuration, the operations of any set, in the order first seen */
    private Map<String, List<String>> operations() {
        Map<String, List<String>> operations = new LinkedHashMap<>();
        for (List<RunResult> runs : sets.values()) {
            for (RunResult run : runs) {
                List<String> ops = operations.computeIfAbsent(key(run), k -> new ArrayList<>());
                run.measurements().keySet().stream().filter(op -> !ops.contains(op)).forEach(ops::add);
            }
        }
        return operations;
    }

    /** A point on the x axis: a task count, or a value of the parameter on the x axis at a task count. */
    private record Point(String label, int tasks, String value) {
    }

    private RunResult find(List<RunResult> runs, String key, Point point) {
        return runs.stream().filter(r -> key(r).equals(key) && r.tasks() == point.tasks()
                && (xParameter == null || point.value().equals(r.parameters().get(xParameter)))).findFirst().orElse(null);
    }

    /** @return the x axis labels of a configuration: its task counts, or the swept parameter's values (numbers in order) */
    private List<String> labels(String key) {
        List<RunResult> runs = sets.values().stream().flatMap(List::stream).filter(r -> key(r).equals(key)).toList();
        if (xParameter == null) {
            return runs.stream().map(RunResult::tasks).distinct().sorted().map(String::valueOf).toList();
        }
        return runs.stream().map(r -> r.parameters().getOrDefault(xParameter, "")).distinct()
                .sorted(java.util.Comparator.comparingDouble(Report::magnitude).thenComparing(java.util.Comparator.naturalOrder()))
                .toList();
    }

    /** @return a parameter value as a number to sort by (sizes and durations by their magnitude); NaN when it is none */
    private static double magnitude(String value) {
        try {
            return DataSize.parse(value).bytes();
        } catch (RuntimeException notASize) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException notANumber) {
                return Double.NaN;
            }
        }
    }

    /** @return one group of charts per configuration × operation */
    private ObjectNode data() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode groups = root.putArray("groups");
        operations().forEach((key, operationsOfKey) -> {
            List<String> labels = labels(key);
            TreeSet<Integer> taskCounts = new TreeSet<>();
            sets.values().forEach(runs -> runs.stream().filter(r -> key(r).equals(key)).forEach(r -> taskCounts.add(r.tasks())));
            // lines: one per set, or per set × task count when a parameter is on the x axis and tasks vary
            List<Integer> lineTasks = xParameter == null || taskCounts.size() == 1 ? List.of(-1) : List.copyOf(taskCounts);
            RunResult any = sets.values().stream().flatMap(List::stream).filter(r -> key(r).equals(key)).findFirst().orElseThrow();
            for (String op : operationsOfKey) {
                ObjectNode group = groups.addObject();
                group.put("title", any.benchmark() + " — " + op);
                group.put("params", key.substring(any.benchmark().length()).strip()
                        + (comparing.pairIgnoring().isEmpty() ? "" : "  (paired ignoring "
                        + String.join(", ", new TreeSet<>(comparing.pairIgnoring())) + ")"));
                group.put("axis", xParameter == null ? "tasks" : xParameter);
                labels.forEach(group.putArray("labels")::add);
                ArrayNode latencySeries = group.putObject("latency").putArray("series");
                ObjectNode throughput = group.putObject("throughput");
                ArrayNode throughputSeries = throughput.putArray("series");
                ArrayNode percentiles = group.putArray("percentiles");
                boolean bytes = false;
                int line = 0;
                for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
                    for (int lineTask : lineTasks) {
                        String name = set.getKey() + (lineTask < 0 ? "" : ", " + lineTask + " task" + (lineTask == 1 ? "" : "s"));
                        ObjectNode s = latencySeries.addObject().put("set", name);
                        ObjectNode t = throughputSeries.addObject().put("set", name);
                        ArrayNode mean = s.putArray("mean");
                        ArrayNode ci = s.putArray("ci");
                        ArrayNode p99 = s.putArray("p99");
                        ArrayNode p99ci = s.putArray("p99ci");
                        ArrayNode opsPerSecond = t.putArray("ops");
                        ArrayNode bytesPerSecond = t.putArray("bytes");
                        int labelIndex = 0;
                        for (String label : labels) {
                            Point point = xParameter == null ? new Point(label, Integer.parseInt(label), null)
                                    : new Point(label, lineTask < 0 ? taskCounts.first() : lineTask, label);
                            RunResult run = find(set.getValue(), key, point);
                            Measurement m = run == null ? null : run.measurements().get(op);
                            if (m == null || m.count() == 0) {
                                mean.addNull();
                                ci.addNull();
                                p99.addNull();
                                p99ci.addNull();
                                opsPerSecond.addNull();
                                bytesPerSecond.addNull();
                                labelIndex++;
                                continue;
                            }
                            RepetitionStats rs = run.acrossRepetitions().get(op);
                            mean.add(rs.meanNanos());
                            ci.add(rs.repetitions() < 2 ? null : mapper.createArrayNode().add(rs.ci95LowNanos()).add(rs.ci95HighNanos()));
                            p99.add(m.p99Nanos());
                            p99ci.add(p99Interval(run, op));
                            opsPerSecond.add(rs.meanOpsPerSecond());
                            bytesPerSecond.add(run.repetitions().stream().map(r -> r.measurements().get(op))
                                    .filter(java.util.Objects::nonNull).mapToDouble(Measurement::bytesPerSecond).average().orElse(0));
                            bytes |= m.bytes() > 0;
                            String where = xParameter == null ? (labels.size() > 1 ? label + " task" + (label.equals("1") ? "" : "s") : "")
                                    : xParameter + "=" + label;
                            ObjectNode distribution = percentiles.addObject().put("set", line).put("taskIndex", labelIndex)
                                    .put("label", name + (where.isEmpty() ? "" : ", " + where));
                            ArrayNode points = distribution.putArray("points");
                            distribution(m).forEach((nines, nanos) -> points.addObject().put("x", nines).put("y", nanos));
                            labelIndex++;
                        }
                        line++;
                    }
                }
                throughput.put("bytes", bytes);
                timeline(group.putArray("timeline"), key, op, taskCounts);
            }
        });
        return root;
    }

    /**
     * Adds, per set and task count whose runs kept interval histograms ({@link Pacing#interval()}), the p99 and the
     * rate of each interval, merged over the repetitions: x is the interval's middle in seconds from the end of the ramp.
     */
    private void timeline(ArrayNode timeline, String key, String op, TreeSet<Integer> taskCounts) {
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            for (RunResult run : set.getValue()) {
                if (!key(run).equals(key) || run.repetitions().stream().allMatch(r -> !r.intervals().containsKey(op))) {
                    continue;
                }
                List<List<Measurement>> byIndex = new ArrayList<>();
                for (RepetitionResult rep : run.repetitions()) {
                    List<Measurement> list = rep.intervals().getOrDefault(op, List.of());
                    for (int i = 0; i < list.size(); i++) {
                        while (byIndex.size() <= i) {
                            byIndex.add(new ArrayList<>());
                        }
                        byIndex.get(i).add(list.get(i));
                    }
                }
                ObjectNode series = timeline.addObject().put("label", set.getKey() + (taskCounts.size() > 1 ? ", " + run.tasks()
                        + " task" + (run.tasks() == 1 ? "" : "s") : "") + (xParameter == null ? "" : ", " + xParameter + "="
                        + run.parameters().get(xParameter)));
                ArrayNode p99 = series.putArray("p99");
                ArrayNode ops = series.putArray("ops");
                for (int i = 0; i < byIndex.size(); i++) {
                    Measurement merged = Measurement.combineRepetitions(byIndex.get(i));
                    double seconds = (i + 0.5) * (merged.elapsedNanos() / (double) byIndex.get(i).size()) / 1e9;
                    if (merged.count() > 0) {
                        p99.addObject().put("x", seconds).put("y", merged.p99Nanos());
                    }
                    ops.addObject().put("x", seconds).put("y", merged.opsPerSecond());
                }
            }
        }
    }

    /**
     * @return the latency at each quarter-nine of percentile (0%, 43.8%, 68.4%, 82.2%, 90%, …) that the
     *         operation count resolves, and the maximum at log10(count): x in nines, y in nanoseconds
     */
    static Map<Double, Long> distribution(Measurement m) {
        Map<Double, Long> points = new LinkedHashMap<>();
        double last = Math.log10(Math.max(1, m.count()));
        for (int quarter = 0; quarter / 4.0 < last; quarter++) {
            double nines = quarter / 4.0;
            points.put(nines, m.percentileNanos(100 - 100 / Math.pow(10, nines)));
        }
        points.put(Math.max(last, 0.25), m.maxNanos());
        return points;
    }

    /** @return the 95% CI (ns) of the repetitions' p99s; null below two */
    private static ArrayNode p99Interval(RunResult run, String op) {
        double[] p99s = run.repetitions().stream().map(r -> r.measurements().get(op)).filter(java.util.Objects::nonNull)
                .filter(m -> m.count() > 0).mapToDouble(m -> m.p99Nanos()).toArray();
        if (p99s.length < 2) {
            return null;
        }
        RepetitionStats st = RepetitionStats.of(p99s, p99s);
        return new ObjectMapper().createArrayNode().add(st.ci95LowNanos()).add(st.ci95HighNanos());
    }

    /** @return with two or more sets: per operation, each later set's ratio to the first and the comparison's verdict */
    private String summary() {
        if (sets.size() < 2) {
            return "";
        }
        List<String> labels = new ArrayList<>(sets.keySet());
        List<RunResult> first = sets.get(labels.get(0));
        StringBuilder html = new StringBuilder("<h2>Summary against " + escape(labels.get(0)) + "</h2><p>Ratio of each set's mean"
                + " and p99 to " + escape(labels.get(0)) + "'s (above 1: slower), and compare's verdict (thresholds "
                + escape(comparing.toString()) + "; Welch's t-test over repetitions, p &lt; " + Comparison.ALPHA + ", at least "
                + Comparison.MIN_REPETITIONS + " repetitions a side).</p><table class=summary><tr><th>benchmark</th>"
                + "<th>parameters</th><th>tasks</th><th>op</th>");
        for (String label : labels.subList(1, labels.size())) {
            html.append("<th>").append(escape(label)).append(" mean</th><th>").append(escape(label)).append(" p99</th><th>")
                    .append(escape(label)).append(" verdict</th>");
        }
        html.append("</tr>");
        List<Comparison> comparisons = new ArrayList<>();
        for (String label : labels.subList(1, labels.size())) {
            comparisons.add(comparing.compare(first, sets.get(label)));
        }
        for (RunResult base : first) {
            String shared = Formats.parameters(comparing.withoutIgnored(base.parameters()));
            for (String op : base.measurements().keySet()) {
                html.append("<tr><td>").append(escape(base.benchmark())).append("</td><td>").append(escape(shared))
                        .append("</td><td>").append(base.tasks()).append("</td><td>").append(escape(op)).append("</td>");
                for (Comparison c : comparisons) {
                    List<Comparison.Row> rows = c.rows().stream().filter(r -> r.operation().equals(op) && r.tasks() == base.tasks()
                            && r.benchmark().equals(base.benchmark()) && shared.equals(sharedParameters(r))).toList();
                    html.append(ratioCell(rows, Stat.MEAN)).append(ratioCell(rows, Stat.P99));
                    String verdict = verdict(rows);
                    String css = verdict.startsWith("REGRESSION") ? "bad" : verdict.equals("faster") ? "good" : "";
                    html.append("<td class=\"verdict ").append(css).append("\">").append(escape(verdict)).append("</td>");
                }
                html.append("</tr>");
            }
        }
        return html.append("</table>").toString();
    }

    /** @return a row's parameters without those ignored when pairing */
    private String sharedParameters(Comparison.Row row) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : row.parameters().split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                parameters.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return Formats.parameters(comparing.withoutIgnored(parameters));
    }

    private static String ratioCell(List<Comparison.Row> rows, Stat stat) {
        return rows.stream().filter(r -> r.stat() == stat).findFirst()
                .map(r -> "<td>" + String.format(Locale.ROOT, "%.2f", r.ratio()) + "</td>").orElse("<td>-</td>");
    }

    /** @return the regressions named; else one verdict when all agree, or every statistic's; "-" without a partner run */
    private static String verdict(List<Comparison.Row> rows) {
        if (rows.isEmpty()) {
            return "-";
        }
        List<String> regressions = rows.stream().filter(Comparison.Row::regression).map(r -> r.stat().label()).toList();
        if (!regressions.isEmpty()) {
            return "REGRESSION " + String.join(", ", regressions);
        }
        if (rows.stream().allMatch(r -> r.verdict() == rows.get(0).verdict() && r.verdict() != Comparison.Verdict.NOT_APPLICABLE)) {
            return rows.get(0).verdictText();
        }
        return String.join("; ", rows.stream().map(r -> r.stat().label() + " " + r.verdictText()).toList());
    }

    private String tables() {
        StringBuilder tables = new StringBuilder();
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            RunResult first = set.getValue().get(0);
            tables.append("<h3>").append(escape(set.getKey())).append("</h3><table class=meta>")
                    .append(row("host", first.host().hostname() + ", " + first.host().cpus() + " CPUs, " + first.host().os()
                            + " " + first.host().kernel() + ", Java " + first.host().java() + ", PRISM " + first.host().prismVersion()))
                    .append(row("target", first.target().path() + " (" + first.target().filesystemType() + " on "
                            + first.target().mountSource() + ", " + first.target().mountOptions() + ")"))
                    .append(row("run", first.runId() + ", launcher " + first.launcher())).append("</table>");
            tables.append("<table><tr><th>benchmark</th><th>parameters</th><th>tasks</th><th>op</th><th>count</th><th>mean</th>"
                    + "<th>±95% reps</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>ops/s</th><th>bytes/s</th></tr>");
            for (RunResult run : set.getValue()) {
                for (Map.Entry<String, Measurement> e : run.measurements().entrySet()) {
                    Measurement m = e.getValue();
                    RepetitionStats rs = run.acrossRepetitions().get(e.getKey());
                    tables.append("<tr><td>").append(escape(run.benchmark())).append("</td><td>")
                            .append(escape(Formats.parameters(run.parameters()))).append("</td><td>").append(run.tasks())
                            .append("</td><td>").append(escape(e.getKey())).append("</td><td>").append(m.count())
                            .append("</td><td>").append(Formats.latency(m.meanNanos())).append("</td><td>")
                            .append(rs.repetitions() < 2 ? "-" : Formats.latency(rs.ci95HighNanos() - rs.meanNanos()))
                            .append("</td><td>").append(Formats.latency(m.p50Nanos())).append("</td><td>")
                            .append(Formats.latency(m.p90Nanos())).append("</td><td>").append(Formats.latency(m.p99Nanos()))
                            .append("</td><td>").append(Formats.latency(m.p999Nanos())).append("</td><td>")
                            .append(Formats.latency(m.maxNanos())).append("</td><td>")
                            .append(String.format(Locale.ROOT, "%.1f", m.opsPerSecond())).append("</td><td>")
                            .append(Formats.bytes(m.bytesPerSecond())).append("/s</td></tr>");
                }
                if (!run.passed()) {
                    tables.append("<tr><td>").append(escape(run.benchmark())).append("</td><td></td><td>").append(run.tasks())
                            .append("</td><td colspan=11 class=bad>").append(escape(run.failure().toString())).append("</td></tr>");
                }
            }
            tables.append("</table>");
        }
        return tables.toString();
    }

    /** Writes every measurement as CSV: one row per set × run × operation. */
    public void writeCsv(Path file) throws IOException {
        AtomicFiles.write(file, MeasurementCsv.of(sets).getBytes(StandardCharsets.UTF_8));
    }

    /** Writes each operation's histogram as an HdrHistogram log, tagged {@code set/benchmark/t<tasks>/op}. */
    public void writeHistogramLog(Path file) throws IOException {
        AtomicFiles.write(file, HistogramLog.of(sets));
    }

    private static String row(String k, String v) {
        return "<tr><td>" + escape(k) + "</td><td>" + escape(v) + "</td></tr>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
