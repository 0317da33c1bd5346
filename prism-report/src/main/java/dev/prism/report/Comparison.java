package dev.prism.report;

import dev.prism.spi.TerminalText;

import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.spi.Formats;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Baseline against candidate, for every benchmark × parameters × task count × operation both have,
 * and for each statistic asked for (mean, p99 and, where the counts allow, p99.9 by default): the
 * two values, their ratio, and Welch's t-test (commons-math3) over the <em>repetitions</em>, each
 * repetition's own value of the statistic being one sample. Ranks of one repetition run at the
 * same time on the same storage and are not independent samples; with fewer than
 * {@value #MIN_REPETITIONS} repetitions a side the verdict is {@code n/a}, never {@code same}. A
 * <em>regression</em> is a candidate slower than the baseline by more than the statistic's
 * threshold, with the difference significant at 5%: {@code REGRESSION p99} names the statistic. A
 * difference that is not significant is {@code same} only where two one-sided tests (TOST, at 5%) show the two within
 * the threshold of each other; otherwise the repetitions cannot tell, and the verdict is {@code inconclusive}. A
 * candidate run that failed is a failure of the comparison, whatever its numbers. As a whole ({@link #outcome()}) a
 * comparison passes only on evidence: every statistic judged and none regressed; one whose statistics the repetitions
 * could not judge is {@code INCONCLUSIVE}, never passed. Where a pair of runs ran under
 * different host conditions (other processes' CPU, steal, memory pressure: {@link dev.prism.HostConditions}), the
 * comparison warns, naming the figures.
 *
 * <p>Runs pair when benchmark, task count and parameters agree; {@link Options#pairIgnoring} pairs
 * runs that differ in named parameters — an A/B comparison such as {@code access=native} against
 * {@code access=nio}.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import dev.prism.Stat;
 * import dev.prism.report.Comparison;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 200; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var scenario = Scenario.builder().target(tmp).benchmark(touch).repetitions(3).build();
 * var before = scenario.execute().runs();
 * var after = scenario.execute().runs();
 * var c = Comparison.defaults().threshold(10).threshold(Stat.P99, 25).compare(before, after);
 * System.out.print(c.table(false));
 * System.out.println(c.outcome() + (c.hasRegression() ? ": " + c.regressions() : ""));   // PASSED, INCONCLUSIVE…
 * }</pre>
 *
 * @param options  how the runs were paired and judged
 * @param rows     one per operation × statistic compared
 * @param failures candidate runs that did not pass, each naming benchmark, task count and failure
 * @param warnings pairs of runs whose host conditions differed, each naming benchmark, task count and the figures
 */
public record Comparison(Options options, List<Row> rows, List<String> failures, List<String> warnings) {
    /** Significance level of the test. */
    public static final double ALPHA = 0.05;
    /** Repetitions a side below which no statistic is judged. */
    public static final int MIN_REPETITIONS = 3;

    /** What a statistic's comparison concluded. */
    public enum Verdict {
        /** No significant difference, and within the threshold of each other by two one-sided tests (equivalent). */
        SAME,
        /** No significant difference, but not shown to be within the threshold either: the repetitions cannot tell. */
        INCONCLUSIVE,
        /** Significantly faster. */
        FASTER,
        /** Significantly slower, but within the threshold. */
        SLOWER,
        /** Significantly slower by more than the threshold. */
        REGRESSION,
        /** Not judged: too few repetitions, or too few operations per repetition for the statistic. */
        NOT_APPLICABLE
    }

    /**
     * One statistic of one operation compared: what the table prints in a row. Made by {@link Comparison} only (its
     * constructor is not API), read through its accessors.
     */
    public static final class Row {
        private final String benchmark;
        private final String parameters;
        private final String pairedOn;
        private final int tasks;
        private final String operation;
        private final Stat stat;
        private final int baselineRepetitions;
        private final int candidateRepetitions;
        private final double baselineValue;
        private final double candidateValue;
        private final double ratio;
        private final double differenceLow;
        private final double differenceHigh;
        private final double pValue;
        private final Verdict verdict;
        private final String note;

        Row(String benchmark, String parameters, String pairedOn, int tasks, String operation, Stat stat, int baselineRepetitions, int candidateRepetitions, double baselineValue, double candidateValue, double ratio, double differenceLow, double differenceHigh, double pValue, Verdict verdict, String note) {
            this.benchmark = benchmark;
            this.parameters = parameters;
            this.pairedOn = pairedOn;
            this.tasks = tasks;
            this.operation = operation;
            this.stat = Objects.requireNonNull(stat, "stat");
            this.baselineRepetitions = baselineRepetitions;
            this.candidateRepetitions = candidateRepetitions;
            this.baselineValue = baselineValue;
            this.candidateValue = candidateValue;
            this.ratio = ratio;
            this.differenceLow = differenceLow;
            this.differenceHigh = differenceHigh;
            this.pValue = pValue;
            this.verdict = Objects.requireNonNull(verdict, "verdict");
            this.note = note;
        }

        /** @return the benchmark */
        public String benchmark() {
            return benchmark;
        }

        /** @return the candidate's parameters as text ({@code k=v …}, empty values left out) */
        public String parameters() {
            return parameters;
        }

        /** @return the ignored parameters that differ, as {@code access=native→nio}; empty when none */
        public String pairedOn() {
            return pairedOn;
        }

        /** @return the task count */
        public int tasks() {
            return tasks;
        }

        /** @return the operation */
        public String operation() {
            return operation;
        }

        /** @return the statistic */
        public Stat stat() {
            return stat;
        }

        /** @return repetitions of the baseline that estimate it */
        public int baselineRepetitions() {
            return baselineRepetitions;
        }

        /** @return repetitions of the candidate that estimate it */
        public int candidateRepetitions() {
            return candidateRepetitions;
        }

        /** @return the statistic over all the baseline's repetitions (ns, or per second for a rate) */
        public double baselineValue() {
            return baselineValue;
        }

        /** @return the same for the candidate */
        public double candidateValue() {
            return candidateValue;
        }

        /** @return candidate / baseline */
        public double ratio() {
            return ratio;
        }

        /** @return lower end of the 95% CI of candidate − baseline, over per-repetition values (NaN when not judged) */
        public double differenceLow() {
            return differenceLow;
        }

        /** @return upper end */
        public double differenceHigh() {
            return differenceHigh;
        }

        /** @return Welch's t-test over per-repetition values, two-sided (NaN when not judged) */
        public double pValue() {
            return pValue;
        }

        /** @return the conclusion */
        public Verdict verdict() {
            return verdict;
        }

        /** @return why it was not judged ({@code 1 rep; need ≥ 3}); empty otherwise */
        public String note() {
            return note;
        }

        /** @return whether {@code o} is a row with equal components */
        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Row r)) {
                return false;
            }
            return Objects.equals(benchmark, r.benchmark)
                    && Objects.equals(parameters, r.parameters)
                    && Objects.equals(pairedOn, r.pairedOn)
                    && tasks == r.tasks
                    && Objects.equals(operation, r.operation)
                    && Objects.equals(stat, r.stat)
                    && baselineRepetitions == r.baselineRepetitions
                    && candidateRepetitions == r.candidateRepetitions
                    && Double.compare(baselineValue, r.baselineValue) == 0
                    && Double.compare(candidateValue, r.candidateValue) == 0
                    && Double.compare(ratio, r.ratio) == 0
                    && Double.compare(differenceLow, r.differenceLow) == 0
                    && Double.compare(differenceHigh, r.differenceHigh) == 0
                    && Double.compare(pValue, r.pValue) == 0
                    && Objects.equals(verdict, r.verdict)
                    && Objects.equals(note, r.note);
        }

        @Override
        public int hashCode() {
            return Objects.hash(benchmark, parameters, pairedOn, tasks, operation, stat, baselineRepetitions, candidateRepetitions, baselineValue, candidateValue, ratio, differenceLow, differenceHigh, pValue, verdict, note);
        }

        /** @return the row in the table's words: {@code create_files tasks=1 create p99: 1.02× REGRESSION p99} */
        @Override
        public String toString() {
            return benchmark + (parameters.isEmpty() ? "" : " " + parameters) + " tasks=" + tasks + " " + operation + " "
                    + stat.label() + ": " + String.format(Locale.ROOT, "%.2f×", ratio) + " " + verdictText();
        }

        /** @return whether the difference is significant at {@link #ALPHA} */
        public boolean significant() {
            return !Double.isNaN(pValue) && pValue < ALPHA;
        }

        /** @return whether this statistic regressed */
        public boolean regression() {
            return verdict == Verdict.REGRESSION;
        }

        /** @return the verdict as the table says it: {@code REGRESSION p99}, {@code same}, {@code n/a (1 rep; need ≥ 3)} */
        public String verdictText() {
            return switch (verdict) {
                case REGRESSION -> "REGRESSION " + stat.label();
                case NOT_APPLICABLE -> "n/a (" + note + ")";
                default -> verdict.name().toLowerCase(Locale.ROOT);
            };
        }
    }

    /** Copies. */
    public Comparison {
        Objects.requireNonNull(options, "options");
        rows = List.copyOf(rows);
        failures = List.copyOf(failures);
        warnings = List.copyOf(warnings);
    }

    /** @return the default options: mean, p99 and p99.9, every threshold 10%, runs paired on all parameters */
    public static Options defaults() {
        return Options.DEFAULT;
    }

    /** @return the comparison of every run the two sets share, with every statistic's threshold {@code thresholdPercent} */
    public static Comparison of(List<RunResult> baseline, List<RunResult> candidate, double thresholdPercent) {
        return defaults().threshold(thresholdPercent).compare(baseline, candidate);
    }

    /**
     * How runs are paired and judged; immutable, each method returns a changed copy and checks its
     * argument at once.
     */
    public static final class Options {
        static final Options DEFAULT = new Options(10, Map.of(), List.of(Stat.MEAN, Stat.P99, Stat.P999), Set.of());

        private final double threshold;
        private final Map<Stat, Double> thresholds;
        private final List<Stat> statistics;
        private final Set<String> pairIgnoring;

        private Options(double threshold, Map<Stat, Double> thresholds, List<Stat> statistics, Set<String> pairIgnoring) {
            this.threshold = threshold;
            this.thresholds = thresholds;
            this.statistics = statistics;
            this.pairIgnoring = pairIgnoring;
        }

        private static double checkPercent(String name, double percent) {
            if (!(percent >= 0 && percent <= 10_000)) {
                throw new IllegalArgumentException(name + " must be in 0..10000 (percent), was " + percent);
            }
            return percent;
        }

        /** @param percent slowdowns up to this are tolerated, for every statistic without its own threshold (0..10000) */
        public Options threshold(double percent) {
            return new Options(checkPercent("thresholdPercent", percent), thresholds, statistics, pairIgnoring);
        }

        /** @param percent slowdowns of {@code stat} up to this are tolerated (0..10000) */
        public Options threshold(Stat stat, double percent) {
            Map<Stat, Double> copy = new EnumMap<>(Stat.class);
            copy.putAll(thresholds);
            copy.put(Objects.requireNonNull(stat, "stat"), checkPercent("thresholdPercent of " + stat, percent));
            return new Options(threshold, Map.copyOf(copy), statistics, pairIgnoring);
        }

        /** @return these statistics compared, in this order */
        public Options statistics(Stat first, Stat... more) {
            List<Stat> stats = new ArrayList<>();
            stats.add(Objects.requireNonNull(first, "statistics"));
            stats.addAll(Arrays.asList(more));
            return new Options(threshold, thresholds, List.copyOf(new LinkedHashSet<>(stats)), pairIgnoring);
        }

        /** @return these statistics compared, in this order (at least one) */
        public Options statistics(List<Stat> stats) {
            if (stats.isEmpty()) {
                throw new IllegalArgumentException("statistics must name at least one of " + Stat.names() + ", was []");
            }
            return new Options(threshold, thresholds, List.copyOf(new LinkedHashSet<>(stats)), pairIgnoring);
        }

        /** @param parameters parameters whose values may differ between paired runs ({@code access}) */
        public Options pairIgnoring(String... parameters) {
            for (String p : parameters) {
                if (p == null || p.isBlank()) {
                    throw new IllegalArgumentException("pairIgnoring needs parameter names, was '" + p + "'");
                }
            }
            return new Options(threshold, thresholds, statistics, Set.copyOf(Arrays.asList(parameters)));
        }

        /** @return the threshold of {@code stat}, percent */
        public double thresholdOf(Stat stat) {
            return thresholds.getOrDefault(stat, threshold);
        }

        /** @return the statistics compared */
        public List<Stat> statistics() {
            return statistics;
        }

        /** @return the parameters ignored when pairing */
        public Set<String> pairIgnoring() {
            return pairIgnoring;
        }

        /**
         * @return the comparison of every candidate run that has a baseline partner
         * @throws IllegalArgumentException when a parameter to ignore is a parameter of no run
         */
        public Comparison compare(List<RunResult> baseline, List<RunResult> candidate) {
            Set<String> known = new TreeSet<>();
            baseline.forEach(r -> known.addAll(r.parameters().keySet()));
            candidate.forEach(r -> known.addAll(r.parameters().keySet()));
            for (String p : pairIgnoring) {
                if (!known.contains(p)) {
                    throw new IllegalArgumentException("no run has a parameter '" + p + "' to pair ignoring; parameters: "
                            + String.join(", ", known));
                }
            }
            List<Row> rows = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            List<String> warnings = new ArrayList<>();
            for (RunResult c : candidate) {
                RunResult b = partner(baseline, c);
                if (b == null) {
                    continue;
                }
                String differing = conditionsDiffer(b, c);
                if (differing != null) {
                    warnings.add(differing);
                }
                if (!c.passed()) {
                    failures.add(c.benchmark() + " tasks=" + c.tasks() + ": " + c.status() + " " + c.failure());
                }
                for (String op : c.measurements().keySet()) {
                    if (b.measurements().containsKey(op)) {
                        for (Stat stat : statistics) {
                            Row row = Comparison.row(b, c, op, stat, thresholdOf(stat), pairIgnoring);
                            boolean hidden = stat == Stat.P999 && row.verdict() == Verdict.NOT_APPLICABLE
                                    && !statistics.equals(List.of(Stat.P999));
                            if (!hidden) {
                                rows.add(row);
                            }
                        }
                    }
                }
            }
            return new Comparison(this, rows, failures, warnings);
        }

        private RunResult partner(List<RunResult> baseline, RunResult c) {
            RunResult loose = null;
            for (RunResult b : baseline) {
                if (b.benchmark().equals(c.benchmark()) && b.tasks() == c.tasks()) {
                    if (b.parameters().equals(c.parameters())) {
                        return b;
                    }
                    if (loose == null && withoutIgnored(b.parameters()).equals(withoutIgnored(c.parameters()))) {
                        loose = b;
                    }
                }
            }
            return loose;
        }

        /** @return {@code parameters} without those ignored when pairing */
        public Map<String, String> withoutIgnored(Map<String, String> parameters) {
            Map<String, String> kept = new TreeMap<>(parameters);
            kept.keySet().removeAll(pairIgnoring);
            return kept;
        }

        @Override
        public String toString() {
            String stats = statistics.stream().map(s -> s.label() + " " + fmt(thresholdOf(s)) + "%").collect(Collectors.joining(", "));
            return stats + (pairIgnoring.isEmpty() ? "" : "; paired ignoring " + String.join(", ", new TreeSet<>(pairIgnoring)));
        }
    }

    /**
     * @return where {@code b} and {@code c} ran under different host conditions, a line naming the run and the figures
     *         ({@code create_files tasks=2: the two ran under different conditions: other processes' CPU 2% vs 61% …});
     *         null when alike or unknown
     */
    public static String conditionsDiffer(RunResult b, RunResult c) {
        List<String> differences = b.conditions().differences(c.conditions());
        return differences.isEmpty() ? null : c.benchmark() + " tasks=" + c.tasks() + ": the two ran under different host"
                + " conditions (baseline vs candidate): " + String.join("; ", differences);
    }

    /** @return each measured repetition's value of {@code stat} for {@code operation}, where the repetition holds enough operations */
    static double[] perRepetition(RunResult run, String operation, Stat stat) {
        return run.repetitions().stream().map(r -> r.measurements().get(operation)).filter(Objects::nonNull)
                .filter(m -> m.count() >= stat.minimumCount())
                .mapToDouble(stat::of).toArray();
    }

    /** @return {@code stat} of {@code operation} in candidate {@code c} against baseline {@code b} */
    static Row row(RunResult b, RunResult c, String op, Stat stat, double thresholdPercent, Set<String> ignored) {
        Measurement mb = b.measurement(op);
        Measurement mc = c.measurement(op);
        double[] sb = perRepetition(b, op, stat);
        double[] sc = perRepetition(c, op, stat);
        double valueB = stat.of(mb);
        double valueC = stat.of(mc);
        double ratio = valueC / valueB;
        String note = "";
        Verdict verdict;
        double p = Double.NaN;
        double low = Double.NaN;
        double high = Double.NaN;
        if (Math.min(sb.length, sc.length) < MIN_REPETITIONS) {
            verdict = Verdict.NOT_APPLICABLE;
            note = notEnough(b, c, op, stat, sb.length, sc.length);
        } else {
            double vb = StatUtils.variance(sb) / sb.length;
            double vc = StatUtils.variance(sc) / sc.length;
            double diff = StatUtils.mean(sc) - StatUtils.mean(sb);
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
            double slowdown = stat.slowdown(valueB, valueC);
            if (!(p < ALPHA)) {
                verdict = equivalent(sb, sc, thresholdPercent) ? Verdict.SAME : Verdict.INCONCLUSIVE;
                if (verdict == Verdict.INCONCLUSIVE) {
                    note = "not significant, and not shown within ±" + fmt(thresholdPercent) + "%";
                }
            } else if (slowdown > 1 + thresholdPercent / 100) {
                verdict = Verdict.REGRESSION;
            } else {
                verdict = slowdown > 1 ? Verdict.SLOWER : Verdict.FASTER;
            }
        }
        return new Row(c.benchmark(), Formats.parameters(c.parameters()), pairedOn(b, c, ignored), c.tasks(), op, stat,
                sb.length, sc.length, valueB, valueC, ratio, low, high, p, verdict, note);
    }

    /**
     * @return whether two one-sided tests at {@link #ALPHA} (Welch's, over per-repetition values) put the difference of
     *         the means within ± {@code thresholdPercent} of the baseline's mean: the 90% interval of the difference
     *         lies inside the margin. A margin of 0 is never met
     */
    static boolean equivalent(double[] sb, double[] sc, double thresholdPercent) {
        double margin = Math.abs(StatUtils.mean(sb)) * thresholdPercent / 100;
        double diff = StatUtils.mean(sc) - StatUtils.mean(sb);
        double vb = StatUtils.variance(sb) / sb.length;
        double vc = StatUtils.variance(sc) / sc.length;
        if (vb + vc == 0) {
            return Math.abs(diff) < margin;
        }
        double df = (vb + vc) * (vb + vc) / (vb * vb / (sb.length - 1) + vc * vc / (sc.length - 1));
        double half = new TDistribution(null, df).inverseCumulativeProbability(1 - ALPHA) * Math.sqrt(vb + vc);
        return diff - half > -margin && diff + half < margin;
    }

    private static String notEnough(RunResult b, RunResult c, String op, Stat stat, int nb, int nc) {
        long fewest = Math.min(minimumCount(b, op), minimumCount(c, op));
        if (stat.isPercentile() && fewest < stat.minimumCount()) {
            return fewest + " ops/rep; " + stat.label() + " needs ≥ " + stat.minimumCount();
        }
        int reps = Math.min(nb, nc);
        String have = nb == nc ? reps + (reps == 1 ? " rep" : " reps") : nb + " vs " + nc + " reps";
        return have + "; need ≥ " + MIN_REPETITIONS;
    }

    private static long minimumCount(RunResult run, String op) {
        return run.repetitions().stream().map(r -> r.measurements().get(op)).filter(Objects::nonNull)
                .mapToLong(Measurement::count).min().orElse(0);
    }

    private static String pairedOn(RunResult b, RunResult c, Set<String> ignored) {
        StringBuilder s = new StringBuilder();
        for (String p : new TreeSet<>(ignored)) {
            String vb = b.parameters().getOrDefault(p, "");
            String vc = c.parameters().getOrDefault(p, "");
            if (!vb.equals(vc)) {
                s.append(s.length() == 0 ? "" : " ").append(p).append('=').append(vb).append('→').append(vc);
            }
        }
        return s.toString();
    }

    /** @return whether any statistic regressed */
    public boolean hasRegression() {
        return rows.stream().anyMatch(Row::regression);
    }

    /** What a comparison says as a whole ({@link #outcome()}). */
    public enum Outcome {
        /**
         * Every candidate run passed and every statistic compared was judged without a regression: alike ({@code
         * same}), faster, or slower within its threshold.
         */
        PASSED,
        /**
         * Nothing regressed and no candidate run failed, but the evidence does not show it: a statistic was {@code
         * inconclusive} or not judged ({@code n/a}: too few repetitions or operations), or the two sets shared nothing
         * to compare. More repetitions, or fewer statistics ({@code --stats mean}), decide it.
         */
        INCONCLUSIVE,
        /** A statistic is slower by more than its threshold, significantly. */
        REGRESSION,
        /** A candidate run failed, whatever its numbers. */
        FAILED
    }

    /**
     * @return the comparison as a whole: {@link Outcome#FAILED} when a candidate run failed, else {@link
     *         Outcome#REGRESSION} when a statistic regressed, else {@link Outcome#PASSED} when every statistic was
     *         judged (none inconclusive, none n/a, at least one compared), else {@link Outcome#INCONCLUSIVE}
     */
    public Outcome outcome() {
        if (!failures.isEmpty()) {
            return Outcome.FAILED;
        }
        if (hasRegression()) {
            return Outcome.REGRESSION;
        }
        return !rows.isEmpty() && judged() == rows.size() ? Outcome.PASSED : Outcome.INCONCLUSIVE;
    }

    /** @return how many statistics were judged: {@code same}, faster, slower or a regression (not inconclusive, not n/a) */
    public long judged() {
        return rows.stream().filter(r -> r.verdict() != Verdict.INCONCLUSIVE && r.verdict() != Verdict.NOT_APPLICABLE).count();
    }

    /**
     * @return whether the evidence says the candidate did not regress ({@link Outcome#PASSED}): every candidate run
     *         passed, and every statistic compared was judged and none regressed. A comparison whose statistics are
     *         inconclusive or not judged has not passed, though nothing regressed ({@link Outcome#INCONCLUSIVE}; {@link
     *         #hasRegression()} says whether something did)
     */
    public boolean passed() {
        return outcome() == Outcome.PASSED;
    }

    /** @return the rows that are regressions */
    public List<Row> regressions() {
        return rows.stream().filter(Row::regression).toList();
    }

    /** @return the rows of {@code operation} */
    public List<Row> rowsOf(String operation) {
        return rows.stream().filter(r -> r.operation().equals(operation)).toList();
    }

    /** @return the comparison as a table: aligned text, or markdown; failed candidate runs and a summary line follow */
    public String table(boolean markdown) {
        boolean paired = rows.stream().anyMatch(r -> !r.pairedOn().isEmpty());
        List<String> header = new ArrayList<>(List.of("benchmark", "tasks", "op", "stat", "reps", "baseline", "candidate",
                "ratio", "95% CI of diff", "p", "verdict"));
        if (paired) {
            header.add(1, "paired on");
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(header.toArray(String[]::new));
        for (Row r : rows) {
            String ci = Double.isNaN(r.differenceLow()) ? "-" : signed(r.stat(), r.differenceLow()) + " .. "
                    + signed(r.stat(), r.differenceHigh());
            List<String> cells = new ArrayList<>(List.of(r.benchmark(), String.valueOf(r.tasks()), r.operation(),
                    r.stat().label(), r.baselineRepetitions() + "/" + r.candidateRepetitions(), value(r.stat(), r.baselineValue()),
                    value(r.stat(), r.candidateValue()), Double.isFinite(r.ratio()) ? String.format(Locale.ROOT, "%.2f", r.ratio()) : "-", ci,
                    Double.isNaN(r.pValue()) ? "-" : String.format(Locale.ROOT, "%.3g", r.pValue()), r.verdictText()));
            if (paired) {
                cells.add(1, r.pairedOn());
            }
            // names and parameters came from result documents: one cell, one line, whatever they hold
            lines.add(cells.stream().map(c -> cell(c, markdown)).toArray(String[]::new));
        }
        StringBuilder out = new StringBuilder();
        if (markdown) {
            lines.forEach(l -> {
                out.append("| ").append(String.join(" | ", l)).append(" |\n");
                if (l == lines.get(0)) {
                    out.append('|').append(" --- |".repeat(l.length)).append('\n');
                }
            });
        } else {
            int left = paired ? 5 : 4;
            int[] w = new int[header.size()];
            lines.forEach(l -> {
                for (int i = 0; i < l.length; i++) {
                    w[i] = Math.max(w[i], l[i].length());
                }
            });
            for (String[] l : lines) {
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < l.length; i++) {
                    boolean alignLeft = (i < left && i != (paired ? 2 : 1)) || i == l.length - 1;
                    line.append(i == 0 ? "" : "  ").append(pad(l[i], w[i], alignLeft));
                }
                out.append(line.toString().stripTrailing()).append('\n');
            }
        }
        failures.forEach(f -> out.append("FAILED ").append(TerminalText.escape(f)).append('\n'));
        warnings.forEach(w -> out.append("WARNING ").append(TerminalText.escape(w)).append('\n'));
        long undecided = rows.stream().filter(r -> r.verdict() == Verdict.NOT_APPLICABLE).count();
        long inconclusive = rows.stream().filter(r -> r.verdict() == Verdict.INCONCLUSIVE).count();
        out.append(String.format(Locale.ROOT, "%d statistic(s) compared, %d regression(s)%s%s%s (a regression: slower by more than the threshold, %s;"
                        + " significant in Welch's t-test over repetitions, p < %.2f; alike only where two one-sided tests put the two within it)%n", rows.size(), regressions().size(),
                undecided == 0 ? "" : ", " + undecided + " not judged", inconclusive == 0 ? "" : ", " + inconclusive + " inconclusive",
                failures.isEmpty() ? "" : ", " + failures.size() + " failed run(s)", options, ALPHA));
        out.append(switch (outcome()) {
            case PASSED -> "outcome: passed (every statistic judged, none regressed)";
            case INCONCLUSIVE -> String.format(Locale.ROOT, "outcome: INCONCLUSIVE (%d of %d statistic(s) judged, none regressed;"
                    + " more repetitions, or fewer statistics, decide the rest)", judged(), rows.size());
            case REGRESSION -> "outcome: REGRESSION (" + regressions().size() + " statistic(s))";
            case FAILED -> "outcome: FAILED (" + failures.size() + " candidate run(s) failed)";
        }).append('\n');
        return out.toString();
    }

    /**
     * @return {@code text} as one table cell: control characters, line breaks among them, escaped
     *         ({@link TerminalText#escape}), and in markdown a {@code |} too, so no value can start a row of its own
     */
    static String cell(String text, boolean markdown) {
        String escaped = TerminalText.escape(text);
        return markdown ? escaped.replace("|", "\\|") : escaped;
    }

    private static String value(Stat stat, double v) {
        return stat.isRate() ? (stat == Stat.BYTES_PER_SECOND ? Formats.bytes(v) + "/s" : String.format(Locale.ROOT, "%.4g/s", v))
                : Formats.latency(v);
    }

    private static String pad(String s, int width, boolean left) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return left ? s + fill : fill + s;
    }

    private static String signed(Stat stat, double v) {
        return (v < 0 ? "-" : "+") + value(stat, Math.abs(v));
    }

    /** @return a percentage as people write it: {@code 10}, {@code 12.5} */
    static String fmt(double percent) {
        return percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent);
    }
}
