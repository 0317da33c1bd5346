package dev.prism;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Expectations on results — the qualification gate. Absolute ({@code p99 of create below 20 ms},
 * {@code bytes/s of read above 1 GiB/s}) or relative to a baseline ({@code not slower than the
 * baseline by more than 10%}, counted only when the difference is significant, as {@link Comparison}
 * decides). {@link #evaluate} gives a {@link Verdict} with a reason for every expectation.
 *
 * <pre>{@code
 * var gate = dev.prism.Gate.of(
 *         dev.prism.Gate.expect("create_files").op("create").p99().below(java.time.Duration.ofMillis(20)),
 *         dev.prism.Gate.expect("create_files").op("write").bytesPerSecond().above(100e6));
 * // gate.evaluate(result.runs()).assertPassed();
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
     * {"benchmark": "create_files", "op": "create", "stat": "mean", "notSlowerThanBaselineBy": 10}]}}; stat is
     * mean, p50, p99, p99.9, bytes/s or ops/s; {@code tasks} is optional.
     *
     * @throws IllegalArgumentException naming the expectation and field that is wrong
     */
    public static Gate fromJson(java.nio.file.Path file) throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile());
        List<Expectation> list = new ArrayList<>();
        int i = 0;
        for (com.fasterxml.jackson.databind.JsonNode e : root.path("expectations")) {
            String where = file + ": expectation " + i++;
            if (!e.hasNonNull("benchmark") || !e.hasNonNull("op") || !e.hasNonNull("stat")) {
                throw new IllegalArgumentException(where + " needs benchmark, op and stat");
            }
            Subject subject = expect(e.get("benchmark").asText()).op(e.get("op").asText());
            if (e.has("tasks")) {
                subject = subject.tasks(e.get("tasks").asInt());
            }
            Statistic stat = switch (e.get("stat").asText()) {
                case "mean" -> subject.mean();
                case "p50" -> subject.p50();
                case "p99" -> subject.p99();
                case "p99.9" -> subject.p999();
                case "bytes/s" -> subject.bytesPerSecond();
                case "ops/s" -> subject.opsPerSecond();
                default -> throw new IllegalArgumentException(where + ": stat must be mean, p50, p99, p99.9, bytes/s or ops/s, was '"
                        + e.get("stat").asText() + "'");
            };
            try {
                if (e.has("below")) {
                    list.add(stat.below(Parameter.ofDuration("below", Duration.ofSeconds(1), Duration.ZERO,
                            Duration.ofDays(365), "limit").parse(e.get("below").asText())));
                } else if (e.has("above")) {
                    list.add(stat.above(e.get("above").asDouble()));
                } else if (e.has("notSlowerThanBaselineBy")) {
                    list.add(stat.notSlowerThanBaselineBy(e.get("notSlowerThanBaselineBy").asDouble()));
                } else {
                    throw new IllegalArgumentException(where + " needs one of below, above or notSlowerThanBaselineBy");
                }
            } catch (IllegalStateException | IllegalArgumentException ex) {
                throw new IllegalArgumentException(where + ": " + ex.getMessage(), ex);
            }
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no expectations");
        }
        return new Gate(list);
    }

    /** @return the start of an expectation on {@code benchmark} */
    public static Subject expect(String benchmark) {
        return new Subject(Objects.requireNonNull(benchmark, "benchmark"), 0, null);
    }

    /** @return the expectations */
    public List<Expectation> expectations() {
        return expectations;
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
        return new Verdict(reasons);
    }

    /** Which benchmark, task count and operation an expectation is about. */
    public static final class Subject {
        private final String benchmark;
        private final int tasks;
        private final String operation;

        private Subject(String benchmark, int tasks, String operation) {
            this.benchmark = benchmark;
            this.tasks = tasks;
            this.operation = operation;
        }

        /** @param tasks only runs with this task count (default: every task count) */
        public Subject tasks(int tasks) {
            if (tasks < 1) {
                throw new IllegalArgumentException("tasks must be at least 1, was " + tasks);
            }
            return new Subject(benchmark, tasks, operation);
        }

        /** @param operation the operation, e.g. {@code create} */
        public Subject op(String operation) {
            return new Subject(benchmark, tasks, Objects.requireNonNull(operation, "operation"));
        }

        /** @return an expectation on the mean latency */
        public Statistic mean() {
            return new Statistic(this, "mean", true);
        }

        /** @return an expectation on the median */
        public Statistic p50() {
            return new Statistic(this, "p50", true);
        }

        /** @return an expectation on the 99th percentile */
        public Statistic p99() {
            return new Statistic(this, "p99", true);
        }

        /** @return an expectation on the 99.9th percentile */
        public Statistic p999() {
            return new Statistic(this, "p99.9", true);
        }

        /** @return an expectation on bytes per second */
        public Statistic bytesPerSecond() {
            return new Statistic(this, "bytes/s", false);
        }

        /** @return an expectation on operations per second */
        public Statistic opsPerSecond() {
            return new Statistic(this, "ops/s", false);
        }
    }

    /** A statistic of a subject, waiting for its bound. */
    public static final class Statistic {
        private final Subject subject;
        private final String name;
        private final boolean latency;

        private Statistic(Subject subject, String name, boolean latency) {
            if (subject.operation == null) {
                throw new IllegalStateException("name the operation first: expect(\"" + subject.benchmark + "\").op(\"…\")");
            }
            this.subject = subject;
            this.name = name;
            this.latency = latency;
        }

        /** @return: the latency statistic must be below {@code limit} */
        public Expectation below(Duration limit) {
            if (!latency) {
                throw new IllegalStateException(name + " is a rate: use above(...)");
            }
            return new Expectation(subject, name, "below", limit.toNanos(), 0);
        }

        /** @return: the rate must be above {@code minimum} */
        public Expectation above(double minimum) {
            if (latency) {
                throw new IllegalStateException(name + " is a latency: use below(...)");
            }
            return new Expectation(subject, name, "above", minimum, 0);
        }

        /** @return: not slower (or lower in rate) than the baseline by more than {@code percent}, when significant */
        public Expectation notSlowerThanBaselineBy(double percent) {
            if (!(percent >= 0)) {
                throw new IllegalArgumentException("percent must be >= 0, was " + percent);
            }
            return new Expectation(subject, name, "baseline", 0, percent);
        }
    }

    /** One expectation. */
    public static final class Expectation {
        private final Subject subject;
        private final String statistic;
        private final String kind;
        private final double bound;
        private final double percent;

        private Expectation(Subject subject, String statistic, String kind, double bound, double percent) {
            this.subject = subject;
            this.statistic = statistic;
            this.kind = kind;
            this.bound = bound;
            this.percent = percent;
        }

        private double value(Measurement m) {
            return switch (statistic) {
                case "mean" -> m.meanNanos();
                case "p50" -> m.p50Nanos();
                case "p99" -> m.p99Nanos();
                case "p99.9" -> m.p999Nanos();
                case "bytes/s" -> m.bytesPerSecond();
                default -> m.opsPerSecond();
            };
        }

        List<Verdict.Reason> check(List<RunResult> runs, List<RunResult> baseline) {
            List<Verdict.Reason> reasons = new ArrayList<>();
            List<RunResult> matching = runs.stream().filter(r -> r.benchmark().equals(subject.benchmark)
                    && (subject.tasks == 0 || r.tasks() == subject.tasks)).toList();
            if (matching.isEmpty()) {
                reasons.add(new Verdict.Reason(false, this + ": no run of " + subject.benchmark
                        + (subject.tasks == 0 ? "" : " with " + subject.tasks + " task(s)") + " in the results"));
                return reasons;
            }
            for (RunResult run : matching) {
                Measurement m = run.measurements().get(subject.operation);
                String where = subject.benchmark + " tasks=" + run.tasks() + " " + subject.operation;
                if (m == null) {
                    reasons.add(new Verdict.Reason(false, where + ": not measured (" + String.join(", ",
                            run.measurements().keySet()) + ")"));
                    continue;
                }
                double v = value(m);
                switch (kind) {
                    case "below" -> reasons.add(new Verdict.Reason(v < bound, String.format(Locale.ROOT, "%s %s %s %s %s",
                            where, statistic, show(v), v < bound ? "<" : "is not below", show(bound))));
                    case "above" -> reasons.add(new Verdict.Reason(v > bound, String.format(Locale.ROOT, "%s %s %s %s %s",
                            where, statistic, show(v), v > bound ? ">" : "is not above", show(bound))));
                    default -> reasons.add(againstBaseline(run, baseline, where));
                }
            }
            return reasons;
        }

        private Verdict.Reason againstBaseline(RunResult run, List<RunResult> baseline, String where) {
            if (baseline == null) {
                return new Verdict.Reason(false, where + ": needs a baseline (--baseline DIR) to compare with");
            }
            Comparison c = Comparison.of(baseline, List.of(run), percent);
            Comparison.Row row = c.rows().stream().filter(r -> r.operation().equals(subject.operation)).findFirst().orElse(null);
            if (row == null) {
                return new Verdict.Reason(false, where + ": the baseline has no matching run");
            }
            return new Verdict.Reason(!row.regression(), String.format(Locale.ROOT,
                    "%s mean %.2fx the baseline (p=%s): %s", where, row.ratio(),
                    Double.isNaN(row.pValue()) ? "n/a" : String.format(Locale.ROOT, "%.3g", row.pValue()),
                    row.regression() ? "slower by more than " + percent + "%, significantly" : "within " + percent + "% or not significant"));
        }

        private String show(double v) {
            return statistic.endsWith("/s") ? String.format(Locale.ROOT, "%.4g", v) : dev.prism.internal.TextTable.duration(v);
        }

        @Override
        public String toString() {
            return "expect(" + subject.benchmark + (subject.tasks == 0 ? "" : ", tasks=" + subject.tasks) + ")."
                    + subject.operation + "." + statistic + " " + kind + " "
                    + (kind.equals("baseline") ? percent + "%" : show(bound));
        }
    }

    /**
     * The outcome: a reason for every expectation checked.
     *
     * @param reasons each check with whether it passed and why
     */
    public record Verdict(List<Reason> reasons) {
        /** One check. @param passed whether it held @param message what was compared */
        public record Reason(boolean passed, String message) {
        }

        /** Copies. */
        public Verdict {
            reasons = List.copyOf(reasons);
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

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(passed() ? "gate PASSED" : "gate FAILED");
            reasons.forEach(r -> s.append("\n  ").append(r.passed() ? "ok   " : "FAIL ").append(r.message()));
            return s.toString();
        }
    }
}
