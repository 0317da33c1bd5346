package dev.prism;

import dev.prism.internal.output.ResultJson;
import dev.prism.internal.output.TextTable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One benchmark at one task count: its measured repetitions, the measurements merged over ranks
 * and repetitions, how the ranks spread, its stalls, and where and on what it ran. A failing or
 * timed-out run keeps what it measured.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var run = Scenario.builder().target(tmp).benchmark(touch).repetitions(3).build().execute().run("touch", 1);
 * System.out.println(run.status() + ": create p99 " + run.measurement("create").p99Nanos() + " ns, mean over "
 *         + run.acrossRepetitions().get("create").repetitions() + " repetitions "
 *         + run.acrossRepetitions().get("create").meanNanos() + " ns");
 * run.writeJson(tmp.resolve("prism-example-touch-t1.json"));
 * }</pre>
 *
 *
 * <p>Made by PRISM as it runs, and read back from result documents ({@link Results#load}); {@link #toBuilder()}
 * makes a changed copy (a merged or re-labelled run), {@link #builder()} one from nothing. Its constructor is not API,
 * so a figure added to results is a new accessor and a new setter, never a broken caller.
 */
public final class RunResult {
    private final String runId;
    private final String benchmark;
    private final Map<String, String> parameters;
    private final int tasks;
    private final String launcher;
    private final int warmups;
    private final long seed;
    private final Duration timeout;
    private final Duration stallThreshold;
    private final Status status;
    private final Failure failure;
    private final Map<String, Measurement> measurements;
    private final List<RepetitionResult> repetitions;
    private final RankSpread rankSpread;
    private final Instant startedAt;
    private final Instant finishedAt;
    private final TargetInfo target;
    private final HostInfo host;
    private final Provenance provenance;
    private final HostConditions conditions;

    private RunResult(Builder b) {
        Objects.requireNonNull(b.status, "status");
        Objects.requireNonNull(b.provenance, "provenance");
        Objects.requireNonNull(b.conditions, "conditions");
        if ((b.status == Status.PASS) != (b.failure == null)) {
            throw new IllegalArgumentException("status " + b.status + " does not agree with failure " + b.failure);
        }
        this.runId = b.runId;
        this.benchmark = b.benchmark;
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(b.parameters));
        this.tasks = b.tasks;
        this.launcher = b.launcher;
        this.warmups = b.warmups;
        this.seed = b.seed;
        this.timeout = b.timeout;
        this.stallThreshold = b.stallThreshold;
        this.status = b.status;
        this.failure = b.failure;
        this.measurements = Collections.unmodifiableMap(new LinkedHashMap<>(b.measurements));
        this.repetitions = List.copyOf(b.repetitions);
        this.rankSpread = b.rankSpread;
        this.startedAt = b.startedAt;
        this.finishedAt = b.finishedAt;
        this.target = b.target;
        this.host = b.host;
        this.provenance = b.provenance;
        this.conditions = b.conditions;
    }

    /** @return a builder of a run from nothing: every component empty until set */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this run's components, to make a changed copy */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.runId = runId;
        b.benchmark = benchmark;
        b.parameters = parameters;
        b.tasks = tasks;
        b.launcher = launcher;
        b.warmups = warmups;
        b.seed = seed;
        b.timeout = timeout;
        b.stallThreshold = stallThreshold;
        b.status = status;
        b.failure = failure;
        b.measurements = measurements;
        b.repetitions = repetitions;
        b.rankSpread = rankSpread;
        b.startedAt = startedAt;
        b.finishedAt = finishedAt;
        b.target = target;
        b.host = host;
        b.provenance = provenance;
        b.conditions = conditions;
        return b;
    }

    /** @return the scenario's run id */
    public String runId() {
        return runId;
    }

    /** @return the benchmark's name */
    public String benchmark() {
        return benchmark;
    }

    /** @return its parameter values, as text */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** @return how many ranks ran it */
    public int tasks() {
        return tasks;
    }

    /** @return how the ranks were started ({@code threads}, …) */
    public String launcher() {
        return launcher;
    }

    /** @return repetitions run first and not kept */
    public int warmups() {
        return warmups;
    }

    /** @return the scenario's seed */
    public long seed() {
        return seed;
    }

    /** @return the deadline of each repetition */
    public Duration timeout() {
        return timeout;
    }

    /** @return operations slower than this were recorded as stalls */
    public Duration stallThreshold() {
        return stallThreshold;
    }

    /** @return PASS when every repetition passed */
    public Status status() {
        return status;
    }

    /** @return the first failure, or null */
    public Failure failure() {
        return failure;
    }

    /** @return per operation, merged over ranks and repetitions */
    public Map<String, Measurement> measurements() {
        return measurements;
    }

    /** @return each measured repetition */
    public List<RepetitionResult> repetitions() {
        return repetitions;
    }

    /** @return how rank phase durations spread over all repetitions (ranks that timed work) */
    public RankSpread rankSpread() {
        return rankSpread;
    }

    /** @return when the first warm-up or repetition started */
    public Instant startedAt() {
        return startedAt;
    }

    /** @return when the last one ended */
    public Instant finishedAt() {
        return finishedAt;
    }

    /** @return the filesystem under test */
    public TargetInfo target() {
        return target;
    }

    /** @return the host that ran it */
    public HostInfo host() {
        return host;
    }

    /** @return what produced it: PRISM's version and commit, the command, labels, the programs' versions */
    public Provenance provenance() {
        return provenance;
    }

    /** @return how busy the host was while it ran (load, other processes, steal, memory pressure) */
    public HostConditions conditions() {
        return conditions;
    }

    /** @return whether {@code o} is a run with equal components */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RunResult r)) {
            return false;
        }
        return Objects.equals(runId, r.runId)
                && Objects.equals(benchmark, r.benchmark)
                && Objects.equals(parameters, r.parameters)
                && tasks == r.tasks
                && Objects.equals(launcher, r.launcher)
                && warmups == r.warmups
                && seed == r.seed
                && Objects.equals(timeout, r.timeout)
                && Objects.equals(stallThreshold, r.stallThreshold)
                && Objects.equals(status, r.status)
                && Objects.equals(failure, r.failure)
                && Objects.equals(measurements, r.measurements)
                && Objects.equals(repetitions, r.repetitions)
                && Objects.equals(rankSpread, r.rankSpread)
                && Objects.equals(startedAt, r.startedAt)
                && Objects.equals(finishedAt, r.finishedAt)
                && Objects.equals(target, r.target)
                && Objects.equals(host, r.host)
                && Objects.equals(provenance, r.provenance)
                && Objects.equals(conditions, r.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, benchmark, parameters, tasks, launcher, warmups, seed, timeout, stallThreshold, status, failure, measurements, repetitions, rankSpread, startedAt, finishedAt, target, host, provenance, conditions);
    }

    /** @return true when the run passed */
    public boolean passed() {
        return status == Status.PASS;
    }

    /**
     * @return the run in a line per operation, in the table's words and units: {@code create_files files=300 tasks=1:
     *         PASS, 3 rep(s)}, then each operation as {@link Measurement#toString()} prints it (every
     *         component is in its accessors and in {@link #table()})
     */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(benchmark);
        String params = dev.prism.spi.Formats.parameters(parameters);
        if (!params.isEmpty()) {
            s.append(' ').append(params);
        }
        s.append(" tasks=").append(tasks).append(": ").append(status).append(", ").append(repetitions.size()).append(" rep(s)");
        if (failure != null) {
            s.append(" (").append(failure).append(')');
        }
        measurements.values().forEach(m -> s.append("\n  ").append(m));
        return s.toString();
    }

    /** @return every stall of every repetition and rank */
    public List<Stall> stalls() {
        return repetitions.stream().flatMap(r -> r.ranks().stream()).flatMap(r -> r.stalls().stream()).toList();
    }

    /**
     * @return each counter per repetition (summed over that repetition's ranks), as the mean over the
     *         repetitions that counted it, rounded; every repetition's own value is in
     *         {@link RepetitionResult#counters()}. Counters are never summed over repetitions: two
     *         repetitions of fio do not double its IOPS.
     */
    public Map<String, Long> counters() {
        Map<String, Double> means = repetitions.stream().flatMap(rep -> rep.counters().entrySet().stream())
                .collect(java.util.stream.Collectors.groupingBy(Map.Entry::getKey, LinkedHashMap::new,
                        java.util.stream.Collectors.averagingLong(Map.Entry::getValue)));
        Map<String, Long> rounded = new LinkedHashMap<>();
        means.forEach((k, mean) -> rounded.put(k, Math.round(mean)));
        return Collections.unmodifiableMap(rounded);
    }

    /**
     * @return every node the run's ranks ran on (their host names, sorted) with those ranks, over all repetitions:
     *         where the I/O ran, which {@link #host()} (where the run was driven from) need not be
     */
    public Map<String, java.util.SortedSet<Integer>> nodes() {
        Map<String, java.util.SortedSet<Integer>> nodes = new java.util.TreeMap<>();
        repetitions.stream().flatMap(r -> r.ranks().stream())
                .forEach(rank -> nodes.computeIfAbsent(rank.hostname(), h -> new java.util.TreeSet<>()).add(rank.rank()));
        nodes.replaceAll((h, ranks) -> Collections.unmodifiableSortedSet(ranks));
        return Collections.unmodifiableMap(nodes);
    }

    /** @return every rank's notes; where ranks differ, their distinct values joined with " | " */
    public Map<String, String> notes() {
        Map<String, java.util.Set<String>> values = new LinkedHashMap<>();
        repetitions.stream().flatMap(r -> r.ranks().stream()).forEach(rank -> rank.notes()
                .forEach((k, v) -> values.computeIfAbsent(k, x -> new java.util.LinkedHashSet<>()).add(v)));
        Map<String, String> notes = new LinkedHashMap<>();
        values.forEach((k, v) -> notes.put(k, String.join(" | ", v)));
        return Collections.unmodifiableMap(notes);
    }

    /** @return per operation, the mean over repetitions with its 95% confidence interval */
    public Map<String, RepetitionStats> acrossRepetitions() {
        Map<String, RepetitionStats> stats = new LinkedHashMap<>();
        for (String operation : measurements.keySet()) {
            stats.put(operation, RepetitionStats.of(operation, repetitions));
        }
        return Collections.unmodifiableMap(stats);
    }

    /**
     * @return the measurement of {@code operation}, merged over ranks and repetitions; its count is 0 when the
     *         operation was timed but every call of it failed ({@link Measurement#errors()} says how many)
     * @throws IllegalArgumentException when the benchmark never timed {@code operation}, naming those it did and, for
     *                                  a run that failed, its failure;
     *                                  {@link #measurements()}{@code .get(op)} gives null instead
     */
    public Measurement measurement(String operation) {
        Measurement m = measurements.get(operation);
        if (m == null) {
            throw new IllegalArgumentException("operation '" + operation + "' was not measured in " + benchmark
                    + (measurements.isEmpty() ? "; nothing was measured" : "; measured: " + String.join(", ", measurements.keySet()))
                    + (failure == null ? "" : "; the run failed: " + failure));
        }
        return m;
    }

    /** @return this run as a {@code prism.run/1} JSON document */
    public String toJson() {
        return ResultJson.toJson(this);
    }

    /** Writes {@link #toJson()} to {@code file} atomically (temporary file, fsync, rename). */
    public void writeJson(Path file) throws IOException {
        ResultJson.write(this, file);
    }

    /** @return the latency table a person reads: one row per operation */
    public String table() {
        return TextTable.of(List.of(this));
    }
    /**
     * Builds a {@link RunResult}; each setter names a component as its accessor does. {@code status}, {@code
     * provenance} and {@code conditions} are required, and a failure is given exactly when the status is not PASS.
     */
    public static final class Builder {
        private String runId;
        private String benchmark;
        private Map<String, String> parameters = Map.of();
        private int tasks;
        private String launcher;
        private int warmups;
        private long seed;
        private Duration timeout;
        private Duration stallThreshold;
        private Status status;
        private Failure failure;
        private Map<String, Measurement> measurements = Map.of();
        private List<RepetitionResult> repetitions = List.of();
        private RankSpread rankSpread;
        private Instant startedAt;
        private Instant finishedAt;
        private TargetInfo target;
        private HostInfo host;
        private Provenance provenance;
        private HostConditions conditions;

        private Builder() {
        }

        /** @param runId the scenario's run id */
        public Builder runId(String runId) {
            this.runId = runId;
            return this;
        }

        /** @param benchmark the benchmark's name */
        public Builder benchmark(String benchmark) {
            this.benchmark = benchmark;
            return this;
        }

        /** @param parameters its parameter values, as text */
        public Builder parameters(Map<String, String> parameters) {
            this.parameters = Objects.requireNonNull(parameters, "parameters");
            return this;
        }

        /** @param tasks how many ranks ran it */
        public Builder tasks(int tasks) {
            this.tasks = tasks;
            return this;
        }

        /** @param launcher how the ranks were started ({@code threads}, …) */
        public Builder launcher(String launcher) {
            this.launcher = launcher;
            return this;
        }

        /** @param warmups repetitions run first and not kept */
        public Builder warmups(int warmups) {
            if (warmups < 0) {
                throw new IllegalArgumentException("warmups must be at least 0, was " + warmups);
            }
            this.warmups = warmups;
            return this;
        }

        /** @param seed the scenario's seed */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @param timeout the deadline of each repetition */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** @param stallThreshold operations slower than this were recorded as stalls */
        public Builder stallThreshold(Duration stallThreshold) {
            this.stallThreshold = stallThreshold;
            return this;
        }

        /** @param status PASS when every repetition passed */
        public Builder status(Status status) {
            this.status = status;
            return this;
        }

        /** @param failure the first failure, or null */
        public Builder failure(Failure failure) {
            this.failure = failure;
            return this;
        }

        /** @param measurements per operation, merged over ranks and repetitions */
        public Builder measurements(Map<String, Measurement> measurements) {
            this.measurements = Objects.requireNonNull(measurements, "measurements");
            return this;
        }

        /** @param repetitions each measured repetition */
        public Builder repetitions(List<RepetitionResult> repetitions) {
            this.repetitions = Objects.requireNonNull(repetitions, "repetitions");
            return this;
        }

        /** @param rankSpread how rank phase durations spread over all repetitions (ranks that timed work) */
        public Builder rankSpread(RankSpread rankSpread) {
            this.rankSpread = rankSpread;
            return this;
        }

        /** @param startedAt when the first warm-up or repetition started */
        public Builder startedAt(Instant startedAt) {
            this.startedAt = startedAt;
            return this;
        }

        /** @param finishedAt when the last one ended */
        public Builder finishedAt(Instant finishedAt) {
            this.finishedAt = finishedAt;
            return this;
        }

        /** @param target the filesystem under test */
        public Builder target(TargetInfo target) {
            this.target = target;
            return this;
        }

        /** @param host the host that ran it */
        public Builder host(HostInfo host) {
            this.host = host;
            return this;
        }

        /** @param provenance what produced it: PRISM's version and commit, the command, labels, the programs' versions */
        public Builder provenance(Provenance provenance) {
            this.provenance = provenance;
            return this;
        }

        /** @param conditions how busy the host was while it ran (load, other processes, steal, memory pressure) */
        public Builder conditions(HostConditions conditions) {
            this.conditions = conditions;
            return this;
        }

        /**
         * @return the run
         * @throws NullPointerException     when status, provenance or conditions is missing
         * @throws IllegalArgumentException when the status and the failure disagree
         */
        public RunResult build() {
            return new RunResult(this);
        }
    }
}
