package dev.prism;

import dev.prism.internal.TextTable;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.inference.TTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Baseline against candidate, for every benchmark × parameters × task count × operation both have:
 * the two means and p99s, their ratio, the 95% confidence interval of the difference of the means and
 * the p-value of Welch's t-test (commons-math3) on the per-rank, per-repetition mean latencies. A
 * <em>regression</em> is a candidate slower than the baseline by more than the threshold, with the
 * difference significant at 5%.
 *
 * <pre>{@code
 * // var c = dev.prism.Comparison.of(dev.prism.Results.load(before), dev.prism.Results.load(after), 10);
 * // System.out.println(c.table(false)); if (c.hasRegression()) System.exit(1);
 * }</pre>
 *
 * @param thresholdPercent slowdowns up to this are tolerated
 * @param rows             one per operation both sides measured
 */
public record Comparison(double thresholdPercent, List<Row> rows) {
    /** Significance level of the test. */
    public static final double ALPHA = 0.05;

    /**
     * One operation compared.
     *
     * @param benchmark         the benchmark
     * @param parameters        its parameter values that differ from the defaults… as text (all of them)
     * @param tasks             the task count
     * @param operation         the operation
     * @param baselineMeanNanos mean latency of the baseline
     * @param candidateMeanNanos mean latency of the candidate
     * @param baselineP99Nanos  p99 of the baseline
     * @param candidateP99Nanos p99 of the candidate
     * @param ratio             candidate mean / baseline mean
     * @param differenceLowNanos  lower end of the 95% CI of candidate − baseline mean (NaN with too few samples)
     * @param differenceHighNanos upper end
     * @param pValue            Welch's t-test, two-sided (NaN with fewer than 2 samples a side)
     * @param regression        slower by more than the threshold, and significant
     */
    public record Row(String benchmark, String parameters, int tasks, String operation, double baselineMeanNanos,
                      double candidateMeanNanos, long baselineP99Nanos, long candidateP99Nanos, double ratio,
                      double differenceLowNanos, double differenceHighNanos, double pValue, boolean regression) {
        /** @return whether the difference is significant at {@link #ALPHA} */
        public boolean significant() {
            return !Double.isNaN(pValue) && pValue < ALPHA;
        }
    }

    /** Checks and copies. */
    public Comparison {
        rows = List.copyOf(rows);
    }

    /** @return the comparison of every run the two sets share */
    public static Comparison of(List<RunResult> baseline, List<RunResult> candidate, double thresholdPercent) {
        if (!(thresholdPercent >= 0 && thresholdPercent <= 10_000)) {
            throw new IllegalArgumentException("thresholdPercent must be in 0..10000, was " + thresholdPercent);
        }
        List<Row> rows = new ArrayList<>();
        for (RunResult c : candidate) {
            RunResult b = baseline.stream().filter(x -> x.benchmark().equals(c.benchmark()) && x.tasks() == c.tasks()
                    && x.parameters().equals(c.parameters())).findFirst().orElse(null);
            if (b == null) {
                continue;
            }
            for (Map.Entry<String, Measurement> e : c.measurements().entrySet()) {
                Measurement mb = b.measurements().get(e.getKey());
                if (mb != null && mb.count() > 0 && e.getValue().count() > 0) {
                    rows.add(row(b, c, e.getKey(), mb, e.getValue(), thresholdPercent));
                }
            }
        }
        return new Comparison(thresholdPercent, rows);
    }

    /** @return the per-rank, per-repetition mean latencies of {@code operation} */
    static double[] samples(RunResult run, String operation) {
        return run.repetitions().stream().flatMap(r -> r.ranks().stream()).map(r -> r.measurements().get(operation))
                .filter(Objects::nonNull).filter(m -> m.count() > 0).mapToDouble(Measurement::meanNanos).toArray();
    }

