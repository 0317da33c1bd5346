package dev.prism.report;

import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.spi.Formats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Expectations on results — the qualification gate. Absolute ({@code p99 of create below 20 ms},
 * {@code bytes/s of read above 1 GiB/s}) or relative to a baseline ({@code p99 not slower than the
 * baseline by more than 10%}, counted only when the difference is significant over the
 * repetitions, as {@link Comparison} decides). Every statistic of {@link Stat} can be bounded; a
 * latency takes an upper bound and a rate a lower one, which the types enforce. Every expectation
 * on a run that failed fails, with the failure as its reason. {@link #evaluate} gives a
 * {@link Verdict} with a reason for every expectation.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import dev.prism.report.Gate;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 * import java.time.Duration;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var result = Scenario.builder().target(tmp).benchmark(touch).repetitions(3).build().execute();
 * var gate = Gate.of(
 *         Gate.expect("touch").op("create").p99().below(Duration.ofSeconds(1)),
 *         Gate.expect("touch").op("create").opsPerSecond().above(10));
 * System.out.println(gate.evaluate(result.runs()));   // gate PASSED, a line per expectation
 * }</pre>
 */
public final class Gate {
    private final List<Expectation> expectations;

    private Gate(List<Expectation> expectations) {
        this.expectations = List.copyOf(expectations);
    }

    /** @return a gate of these expectations */
    public static Gate of(Expectation... expectations) {
        return new Gate(List.of(expectations));
    }

    /** @return a gate of these expectations */
    public static Gate of(List<Expectation> expectations) {
        return new Gate(expectations);
    }

    /**
     * Reads a gate file: {@code {"expectations": [{"benchmark": "create_files", "tasks": 2, "op": "create",
     * "stat": "p99", "below": "20ms"}, {"benchmark": "md5_check", "op": "read", "stat": "bytes/s", "above": 1e9},
     * {"benchmark": "create_files", "op": "create", "stat": "p99", "notSlowerThanBaselineBy": 10}]}}; stat is
     * one of {@link Stat#names()}; a latency takes {@code below}, a rate {@code above}, either
     * {@code notSlowerThanBaselineBy}; {@code tasks} is optional.
     *
     * @throws IllegalArgumentException naming the expectation and field that is wrong
     */
    public static Gate fromJson(java.nio.file.Path file) throws java.io.IOException {
        return new Gate(dev.prism.report.internal.GateFile.read(file));
    }

    /** @return the start of an expectation on {@code benchmark} */
    public static Subject expect(String benchmark) {
        return new Subject(Objects.requireNonNull(benchmark, "benchmark"), 0);
    }

    /**
     * @return an expectation about {@code benchmark}'s runs: as {@link #expect(String)} with its name, and {@link
     *         Subject#op} checks the operation at once against what the benchmark says it measures ({@link
     *         Benchmark#operations()}), so {@code op("crate")} fails as it is written, not after the run
     */
    public static Subject expect(Benchmark benchmark) {
        Objects.requireNonNull(benchmark, "benchmark");
        return new Subject(benchmark.name(), 0, java.util.Set.copyOf(benchmark.operations()));
    }

    /** @return the expectations */
    public List<Expectation> expectations() {
        return expectations;
    }

    /**
     * Checks, before any work, that every expectation can be met by what {@code benchmarks} at {@code tasks} will
     * produce: a benchmark that will run, a task count that will run, an operation the benchmark measures (where it
     * says which, {@link Benchmark#operations()}).
     *
     * @throws IllegalArgumentException naming the first expectation that cannot, and the names that would do
     */
    public void requireMatches(List<Benchmark> benchmarks, List<Integer> tasks) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        benchmarks.forEach(b -> names.add(b.name()));
        for (int i = 0; i < expectations.size(); i++) {
            Expectation e = expectations.get(i);
            String which = "gate expectation " + i + " (" + e + ")";
            if (!names.contains(e.subject.benchmark)) {
                throw new IllegalArgumentException(which + " names benchmark '" + e.subject.benchmark
                        + "', which this run does not include; it runs " + String.join(", ", names));
            }
            if (e.subject.tasks != 0 && !tasks.contains(e.subject.tasks)) {
                throw new IllegalArgumentException(which + " names " + e.subject.tasks + " task(s); this run uses "
                        + tasks.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
            }
            List<Benchmark> named = benchmarks.stream().filter(b -> b.name().equals(e.subject.benchmark)).toList();
            java.util.Set<String> known = new java.util.TreeSet<>();
            named.forEach(b -> known.addAll(b.operations()));
            boolean declared = named.stream().noneMatch(b -> b.operations().isEmpty());
            if (declared && known.stream().noneMatch(pattern -> matches(pattern, e.operation))) {
                throw new IllegalArgumentException(which + " names operation '" + e.operation + "', which "
                        + e.subject.benchmark + " does not measure; it measures " + String.join(", ", known));
            }
        }
    }

