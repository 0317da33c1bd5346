package dev.prism.report.internal;

import dev.prism.Measurement;
import dev.prism.RepetitionStats;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.report.Comparison;
import dev.prism.spi.Formats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's HTML tables: the summary against the first set, and every set's measurements with their context. */
public final class HtmlTables {
    private final Map<String, List<RunResult>> sets;
    private final Comparison.Options comparing;

    public HtmlTables(Map<String, List<RunResult>> sets, Comparison.Options comparing) {
        this.sets = sets;
        this.comparing = comparing;
    }

    /** @return with two or more sets: per operation, each later set's ratio to the first and the comparison's verdict */
    public String summary() {
        if (sets.size() < 2) {
            return "";
        }
        List<String> labels = new ArrayList<>(sets.keySet());
        List<RunResult> first = sets.get(labels.get(0));
        StringBuilder html = new StringBuilder("<h2>Summary against " + escape(labels.get(0)) + "</h2><p>Ratio of each set's mean"
                + " and p99 to " + escape(labels.get(0)) + "'s (above 1: slower; both values beside it), and compare's verdict (thresholds "
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
                .map(r -> "<td>" + String.format(Locale.ROOT, "%.2f", r.ratio()) + " <small>(" + escape(Formats.latency(r.baselineValue()))
                        + " → " + escape(Formats.latency(r.candidateValue())) + ")</small></td>").orElse("<td>-</td>");
    }

    /**
     * @return the verdict first: a banner saying whether every run passed and, with two or more sets, whether any
     *         regressed against the first, naming what failed and what regressed (with both values), and the warnings
     *         where a pair of runs ran under different host conditions
     */
    public String banner() {
        List<String> failed = new ArrayList<>();
        sets.forEach((label, runs) -> runs.stream().filter(r -> !r.passed()).forEach(r -> failed.add(label + ": "
                + r.benchmark() + " tasks=" + r.tasks() + " " + r.status() + "ED, " + r.failure().message())));
        List<String> regressed = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<String> labels = new ArrayList<>(sets.keySet());
        for (String label : labels.subList(Math.min(1, labels.size()), labels.size())) {
            Comparison c = comparing.compare(sets.get(labels.get(0)), sets.get(label));
            c.regressions().forEach(r -> regressed.add(label + ": " + r.benchmark() + " tasks=" + r.tasks() + " " + r.operation()
                    + " " + r.stat().label() + " " + Formats.latency(r.baselineValue()) + " → " + Formats.latency(r.candidateValue())
                    + String.format(Locale.ROOT, " (%.2fx, p=%.3g)", r.ratio(), r.pValue())));
            c.warnings().forEach(w -> warnings.add(label + ": " + w));
        }
        boolean bad = !failed.isEmpty() || !regressed.isEmpty();
        StringBuilder html = new StringBuilder("<div class=\"banner ").append(bad ? "bad" : "good").append("\" id=\"verdict\"><strong>");
        if (!bad) {
            html.append("PASSED: every run passed").append(sets.size() > 1 ? "; nothing regressed against " + escape(labels.get(0)) : "");
        } else {
            html.append("FAILED: ").append(failed.size()).append(" run(s) failed, ").append(regressed.size())
                    .append(" statistic(s) regressed").append(sets.size() > 1 ? " against " + escape(labels.get(0)) : "");
        }
        html.append("</strong>");
        if (bad || !warnings.isEmpty()) {
            html.append("<ul>");
            failed.forEach(f -> html.append("<li>").append(escape(f)).append("</li>"));
            regressed.forEach(r -> html.append("<li>REGRESSION ").append(escape(r)).append("</li>"));
            warnings.forEach(w -> html.append("<li>WARNING ").append(escape(w)).append("</li>"));
            html.append("</ul>");
        }
        return html.append("</div>").toString();
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

    /** @return per set: its host, target and run, then a table of every measurement */
    public String measurements() {
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

    private static String row(String k, String v) {
        return "<tr><td>" + escape(k) + "</td><td>" + escape(v) + "</td></tr>";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
