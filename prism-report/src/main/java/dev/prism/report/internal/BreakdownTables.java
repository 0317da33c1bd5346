package dev.prism.report.internal;

import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.spi.Formats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's two breakdowns of a configuration: the file-access interfaces side by side where runs differ only in
 * {@code access} (native, nio, python, fsspec: what each layer costs, the paper's §4.4), and under each configuration
 * that ran with {@code syscalls}, the file calls its programs made ({@code syscall:<call>}) with the slowest named.
 */
public final class BreakdownTables {
    private static final List<String> INTERFACES = List.of("native", "nio", "python", "fsspec");
    private final Map<String, List<RunResult>> sets;

    public BreakdownTables(Map<String, List<RunResult>> sets) {
        this.sets = sets;
    }

    /** @return per set, each group of runs alike but for {@code access}: per operation, each interface's mean and p99 */
    public String interfaces() {
        StringBuilder html = new StringBuilder();
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            Map<String, Map<String, RunResult>> groups = new LinkedHashMap<>();
            for (RunResult r : set.getValue()) {
                String access = r.parameters().get("access");
                if (access != null && r.passed()) {
                    Map<String, String> rest = new LinkedHashMap<>(r.parameters());
                    rest.remove("access");
                    groups.computeIfAbsent(r.benchmark() + " " + Formats.parameters(rest) + " at " + r.tasks() + " task(s)",
                            k -> new LinkedHashMap<>()).put(access, r);
                }
            }
            for (Map.Entry<String, Map<String, RunResult>> g : groups.entrySet()) {
                if (g.getValue().size() < 2) {
                    continue;
                }
                List<String> ran = INTERFACES.stream().filter(g.getValue()::containsKey).toList();
                html.append("<h3>").append(escape(set.getKey() + ": " + g.getKey())).append("</h3><table><tr><th>op</th>");
                ran.forEach(a -> html.append("<th>").append(a).append(" mean</th><th>").append(a).append(" p99</th>"));
                html.append("</tr>");
                for (String op : g.getValue().get(ran.get(0)).measurements().keySet()) {
                    html.append("<tr><td>").append(escape(op)).append("</td>");
                    for (String a : ran) {
                        Measurement m = g.getValue().get(a).measurements().get(op);
                        html.append(m == null || m.count() == 0 ? "<td>-</td><td>-</td>" : "<td>" + Formats.latency(m.meanNanos())
                                + "</td><td>" + Formats.latency(m.p99Nanos()) + "</td>");
                    }
                    html.append("</tr>");
                }
                html.append("</table>");
            }
        }
        return html.isEmpty() ? "" : "<h2>File-access interfaces side by side</h2><p>The same benchmark through libc"
                + " (native), java.nio (nio), Python's open and os.* (python) and fsspec, each call timed where it is made.</p>"
                + html;
    }

    /** @return per set and configuration that attributed its file calls: each call's figures, and the slowest calls */
    public String fileCalls() {
        StringBuilder html = new StringBuilder();
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            for (RunResult r : set.getValue()) {
                List<Map.Entry<String, Measurement>> calls = new ArrayList<>();
                r.measurements().entrySet().stream().filter(e -> e.getKey().startsWith("syscall:")).forEach(calls::add);
                if (calls.isEmpty()) {
                    continue;
                }
                html.append("<h3>").append(escape(set.getKey() + ": " + r.benchmark() + " " + Formats.parameters(r.parameters())
                        + " at " + r.tasks() + " task(s)")).append("</h3><p>").append(escape(r.notes().getOrDefault("syscalls", "")))
                        .append("</p><table><tr><th>call</th><th>count</th><th>errors</th><th>bytes</th><th>mean</th><th>p50</th>"
                                + "<th>p99</th><th>max</th></tr>");
                for (Map.Entry<String, Measurement> e : calls) {
                    Measurement m = e.getValue();
                    html.append("<tr><td>").append(escape(e.getKey().substring("syscall:".length()))).append("</td><td>")
                            .append(m.count()).append("</td><td>").append(m.errors()).append("</td><td>")
                            .append(m.bytes() == 0 ? "-" : Formats.bytes(m.bytes())).append("</td><td>")
                            .append(Formats.latency(m.meanNanos())).append("</td><td>").append(Formats.latency(m.p50Nanos()))
                            .append("</td><td>").append(Formats.latency(m.p99Nanos())).append("</td><td>")
                            .append(Formats.latency(m.maxNanos())).append("</td></tr>");
                }
                html.append("</table>");
                String slowest = r.notes().get("syscalls_slowest");
                if (slowest != null) {
                    html.append("<p>Slowest calls: ").append(escape(slowest)).append("</p>");
                }
            }
        }
        return html.isEmpty() ? "" : "<h2>File calls of the programs run</h2><p>The file system calls made in each"
                + " configuration's timed phase (syscalls=kernel or python), per call, merged over ranks and repetitions.</p>"
                + html;
    }

    private static String escape(String s) {
        return HtmlTables.escape(s);
    }
}