    /**
     * As {@link #requireMatches(List, List)}, for what {@code scenario} will run: call it before {@code execute()}.
     *
     * @throws IllegalArgumentException naming the first expectation that cannot be met
     */
    public void requireMatches(dev.prism.Scenario scenario) {
        requireMatches(scenario.benchmarks(), scenario.tasks());
    }

    private static boolean matches(String pattern, String operation) {
        return pattern.contains("*") ? operation.matches(java.util.regex.Pattern.quote(pattern).replace("*", "\\E.*\\Q"))
                : pattern.equals(operation);
    }

    /** @return the verdict on {@code runs} (no baseline: relative expectations fail, saying so) */
    public Verdict evaluate(List<RunResult> runs) {
        return evaluate(runs, null);
    }

    /** @return the verdict on {@code runs} against {@code baseline} (may be null) */
    public Verdict evaluate(List<RunResult> runs, List<RunResult> baseline) {
        List<Verdict.Reason> reasons = new ArrayList<>();
        for (Expectation e : expectations) {
            reasons.addAll(e.check(runs, baseline));
        }
        List<String> warnings = new ArrayList<>();
        if (baseline != null) {
            for (RunResult run : runs) {
                baseline.stream().filter(b -> b.benchmark().equals(run.benchmark()) && b.tasks() == run.tasks()
                                && b.parameters().equals(run.parameters())).findFirst()
                        .map(b -> Comparison.conditionsDiffer(b, run)).ifPresent(warnings::add);
            }
        }
        return new Verdict(reasons, warnings);
    }

    /** Which benchmark and task count an expectation is about; {@link #op} names the operation. */
    public static final class Subject {
        private final String benchmark;
        private final int tasks;
        /** The operations the benchmark says it measures, as names or patterns; empty when it did not say or was named */
        private final java.util.Set<String> operations;

        private Subject(String benchmark, int tasks) {
            this(benchmark, tasks, java.util.Set.of());
        }

        private Subject(String benchmark, int tasks, java.util.Set<String> operations) {
            this.benchmark = benchmark;
            this.tasks = tasks;
            this.operations = operations;
        }

        /** @param tasks only runs with this task count (default: every task count), at least 1 */
        public Subject tasks(int tasks) {
            if (tasks < 1) {
                throw new IllegalArgumentException("tasks must be at least 1, was " + tasks);
            }
            return new Subject(benchmark, tasks, operations);
        }

        /**
         * @param operation the operation, e.g. {@code create}
         * @throws IllegalArgumentException when it is blank, or, for a subject given as a {@link Benchmark} that says
         *                                  what it measures, when the benchmark does not measure it (naming what it does)
         */
        public Operation op(String operation) {
            if (operation == null || operation.isBlank()) {
                throw new IllegalArgumentException("operation must be a non-blank name, was "
                        + (operation == null ? "null" : "'" + operation + "'"));
            }
            if (!operations.isEmpty() && operations.stream().noneMatch(pattern -> matches(pattern, operation))) {
                throw new IllegalArgumentException("operation must be one " + benchmark + " measures ("
                        + String.join(", ", new java.util.TreeSet<>(operations)) + "), was '" + operation + "'");
            }
            return new Operation(this, operation);
        }
    }

