package dev.prism;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.internal.AtomicFiles;
import dev.prism.internal.TextTable;
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
 * HTML page (Chart.js inlined: no network needed to view it) with, per benchmark and operation,
 * latency against task count with 95% confidence-interval error bars (mean, and p99) and one line per
 * set, the form of the paper's Figures 3–10; percentile tables; each set's host and target. Also
 * CSV of every measurement and an HdrHistogram log for HdrHistogram's own tools.
 *
 * <pre>{@code
 * // var report = dev.prism.Report.of(java.util.Map.of("nfs", dev.prism.Results.load(a), "lustre", dev.prism.Results.load(b)));
 * // report.writeHtml(java.nio.file.Path.of("report.html"));
 * }</pre>
 */
public final class Report {
    private static final String CHART_JS = "/META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js";
    private final Map<String, List<RunResult>> sets;

    private Report(Map<String, List<RunResult>> sets) {
        this.sets = sets;
    }

    /** @return a report of these result sets, by label, in order */
    public static Report of(Map<String, List<RunResult>> sets) {
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one result set");
        }
        return new Report(new LinkedHashMap<>(sets));
    }

    /** Writes the HTML page. */
    public void writeHtml(Path file) throws IOException {
        AtomicFiles.write(file, html().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the HTML page */
    public String html() throws IOException {
        String chartJs;
        try (InputStream in = Report.class.getResourceAsStream(CHART_JS)) {
            if (in == null) {
                throw new IOException("Chart.js (" + CHART_JS + ") is missing from the class path");
            }
            chartJs = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String data = new ObjectMapper().writeValueAsString(data()).replace("</", "<\\/");
        StringBuilder tables = new StringBuilder();
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            RunResult first = set.getValue().get(0);
            tables.append("<h3>").append(escape(set.getKey())).append("</h3><table class=meta>")
                    .append(row("host", first.host().hostname() + ", " + first.host().cpus() + " CPUs, " + first.host().os()
                            + " " + first.host().kernel() + ", Java " + first.host().java() + ", PRISM " + first.host().prismVersion()))
                    .append(row("target", first.target().path() + " (" + first.target().filesystemType() + " on "
                            + first.target().mountSource() + ", " + first.target().mountOptions() + ")"))
                    .append(row("run", first.runId() + ", launcher " + first.launcher())).append("</table>");
            tables.append("<table><tr><th>benchmark</th><th>tasks</th><th>op</th><th>count</th><th>mean</th><th>±95% reps</th>"
                    + "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>ops/s</th><th>bytes/s</th></tr>");
            for (RunResult run : set.getValue()) {
                for (Map.Entry<String, Measurement> e : run.measurements().entrySet()) {
                    Measurement m = e.getValue();
                    RepetitionStats rs = run.acrossRepetitions().get(e.getKey());
                    tables.append("<tr><td>").append(escape(run.benchmark())).append("</td><td>").append(run.tasks())
                            .append("</td><td>").append(escape(e.getKey())).append("</td><td>").append(m.count())
                            .append("</td><td>").append(TextTable.duration(m.meanNanos())).append("</td><td>")
                            .append(rs.repetitions() < 2 ? "-" : TextTable.duration(rs.ci95HighNanos() - rs.meanNanos()))
                            .append("</td><td>").append(TextTable.duration(m.p50Nanos())).append("</td><td>")
                            .append(TextTable.duration(m.p90Nanos())).append("</td><td>").append(TextTable.duration(m.p99Nanos()))
                            .append("</td><td>").append(TextTable.duration(m.p999Nanos())).append("</td><td>")
                            .append(TextTable.duration(m.maxNanos())).append("</td><td>")
                            .append(String.format(Locale.ROOT, "%.1f", m.opsPerSecond())).append("</td><td>")
                            .append(TextTable.bytes(m.bytesPerSecond())).append("</td></tr>");
                }
            }
            tables.append("</table>");
        }
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>PRISM report</title>
                <style>
                body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; }
                .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 24px; }
                .chart { border: 1px solid #ddd; padding: 8px; } canvas { width: 100%; height: 280px; }
                table { border-collapse: collapse; margin: 8px 0 24px; } td, th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
                td:nth-child(-n+3), th { text-align: left; } table.meta td { text-align: left; }
                </style>
                <script>window.onerror = function (m) { document.documentElement.dataset.error = String(m); };</script>
                <script>""" + chartJs + """
                </script></head><body>
                <h1>PRISM report</h1>
                <p>Latency against task count, mean (solid) and p99 (dashed), each with the 95% confidence interval over repetitions as error bars, one colour per result set.</p>
                <div class="charts" id="charts"></div>
                <h2>Measurements</h2>""" + tables + """
                <script>
                const DATA = """ + data + """
                ;
                const errorBars = { id: 'errorBars', afterDatasetsDraw(chart) {
                  const ctx = chart.ctx, y = chart.scales.y, area = chart.chartArea;
                  chart.data.datasets.forEach((ds, i) => {
                    if (!ds.errorBars || chart.getDatasetMeta(i).hidden) return;
                    chart.getDatasetMeta(i).data.forEach((point, j) => {
                      const bar = ds.errorBars[j]; if (!bar) return;
                      const top = y.getPixelForValue(bar[1]), bottom = y.getPixelForValue(bar[0]);
                      ctx.save(); ctx.beginPath(); ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top); ctx.clip();
                      ctx.strokeStyle = ds.borderColor; ctx.lineWidth = 1.5; ctx.beginPath();
                      ctx.moveTo(point.x, top); ctx.lineTo(point.x, bottom);
                      ctx.moveTo(point.x - 5, top); ctx.lineTo(point.x + 5, top);
                      ctx.moveTo(point.x - 5, bottom); ctx.lineTo(point.x + 5, bottom); ctx.stroke(); ctx.restore();
                    });
                  });
                } };
                const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
                let rendered = 0;
                for (const chartData of DATA.charts) {
                  const box = document.createElement('div'); box.className = 'chart';
                  const title = document.createElement('h3'); title.textContent = chartData.title; box.appendChild(title);
                  const canvas = document.createElement('canvas'); box.appendChild(canvas);
                  document.getElementById('charts').appendChild(box);
                  const datasets = [];
                  chartData.series.forEach((s, i) => {
                    const colour = colours[i % colours.length];
                    datasets.push({ label: s.set + ' mean', data: s.mean, errorBars: s.ci, borderColor: colour, backgroundColor: colour });
                    datasets.push({ label: s.set + ' p99', data: s.p99, errorBars: s.p99ci, borderColor: colour, backgroundColor: colour, borderDash: [6, 4] });
                  });
                  new Chart(canvas, { type: 'line', data: { labels: chartData.tasks, datasets: datasets }, plugins: [errorBars],
                    options: { animation: false, responsive: true, maintainAspectRatio: false,
                      scales: { x: { title: { display: true, text: 'tasks' } }, y: { title: { display: true, text: 'latency (µs)' }, beginAtZero: true } } } });
                  rendered++;
                }
                document.documentElement.dataset.rendered = String(rendered);
                </script></body></html>
                """;
    }

    /** @return one chart per benchmark configuration × operation: a series per set over the union of task counts */
    private ObjectNode data() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode charts = root.putArray("charts");
        Map<String, List<String>> operations = new LinkedHashMap<>();
        for (List<RunResult> runs : sets.values()) {
            for (RunResult run : runs) {
                List<String> ops = operations.computeIfAbsent(key(run), k -> new ArrayList<>());
                run.measurements().keySet().forEach(op -> {
                    if (!ops.contains(op)) {
                        ops.add(op);
                    }
                });
            }
        }
        operations.forEach((key, ops) -> {
            TreeSet<Integer> tasks = new TreeSet<>();
            sets.values().forEach(runs -> runs.stream().filter(r -> key(r).equals(key)).forEach(r -> tasks.add(r.tasks())));
            for (String op : ops) {
                ObjectNode chart = charts.addObject();
                chart.put("title", key + " — " + op);
                ArrayNode labels = chart.putArray("tasks");
                tasks.forEach(labels::add);
                ArrayNode series = chart.putArray("series");
                sets.forEach((label, runs) -> {
                    ObjectNode s = series.addObject().put("set", label);
                    ArrayNode mean = s.putArray("mean");
                    ArrayNode ci = s.putArray("ci");
                    ArrayNode p99 = s.putArray("p99");
                    ArrayNode p99ci = s.putArray("p99ci");
                    for (int t : tasks) {
                        RunResult run = runs.stream().filter(r -> key(r).equals(key) && r.tasks() == t).findFirst().orElse(null);
                        Measurement m = run == null ? null : run.measurements().get(op);
                        if (m == null) {
                            mean.addNull();
                            ci.addNull();
                            p99.addNull();
                            p99ci.addNull();
                            continue;
                        }
                        RepetitionStats rs = run.acrossRepetitions().get(op);
                        mean.add(rs.meanNanos() / 1e3);
                        ci.addArray().add(rs.ci95LowNanos() / 1e3).add(rs.ci95HighNanos() / 1e3);
                        p99.add(m.p99Nanos() / 1e3);
                        p99ci.add(p99Interval(run, op));
                    }
                });
            }
        });
        return root;
    }

    /** @return the 95% CI (µs) of the repetitions' p99s, around the merged p99's repetitions; null below two */
    private static ArrayNode p99Interval(RunResult run, String op) {
        double[] p99s = run.repetitions().stream().map(r -> r.measurements().get(op)).filter(java.util.Objects::nonNull)
                .mapToDouble(m -> m.p99Nanos()).toArray();
        if (p99s.length < 2) {
            return null;
        }
        RepetitionStats st = RepetitionStats.of(p99s, p99s);
        return new ObjectMapper().createArrayNode().add(st.ci95LowNanos() / 1e3).add(st.ci95HighNanos() / 1e3);
    }

    private static String key(RunResult run) {
        StringBuilder s = new StringBuilder(run.benchmark());
        run.parameters().forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
        return s.toString();
    }

    /** Writes every measurement as CSV: one row per set × run × operation. */
    public void writeCsv(Path file) throws IOException {
        StringBuilder csv = new StringBuilder("set,benchmark,parameters,tasks,operation,count,bytes,mean_ns,ci95_low_ns,"
                + "ci95_high_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,ops_per_s,bytes_per_s,repetitions,filesystem\n");
        sets.forEach((label, runs) -> {
            for (RunResult run : runs) {
                run.measurements().forEach((op, m) -> {
                    RepetitionStats rs = run.acrossRepetitions().get(op);
                    csv.append(String.join(",", quote(label), quote(run.benchmark()), quote(key(run)),
                            String.valueOf(run.tasks()), quote(op), String.valueOf(m.count()), String.valueOf(m.bytes()),
                            num(rs.meanNanos()), num(rs.ci95LowNanos()), num(rs.ci95HighNanos()), String.valueOf(m.p50Nanos()),
                            String.valueOf(m.p90Nanos()), String.valueOf(m.p99Nanos()), String.valueOf(m.p999Nanos()),
                            String.valueOf(m.maxNanos()), num(m.opsPerSecond()), num(m.bytesPerSecond()),
                            String.valueOf(rs.repetitions()), quote(run.target().filesystemType()))).append('\n');
                });
            }
        });
        AtomicFiles.write(file, csv.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Writes each operation's histogram as an HdrHistogram log, tagged {@code set/benchmark/t<tasks>/op}. */
    public void writeHistogramLog(Path file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("PRISM latencies in nanoseconds; tags are set/benchmark/t<tasks>/operation");
            writer.outputLogFormatVersion();
            writer.outputLegend();
            sets.forEach((label, runs) -> {
                for (RunResult run : runs) {
                    run.measurements().forEach((op, m) -> {
                        Histogram h = m.histogram();
                        h.setTag((label + "/" + run.benchmark() + "/t" + run.tasks() + "/" + op).replaceAll("[\\s,]", "_"));
                        h.setStartTimeStamp(run.startedAt().toEpochMilli());
                        h.setEndTimeStamp(run.finishedAt().toEpochMilli());
                        writer.outputIntervalHistogram(h);
                    });
                }
            });
        }
        AtomicFiles.write(file, bytes.toByteArray());
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String row(String k, String v) {
        return "<tr><td>" + escape(k) + "</td><td>" + escape(v) + "</td></tr>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
