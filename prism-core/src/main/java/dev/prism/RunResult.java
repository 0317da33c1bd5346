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
 * @param runId          the scenario's run id
 * @param benchmark      the benchmark's name
 * @param parameters     its parameter values, as text
 * @param tasks          how many ranks ran it
 * @param launcher       how the ranks were started ({@code threads}, …)
 * @param warmups        repetitions run first and not kept
 * @param seed           the scenario's seed
 * @param timeout        the deadline of each repetition
 * @param stallThreshold operations slower than this were recorded as stalls
 * @param status         PASS when every repetition passed
 * @param failure        the first failure, or null
 * @param measurements   per operation, merged over ranks and repetitions
 * @param repetitions    each measured repetition
 * @param rankSpread     how rank phase durations spread over all repetitions (ranks that timed work)
 * @param startedAt      when the first warm-up or repetition started
 * @param finishedAt     when the last one ended
 * @param target         the filesystem under test
 * @param host           the host that ran it
 * @param provenance     what produced it: PRISM's version and commit, the command, labels, the programs' versions
 * @param conditions     how busy the host was while it ran (load, other processes, steal, memory pressure)
 */
public record RunResult(String runId, String benchmark, Map<String, String> parameters, int tasks, String launcher,
                        int warmups, long seed, Duration timeout, Duration stallThreshold, Status status,
                        Failure failure, Map<String, Measurement> measurements, List<RepetitionResult> repetitions,
                        RankSpread rankSpread, Instant startedAt, Instant finishedAt, TargetInfo target,
                        HostInfo host, Provenance provenance, HostConditions conditions) {
    /** Copies the collections and checks that status and failure agree. */
    public RunResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(conditions, "conditions");
        if ((status == Status.PASS) != (failure == null)) {
            throw new IllegalArgumentException("status " + status + " does not agree with failure " + failure);
        }
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        measurements = Collections.unmodifiableMap(new LinkedHashMap<>(measurements));
        repetitions = List.copyOf(repetitions);
    }

    /** @return true when the run passed */
    public boolean passed() {
        return status == Status.PASS;
    }

    /**
     * @return the run in a line per operation, in the table's words and units: {@code create_files files=300 tasks=1:
     *         PASS, 3 rep(s)}, then each operation as {@link Measurement#toString()} prints it (the whole record, twenty
     *         components, is in its accessors and in {@link #table()})
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
}