    private static Row row(RunResult b, RunResult c, String op, Measurement mb, Measurement mc, double threshold) {
        double[] sb = samples(b, op);
        double[] sc = samples(c, op);
        double p = Double.NaN;
        double low = Double.NaN;
        double high = Double.NaN;
        if (sb.length >= 2 && sc.length >= 2) {
            double vb = variance(sb) / sb.length;
            double vc = variance(sc) / sc.length;
            double diff = mean(sc) - mean(sb);
            if (vb + vc == 0) {
                p = diff == 0 ? 1 : 0;
                low = diff;
                high = diff;
            } else {
                p = new TTest().tTest(sb, sc);
                double df = (vb + vc) * (vb + vc) / (vb * vb / (sb.length - 1) + vc * vc / (sc.length - 1));
                double half = new TDistribution(null, df).inverseCumulativeProbability(0.975) * Math.sqrt(vb + vc);
                low = diff - half;
                high = diff + half;
            }
        }
        double ratio = mc.meanNanos() / mb.meanNanos();
        boolean regression = ratio > 1 + threshold / 100 && !Double.isNaN(p) && p < ALPHA;
        return new Row(c.benchmark(), summary(c.parameters()), c.tasks(), op, mb.meanNanos(), mc.meanNanos(),
                mb.p99Nanos(), mc.p99Nanos(), ratio, low, high, p, regression);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double variance(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return s / (v.length - 1);
    }

    private static String summary(Map<String, String> parameters) {
        StringBuilder s = new StringBuilder();
        parameters.forEach((k, v) -> s.append(s.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return s.toString();
    }

    /** @return whether any row is a regression */
    public boolean hasRegression() {
        return rows.stream().anyMatch(Row::regression);
    }

    /** @return the rows that are regressions */
    public List<Row> regressions() {
        return rows.stream().filter(Row::regression).toList();
    }

    /** @return the comparison as a table: aligned text, or markdown */
    public String table(boolean markdown) {
        String[] header = {"benchmark", "tasks", "op", "base mean", "cand mean", "ratio", "95% CI of diff", "p", "base p99",
                "cand p99", "verdict"};
        List<String[]> lines = new ArrayList<>();
        for (Row r : rows) {
            String ci = Double.isNaN(r.differenceLowNanos()) ? "-" : signed(r.differenceLowNanos()) + " .. " + signed(r.differenceHighNanos());
            String verdict = r.regression() ? "REGRESSION" : r.significant() ? (r.ratio() > 1 ? "slower" : "faster") : "same";
            lines.add(new String[]{r.benchmark(), String.valueOf(r.tasks()), r.operation(), TextTable.duration(r.baselineMeanNanos()),
                    TextTable.duration(r.candidateMeanNanos()), String.format(Locale.ROOT, "%.2f", r.ratio()), ci,
                    Double.isNaN(r.pValue()) ? "-" : String.format(Locale.ROOT, "%.3g", r.pValue()),
                    TextTable.duration(r.baselineP99Nanos()), TextTable.duration(r.candidateP99Nanos()), verdict});
        }
        StringBuilder out = new StringBuilder();
        if (markdown) {
            out.append("| ").append(String.join(" | ", header)).append(" |\n|");
            out.append(" --- |".repeat(header.length)).append('\n');
            lines.forEach(l -> out.append("| ").append(String.join(" | ", l)).append(" |\n"));
        } else {
            int[] w = new int[header.length];
            for (String[] l : concat(header, lines)) {
                for (int i = 0; i < l.length; i++) {
                    w[i] = Math.max(w[i], l[i].length());
                }
            }
            for (String[] l : concat(header, lines)) {
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < l.length; i++) {
                    line.append(i == 0 ? "" : "  ").append(i < 3 || i == l.length - 1 ? pad(l[i], w[i], true) : pad(l[i], w[i], false));
                }
                out.append(line.toString().stripTrailing()).append('\n');
            }
        }
        out.append(String.format(Locale.ROOT, "%d operation(s) compared, %d regression(s) (slower by more than %.0f%%,"
                + " Welch's t-test p < %.2f)%n", rows.size(), regressions().size(), thresholdPercent, ALPHA));
        return out.toString();
    }

    private static List<String[]> concat(String[] header, List<String[]> lines) {
        List<String[]> all = new ArrayList<>();
        all.add(header);
        all.addAll(lines);
        return all;
    }

    private static String pad(String s, int width, boolean left) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return left ? s + fill : fill + s;
    }

    private static String signed(double nanos) {
        return (nanos < 0 ? "-" : "+") + TextTable.duration(Math.abs(nanos));
    }
}