    /** An operation of a subject, waiting for its statistic: a latency takes an upper bound, a rate a lower one. */
    public static final class Operation {
        private final Subject subject;
        private final String name;

        private Operation(Subject subject, String name) {
            this.subject = subject;
            this.name = name;
        }

        /** @return an expectation on the mean latency */
        public Latency mean() {
            return new Latency(this, Stat.MEAN);
        }

        /** @return an expectation on the median */
        public Latency p50() {
            return new Latency(this, Stat.P50);
        }

        /** @return an expectation on the 90th percentile */
        public Latency p90() {
            return new Latency(this, Stat.P90);
        }

        /** @return an expectation on the 99th percentile */
        public Latency p99() {
            return new Latency(this, Stat.P99);
        }

        /** @return an expectation on the 99.9th percentile */
        public Latency p999() {
            return new Latency(this, Stat.P999);
        }

        /** @return an expectation on the longest latency */
        public Latency max() {
            return new Latency(this, Stat.MAX);
        }

        /** @return an expectation on {@code stat}, a latency statistic ({@code p99}, not {@code ops/s}) */
        public Latency latency(Stat stat) {
            if (stat.isRate()) {
                throw new IllegalArgumentException("stat " + stat + " is a rate, not a latency; latencies: "
                        + String.join(", ", java.util.Arrays.stream(Stat.values()).filter(x -> !x.isRate()).map(Stat::toString).toList()));
            }
            return new Latency(this, stat);
        }

        /** @return an expectation on {@code stat}, a rate ({@code ops/s} or {@code bytes/s}) */
        public Rate rate(Stat stat) {
            if (!stat.isRate()) {
                throw new IllegalArgumentException("stat " + stat + " is a latency, not a rate; rates: "
                        + String.join(", ", java.util.Arrays.stream(Stat.values()).filter(Stat::isRate).map(Stat::toString).toList()));
            }
            return new Rate(this, stat);
        }

        /** @return an expectation on bytes per second */
        public Rate bytesPerSecond() {
            return new Rate(this, Stat.BYTES_PER_SECOND);
        }

        /** @return an expectation on operations per second */
        public Rate opsPerSecond() {
            return new Rate(this, Stat.OPS_PER_SECOND);
        }
    }

    /** A latency statistic (lower is better), waiting for its bound. */
    public static final class Latency {
        private final Operation operation;
        private final Stat stat;

        private Latency(Operation operation, Stat stat) {
            this.operation = operation;
            this.stat = stat;
        }

        static double checkPercent(double percent) {
            if (!(percent >= 0 && percent <= 10_000)) {
                throw new IllegalArgumentException("notSlowerThanBaselineBy must be in 0..10000 (percent), was " + percent);
            }
            return percent;
        }

        /** @return the statistic must be below {@code limit} (positive) */
        public Expectation below(Duration limit) {
            if (limit == null || limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("below must be a positive duration, was " + (limit == null ? "null" : Formats.exactDuration(limit)));
            }
            return new Expectation(operation, stat, Kind.BELOW, limit.toNanos(), 0);
        }

        /**
         * @return not slower than the baseline by more than {@code percent} (0..10000), judged as {@link Comparison}
         *         judges it: significant over the repetitions, at least {@value Comparison#MIN_REPETITIONS} a side
         */
        public Expectation notSlowerThanBaselineBy(double percent) {
            return new Expectation(operation, stat, Kind.BASELINE, 0, checkPercent(percent));
        }
    }

    /** A rate statistic (higher is better), waiting for its bound. */
    public static final class Rate {
        private final Operation operation;
        private final Stat stat;

        private Rate(Operation operation, Stat stat) {
            this.operation = operation;
            this.stat = stat;
        }

        /** @return the rate must be above {@code minimum} (per second, at least 0) */
        public Expectation above(double minimum) {
            if (!(minimum >= 0) || Double.isInfinite(minimum)) {
                throw new IllegalArgumentException("above must be a finite rate >= 0, was " + minimum);
            }
            return new Expectation(operation, stat, Kind.ABOVE, minimum, 0);
        }

