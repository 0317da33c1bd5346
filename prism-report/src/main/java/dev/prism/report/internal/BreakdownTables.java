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

    /** The dataloader's parameters that say how a dataset is stored, not which samples it holds or how they are read. */
    private static final List<String> STORAGE = List.of("format", "dataset", "files", "file_size", "layout", "shards",
            "samples", "sample_size", "shard_size", "row_group", "classes", "shuffle_buffer", "mmap");

    /**
     * @return per set, each group of dataloader runs that read the same samples (their count and size, a dataset of
     *         files counting a file as a sample) the same way (workers, batches, shuffle, cache, ranks), one row per
     *         format: samples per second over the ranks and at the slowest rank, bytes per second, a sample's p50 and
     *         p99, a batch's p99, the read amplification and the major page faults per 1,000 samples
     */
    public String formats() {
        StringBuilder html = new StringBuilder();
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            Map<String, List<RunResult>> groups = new LinkedHashMap<>();
            for (RunResult r : set.getValue()) {
                if (!r.benchmark().equals("dataloader") || !r.passed() || !r.measurements().containsKey("sample")) {
                    continue;
                }
                Map<String, String> p = r.parameters();
                boolean files = !p.containsKey("format") || p.get("format").equals("files");
                Map<String, String> read = new LinkedHashMap<>(p);
                STORAGE.forEach(read::remove);
                String samples = files ? p.getOrDefault("files", "?") + " × " + p.getOrDefault("file_size", "?")
                        : p.getOrDefault("samples", "?") + " × " + p.getOrDefault("sample_size", "?");
                read.remove("size_jitter");
                String jitter = p.containsKey("size_jitter") && !p.get("size_jitter").equals("0.0") ? " ± " + p.get("size_jitter") : "";
                groups.computeIfAbsent(samples + jitter + " samples, " + Formats.parameters(read) + " at " + r.tasks()
                        + " task(s)", k -> new ArrayList<>()).add(r);
            }
            for (Map.Entry<String, List<RunResult>> g : groups.entrySet()) {
                if (g.getValue().size() < 2) {
                    continue;
                }
                html.append("<h3>").append(escape(set.getKey() + ": " + g.getKey())).append("</h3><table><tr><th>format</th>"
                        + "<th>samples/s</th><th>samples/s, slowest rank</th><th>MiB/s</th><th>sample p50</th><th>sample p99</th>"
                        + "<th>batch p99</th><th>read amplification</th><th>major faults per 1,000 samples</th></tr>");
                for (RunResult r : g.getValue()) {
                    html.append("<tr><td>").append(escape(storage(r))).append("</td>");
                    FormatFigures f = FormatFigures.of(r);
                    Measurement sample = r.measurements().get("sample");
                    Measurement batch = r.measurements().get("batch");
                    html.append(cell(f.samplesPerSecond(), "%.0f")).append(cell(f.slowestRankSamplesPerSecond(), "%.0f"))
                            .append(cell(f.bytesPerSecond() / (1 << 20), "%.1f"))
                            .append("<td>").append(Formats.latency(sample.p50Nanos())).append("</td><td>")
                            .append(Formats.latency(sample.p99Nanos())).append("</td><td>")
                            .append(batch == null || batch.count() == 0 ? "-" : Formats.latency(batch.p99Nanos())).append("</td>")
                            .append(cell(f.readAmplification(), "%.2f")).append(cell(f.majorFaultsPerThousand(), "%.1f"))
                            .append("</tr>");
                }
                html.append("</table>");
            }
        }
        return html.isEmpty() ? "" : "<h2>Data formats side by side</h2><p>The same samples read by a DataLoader from"
                + " each format: samples/s over every rank (the samples of a repetition over its slowest rank's epoch) and"
                + " at the slowest rank, a sample's latency as its reader handed it over (a row group's or a member's read"
                + " falls on the first sample that waits for it), and the read amplification: bytes the ranks and their"
                + " workers read from storage (the kernel's read_bytes) ÷ bytes of the samples delivered.</p>" + html;
    }

    /** @return the format and the settings of it a run recorded, e.g. {@code parquet row_group=1MiB} */
    private static String storage(RunResult r) {
        Map<String, String> p = r.parameters();
        Map<String, String> own = new LinkedHashMap<>();
        for (String key : List.of("layout", "shards", "shard_size", "row_group", "classes", "shuffle_buffer", "mmap")) {
            if (p.containsKey(key)) {
                own.put(key, p.get(key));
            }
        }
        return p.getOrDefault("format", "files") + (own.isEmpty() ? "" : " " + Formats.parameters(own));
    }

    private static String cell(double value, String format) {
        return Double.isNaN(value) ? "<td>-</td>" : "<td>" + String.format(java.util.Locale.ROOT, format, value) + "</td>";
    }

    /** A dataloader run's figures per repetition, as means over its repetitions. */
    record FormatFigures(double samplesPerSecond, double slowestRankSamplesPerSecond, double bytesPerSecond,
                         double readAmplification, double majorFaultsPerThousand) {
        static FormatFigures of(RunResult r) {
            double rate = 0;
            double slowest = 0;
            double bytes = 0;
            int reps = 0;
            for (dev.prism.RepetitionResult rep : r.repetitions()) {
                long count = 0;
                long delivered = 0;
                long longest = 0;
                double slow = Double.MAX_VALUE;
                for (dev.prism.RankResult rank : rep.ranks()) {
                    Measurement m = rank.measurements().get("sample");
                    if (m == null || rank.phaseNanos() <= 0) {
                        continue;
                    }
                    count += m.count();
                    delivered += m.bytes();
                    longest = Math.max(longest, rank.phaseNanos());
                    slow = Math.min(slow, m.count() / (rank.phaseNanos() / 1e9));
                }
                if (longest > 0) {
                    rate += count / (longest / 1e9);
                    bytes += delivered / (longest / 1e9);
                    slowest += slow;
                    reps++;
                }
            }
            if (reps == 0) {
                return new FormatFigures(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            double samplesPerRep = (double) r.measurements().get("sample").count() / r.repetitions().size();
            Long major = r.counters().get("major_faults");
            return new FormatFigures(rate / reps, slowest / reps, bytes / reps, BreakdownTables.readAmplification(r),
                    major == null || samplesPerRep <= 0 ? Double.NaN : major * 1000.0 / samplesPerRep);
        }
    }

    /**
     * @return a dataloader run's read amplification: bytes its ranks and their workers read from storage per
     *         repetition (the kernel's {@code storage_read_bytes}) ÷ bytes of the samples delivered per repetition;
     *         NaN where either is not known
     */
    public static double readAmplification(RunResult r) {
        Long read = r.counters().get("storage_read_bytes");
        Measurement delivered = r.measurements().get("sample");
        if (read == null || read < 0 || delivered == null || delivered.bytes() <= 0 || r.repetitions().isEmpty()) {
            return Double.NaN;
        }
        return read / ((double) delivered.bytes() / r.repetitions().size());
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
