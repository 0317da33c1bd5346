package dev.prism.internal.output;

import dev.prism.spi.TerminalText;

import dev.prism.internal.rank.RankExecution;

import dev.prism.Measurement;
import dev.prism.RankSpread;
import dev.prism.RepetitionStats;
import dev.prism.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The latency tables a person reads: one per benchmark configuration, one row per task count × operation. */
public final class TextTable {
    private static final String[] HEADER = {"tasks", "op", "count", "mean", "95% CI reps", "p50", "p90", "p99", "max", "ops/s"};
    private static final String BYTES_HEADER = "MiB/s";

    private TextTable() {
    }

    /** @return tables for {@code runs}; consecutive runs of one benchmark configuration share a table */
    public static String of(List<RunResult> runs) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < runs.size()) {
            int j = i;
            while (j < runs.size() && sameConfiguration(runs.get(i), runs.get(j))) {
                j++;
            }
            if (out.length() > 0) {
                out.append('\n');
            }
            appendTable(out, runs.subList(i, j));
            i = j;
        }
        return out.toString();
    }

    private static boolean sameConfiguration(RunResult a, RunResult b) {
        return a.benchmark().equals(b.benchmark()) && a.parameters().equals(b.parameters());
    }

    /** @return {@code k=v k=v}, leaving out parameters without a value */
    public static String parameters(Map<String, String> parameters) {
        StringBuilder s = new StringBuilder();
        parameters.forEach((k, v) -> {
            if (v != null && !v.isEmpty()) {
                s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v);
            }
        });
        return s.toString();
    }

    /** @return {@code row} with {@code cell} appended */
    private static String[] with(String[] row, String cell) {
        String[] out = java.util.Arrays.copyOf(row, row.length + 1);
        out[row.length] = cell;
        return out;
    }

    /**
     * @return the 95% interval of the mean over repetitions as it is, {@code [lo, hi]} (it is not symmetric: it is
     *         found on the log scale); {@code n/a} for 2 repetitions, whose interval (Student's t of 12.7) says nothing
     *         usable; {@code -} for one
     */
    static String interval(RepetitionStats across) {
        if (across.repetitions() < 2) {
            return "-";
        }
        if (across.repetitions() == 2) {
            return "n/a";
        }
        return "[" + duration(across.ci95LowNanos()) + ", " + duration(across.ci95HighNanos()) + "]";
    }

    /** @return {@code row} with {@code errors} inserted after the count column */
    private static String[] withErrors(String[] row, String errors) {
        String[] out = new String[row.length + 1];
        System.arraycopy(row, 0, out, 0, 3);
        out[3] = errors;
        System.arraycopy(row, 3, out, 4, row.length - 3);
        return out;
    }

    private static void appendTable(StringBuilder out, List<RunResult> runs) {
        RunResult first = runs.get(0);
        String parameters = parameters(first.parameters());
        // names, parameters, notes, paths and messages come from documents, ranks and the target: each on one line,
        // shown (TerminalText.escape), so none can start a line of its own under the figures
        out.append(TerminalText.escape(first.benchmark() + (parameters.isEmpty() ? "" : " " + parameters)));
        out.append(String.format("  [%s, %d rep(s), %d warm-up(s)]%n", first.launcher(),
                first.repetitions().size(), first.warmups()));
        List<String[]> rows = new ArrayList<>();
        // operations that failed are counted apart; the column shows only when something failed
        boolean errors = runs.stream().flatMap(r -> r.measurements().values().stream()).anyMatch(m -> m.errors() > 0);
        // bytes/s shows only where an operation of the table moved bytes
        boolean bytes = runs.stream().flatMap(r -> r.measurements().values().stream()).anyMatch(m -> m.bytes() > 0);
        String[] header = bytes ? with(HEADER, BYTES_HEADER) : HEADER;
        rows.add(errors ? withErrors(header, "errors") : header);
        for (RunResult run : runs) {
            for (Map.Entry<String, Measurement> e : run.measurements().entrySet()) {
                Measurement m = e.getValue();
                RepetitionStats across = run.acrossRepetitions().get(e.getKey());
                String ci = interval(across);
                String[] row = {String.valueOf(run.tasks()), e.getKey(), String.valueOf(m.count()),
                        duration(m.meanNanos()), ci, duration(m.p50Nanos()), duration(m.p90Nanos()),
                        duration(m.p99Nanos()), duration(m.maxNanos()), rate(m.opsPerSecond())};
                if (bytes) {
                    row = with(row, m.bytes() == 0 ? "-" : rate(m.bytesPerSecond() / (1024 * 1024)));
                }
                rows.add(errors ? withErrors(row, String.valueOf(m.errors())) : row);
            }
        }
        appendAligned(out, rows);
        for (RunResult run : runs) {
            if (run.tasks() > 1) {
                for (dev.prism.RepetitionResult rep : run.repetitions()) {
                    RankSpread spread = rep.rankSpread();
                    if (spread.ranks() > 1) {
                        out.append(String.format(Locale.ROOT, "  tasks %d rep %d: rank phase mean %s, fastest rank %d %s,"
                                        + " slowest rank %d %s (%.2fx the fastest)%n", run.tasks(), rep.number(),
                                duration(spread.meanNanos()), spread.fastestRank(), duration(spread.minNanos()),
                                spread.slowestRank(), duration(spread.maxNanos()), spread.slowestOverFastest()));
                    }
                }
            }
            for (dev.prism.RepetitionResult rep : run.repetitions()) {
                java.util.SortedSet<Integer> idle = new java.util.TreeSet<>();
                rep.ranks().stream().filter(r -> r.notes().containsKey(RankExecution.IDLE)).forEach(r -> idle.add(r.rank()));
                if (!idle.isEmpty()) {
                    out.append(String.format("  tasks %d rep %d: %d idle rank(s), %s: measured nothing, no share of the work%n",
                            run.tasks(), rep.index() + 1, idle.size(), ranks(idle)));
                }
            }
            if (!run.counters().isEmpty()) {
                StringBuilder line = new StringBuilder("  tasks " + run.tasks() + " (counters, mean per repetition):");
                run.counters().forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
                out.append(line).append('\n');
            }
            if (!run.notes().isEmpty()) {
                StringBuilder line = new StringBuilder("  tasks " + run.tasks() + ":");
                run.notes().forEach((k, v) -> line.append(' ').append(k).append("=\"").append(v).append('"'));
                out.append(TerminalText.escape(line)).append('\n');
            }
            if (!run.stalls().isEmpty()) {
                out.append(String.format("  tasks %d: %d stall(s) over %s, e.g. %s%n", run.tasks(), run.stalls().size(),
                        duration(run.stallThreshold().toNanos()), TerminalText.escape(run.stalls().get(0).toString())));
            }
            if (!run.passed()) {
                out.append(String.format("  tasks %d: FAIL %s%n", run.tasks(), TerminalText.escape(String.valueOf(run.failure()))));
            }
        }
    }

    private static void appendAligned(StringBuilder out, List<String[]> rows) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(" ");
            for (int c = 0; c < row.length; c++) {
                String cell = row[c];
                boolean left = c == 1;
                line.append(' ').append(left ? pad(cell, widths[c], true) : pad(cell, widths[c], false));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static String pad(String s, int width, boolean left) {
        String fill = " ".repeat(width - s.length());
        return left ? s + fill : fill + s;
    }

    /** @return a latency in the unit that suits it: {@code 850 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 1.23 s} */
    public static String duration(double nanos) {
        if (nanos < 1e3) {
            return String.format(Locale.ROOT, "%.0f ns", nanos);
        }
        if (nanos < 1e6) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        if (nanos < 1e9) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** @return ranks as ranges: {@code [0, 1, 2, 3, 5]} → {@code "ranks 0-3, 5"}, {@code [4]} → {@code "rank 4"} */
    public static String ranks(java.util.SortedSet<Integer> ranks) {
        List<String> ranges = new ArrayList<>();
        Integer first = null;
        Integer last = null;
        for (int r : ranks) {
            if (last != null && r == last + 1) {
                last = r;
                continue;
            }
            if (first != null) {
                ranges.add(first.equals(last) ? String.valueOf(first) : first + "-" + last);
            }
            first = r;
            last = r;
        }
        if (first != null) {
            ranges.add(first.equals(last) ? String.valueOf(first) : first + "-" + last);
        }
        return (ranks.size() == 1 ? "rank " : "ranks ") + String.join(", ", ranges);
    }

    /** @return a byte count in the binary unit that suits it: {@code 512 B}, {@code 4.0 KiB}, {@code 79.8 GiB} */
    public static String bytes(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int unit = 0;
        while (bytes >= 1024 && unit < units.length - 1) {
            bytes /= 1024;
            unit++;
        }
        return unit == 0 ? String.format(Locale.ROOT, "%.0f B", bytes) : String.format(Locale.ROOT, "%.1f %s", bytes, units[unit]);
    }

    private static String rate(double perSecond) {
        return perSecond >= 100 ? String.format(Locale.ROOT, "%,.0f", perSecond)
                : String.format(Locale.ROOT, "%.1f", perSecond);
    }
}