        /** @return not lower than the baseline's rate by more than {@code percent} (0..10000), when significant */
        public Expectation notSlowerThanBaselineBy(double percent) {
            return new Expectation(operation, stat, Kind.BASELINE, 0, Latency.checkPercent(percent));
        }
    }

    private enum Kind { BELOW, ABOVE, BASELINE }

    /** One expectation. */
    public static final class Expectation {
        private final Subject subject;
        private final String operation;
        private final Stat stat;
        private final Kind kind;
        private final double bound;
        private final double percent;

        private Expectation(Operation operation, Stat stat, Kind kind, double bound, double percent) {
            this.subject = operation.subject;
            this.operation = operation.name;
            this.stat = stat;
            this.kind = kind;
            this.bound = bound;
            this.percent = percent;
        }

        /** @return the statistic this expectation judges */
        public Stat stat() {
            return stat;
        }

        List<Verdict.Reason> check(List<RunResult> runs, List<RunResult> baseline) {
            List<Verdict.Reason> reasons = new ArrayList<>();
            List<RunResult> matching = runs.stream().filter(r -> r.benchmark().equals(subject.benchmark)
                    && (subject.tasks == 0 || r.tasks() == subject.tasks)).toList();
            if (matching.isEmpty()) {
                reasons.add(new Verdict.Reason(toString(), false, this + ": no run of " + subject.benchmark
                        + (subject.tasks == 0 ? "" : " with " + subject.tasks + " task(s)") + " in the results"));
                return reasons;
            }
            for (RunResult run : matching) {
                String where = subject.benchmark + " tasks=" + run.tasks() + " " + operation + " " + stat;
                String name = this + (subject.tasks == 0 ? " at tasks=" + run.tasks() : "");
                if (!run.passed()) {
                    reasons.add(new Verdict.Reason(name, false, where + ": the run " + run.status() + "ED, " + run.failure()));
                    continue;
                }
                Measurement m = run.measurements().get(operation);
                if (m == null || m.count() == 0) {
                    reasons.add(new Verdict.Reason(name, false, where + ": not measured (measured: " + String.join(", ",
                            run.measurements().keySet()) + ")"));
                    continue;
                }
                double v = stat.of(m);
                switch (kind) {
                    case BELOW -> reasons.add(new Verdict.Reason(name, v < bound, String.format(Locale.ROOT, "%s %s %s %s",
                            where, show(v), v < bound ? "<" : "is not below", show(bound))));
                    case ABOVE -> reasons.add(new Verdict.Reason(name, v > bound, String.format(Locale.ROOT, "%s %s %s %s",
                            where, show(v), v > bound ? ">" : "is not above", show(bound))));
                    default -> reasons.add(againstBaseline(run, baseline, where, name));
                }
            }
            return reasons;
        }

        private Verdict.Reason againstBaseline(RunResult run, List<RunResult> baseline, String where, String name) {
            if (baseline == null) {
                return new Verdict.Reason(name, false, where + ": needs a baseline (--baseline DIR) to compare with");
            }
            RunResult partner = baseline.stream().filter(b -> b.benchmark().equals(run.benchmark()) && b.tasks() == run.tasks()
                    && b.parameters().equals(run.parameters())).findFirst().orElse(null);
            if (partner == null || !partner.measurements().containsKey(operation)) {
                return new Verdict.Reason(name, false, where + ": the baseline has no run with these parameters that measured it");
            }
            if (!partner.passed()) {
                return new Verdict.Reason(name, false, where + ": the baseline run " + partner.status() + "ED, " + partner.failure());
            }
            Comparison.Row row = Comparison.row(partner, run, operation, stat, percent, java.util.Set.of());
            String figures = String.format(Locale.ROOT, "%s %s against %s, %.2fx the baseline", where,
                    show(row.candidateValue()), show(row.baselineValue()), row.ratio());
            if (row.verdict() == Comparison.Verdict.NOT_APPLICABLE) {
                return new Verdict.Reason(name, false, figures + ": cannot be judged (" + row.note() + ")");
            }
            String test = String.format(Locale.ROOT, " (p=%.3g over %d/%d reps)", row.pValue(), row.baselineRepetitions(),
                    row.candidateRepetitions());
            return new Verdict.Reason(name, !row.regression(), figures + test + (row.regression()
                    ? ": slower by more than " + Comparison.fmt(percent) + "%, significantly"
                    : row.verdict() == Comparison.Verdict.INCONCLUSIVE
                    ? ": no significant slowdown, though the repetitions cannot show it within " + Comparison.fmt(percent) + "%"
                    : ": within " + Comparison.fmt(percent) + "% or not significant"));
        }

