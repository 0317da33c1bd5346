package dev.prism.report.internal;

import dev.prism.RepetitionStats;
import dev.prism.RunResult;
import dev.prism.spi.Formats;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every measurement of result sets as CSV: one row per set × run × operation, for spreadsheets and pandas. Text cells are
 * quoted, a leading formula character defused ({@link #quote}); numbers are PRISM's own and unquoted.
 */
public final class MeasurementCsv {
    /** The header row. */
    public static final String HEADER = "set,benchmark,parameters,tasks,operation,count,bytes,mean_ns,ci95_low_ns,"
            + "ci95_high_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,ops_per_s,bytes_per_s,repetitions,filesystem";

    private MeasurementCsv() {
    }

    /** @return the CSV of {@code sets} (by label, in order), header first */
    public static String of(Map<String, List<RunResult>> sets) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        sets.forEach((label, runs) -> {
            for (RunResult run : runs) {
                run.measurements().forEach((op, m) -> {
                    RepetitionStats rs = run.acrossRepetitions().get(op);
                    csv.append(String.join(",", quote(label), quote(run.benchmark()), quote(Formats.parameters(run.parameters())),
                            String.valueOf(run.tasks()), quote(op), String.valueOf(m.count()), String.valueOf(m.bytes()),
                            num(rs.meanNanos()), num(rs.ci95LowNanos()), num(rs.ci95HighNanos()), String.valueOf(m.p50Nanos()),
                            String.valueOf(m.p90Nanos()), String.valueOf(m.p99Nanos()), String.valueOf(m.p999Nanos()),
                            String.valueOf(m.maxNanos()), num(m.opsPerSecond()), num(m.bytesPerSecond()),
                            String.valueOf(rs.repetitions()), quote(run.target().filesystemType()))).append('\n');
                });
            }
        });
        return csv.toString();
    }

    /**
     * @return {@code s} as a quoted text cell. A cell beginning with {@code =}, {@code +}, {@code -}, {@code @}, tab or
     *         CR is a formula to a spreadsheet — {@code =HYPERLINK(…)} in a set named after another user's directory,
     *         or in a planted result document's benchmark or file system — so it gets a single quote before it, as
     *         OWASP's advice on CSV injection says: shown as text, never run. PRISM's own numbers (counts, latencies,
     *         rates, a confidence bound below zero) are written unquoted by {@link #num} and {@code String.valueOf}
     *         from numbers, never from text, and stay numbers: {@code -12.500} is a figure, not a formula, to every
     *         spreadsheet
     */
    private static String quote(String s) {
        String cell = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        return "\"" + cell.replace("\"", "\"\"") + "\"";
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