        private String show(double v) {
            if (stat == Stat.BYTES_PER_SECOND) {
                return Formats.bytes(v) + "/s";
            }
            return stat.isRate() ? String.format(Locale.ROOT, "%.4g/s", v) : Formats.latency(v);
        }

        @Override
        public String toString() {
            return "expect(" + subject.benchmark + (subject.tasks == 0 ? "" : ", tasks=" + subject.tasks) + ")."
                    + operation + "." + stat + " " + switch (kind) {
                        case BELOW -> "below " + show(bound);
                        case ABOVE -> "above " + show(bound);
                        case BASELINE -> "not slower than the baseline by " + Comparison.fmt(percent) + "%";
                    };
        }
    }

    /**
     * The outcome: a reason for every expectation checked, and warnings where a baseline ran under other host
     * conditions. {@link #toJUnitXml} and {@link #toMarkdown} write it where CI systems read verdicts.
     *
     * @param reasons  each check with whether it passed and why
     * @param warnings runs whose baseline ran under different host conditions, naming the figures
     */
    public record Verdict(List<Reason> reasons, List<String> warnings) {
        /**
         * One check.
         *
         * @param expectation the expectation checked, with the task count where it matched several runs
         * @param passed      whether it held
         * @param message     what was compared, with the measured figure
         */
        public record Reason(String expectation, boolean passed, String message) {
        }

        /** Copies. */
        public Verdict {
            reasons = List.copyOf(reasons);
            warnings = List.copyOf(warnings);
        }

        /** @return whether every expectation held */
        public boolean passed() {
            return reasons.stream().allMatch(Reason::passed);
        }

        /** @return the reasons that failed */
        public List<Reason> failures() {
            return reasons.stream().filter(r -> !r.passed()).toList();
        }

        /** @throws AssertionError listing every failed expectation */
        public void assertPassed() {
            if (!passed()) {
                StringBuilder s = new StringBuilder("the storage gate failed " + failures().size() + " of "
                        + reasons.size() + " check(s):");
                failures().forEach(f -> s.append("\n  - ").append(f.message()));
                throw new AssertionError(s.toString());
            }
        }

        /**
         * @param suite the test suite's name, such as {@code prism gate}
         * @return the verdict as JUnit XML: one test case per check, a failing check a {@code <failure>} whose message
         *         holds the measured figure, a passing one its figure in {@code <system-out>}; the warnings in the
         *         suite's {@code <system-err>}
         */
        public String toJUnitXml(String suite) {
            return dev.prism.report.internal.VerdictFormats.junitXml(suite, reasons.stream().map(r ->
                    new dev.prism.report.internal.VerdictFormats.Check(r.expectation(), r.passed(), r.message())).toList(),
                    warnings);
        }

        /** @return the verdict as Markdown: a headline, a table of every check, the warnings */
        public String toMarkdown() {
            return dev.prism.report.internal.VerdictFormats.markdown("Storage gate", reasons.stream().map(r ->
                    new dev.prism.report.internal.VerdictFormats.Check(r.expectation(), r.passed(), r.message())).toList(),
                    warnings);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(passed() ? "gate PASSED" : "gate FAILED");
            // a reason names benchmarks and parameters from result documents: one line each, whatever they hold
            reasons.forEach(r -> s.append("\n  ").append(r.passed() ? "ok   " : "FAIL ")
                    .append(dev.prism.spi.TerminalText.escape(r.message())));
            warnings.forEach(w -> s.append("\n  WARNING ").append(dev.prism.spi.TerminalText.escape(w)));
            return s.toString();
        }
    }
}
