package dev.prism;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repetition of a benchmark at one task count: every rank's result and the measurements
 * merged over ranks.
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
 * var run = Scenario.builder().target(tmp).benchmark(touch).tasks(2).repetitions(2).build().execute().runs().get(0);
 * var second = run.repetitions().get(1);
 * System.out.println(second);   // rep 2: PASS, 2 rank(s), create 200 ops mean … p99 …
 * System.out.println("rep " + second.number() + ", slowest rank " + second.rankSpread().slowestRank()
 *         + ", create p99 " + second.measurements().get("create").p99());
 * }</pre>
 *
 * @param index        0 for the first measured repetition (warm-ups are not kept); {@link #number()} numbers it as
 *                     the tables do, from 1
 * @param status       PASS when every rank passed
 * @param failure      the first failure, or null
 * @param measurements per operation, merged over ranks
 * @param ranks        per-rank results, by rank
 * @param rankSpread   how the ranks' phase durations spread
 * @param intervals    per operation, each interval of the timed phase merged over the ranks ({@link Pacing#interval()}):
 *                     the time series; empty without intervals
 */
public record RepetitionResult(int index, Status status, Failure failure, Map<String, Measurement> measurements,
                               List<RankResult> ranks, RankSpread rankSpread, Map<String, List<Measurement>> intervals) {
    /** Copies the collections. */
    public RepetitionResult {
        measurements = Collections.unmodifiableMap(new LinkedHashMap<>(measurements));
        ranks = List.copyOf(ranks);
        Map<String, List<Measurement>> copy = new LinkedHashMap<>();
        intervals.forEach((op, list) -> copy.put(op, List.copyOf(list)));
        intervals = Collections.unmodifiableMap(copy);
    }

    /** A repetition whose intervals are its ranks' merged ({@link #mergeIntervals}). */
    public RepetitionResult(int index, Status status, Failure failure, Map<String, Measurement> measurements,
                            List<RankResult> ranks, RankSpread rankSpread) {
        this(index, status, failure, measurements, ranks, rankSpread, mergeIntervals(ranks));
    }

    /** @return this repetition's number as the tables print it ({@code rep 1}, {@code rep 2}, …): {@link #index()} + 1 */
    public int number() {
        return index + 1;
    }

    /** @return e.g. {@code rep 1: PASS, 2 rank(s), create 300 ops mean 12.3 µs p99 40.1 µs} */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("rep " + number() + ": " + status + (failure == null ? "" : " (" + failure + ")")
                + ", " + ranks.size() + " rank(s)");
        measurements.values().forEach(m -> s.append(", ").append(m.operation()).append(' ').append(m.count()).append(" ops mean ")
                .append(dev.prism.spi.Formats.latency(m.meanNanos())).append(" p99 ").append(dev.prism.spi.Formats.latency(m.p99Nanos())));
        return s.toString();
    }

    /** @return per operation and interval index, the ranks' interval measurements merged as concurrent ones */
    public static Map<String, List<Measurement>> mergeIntervals(List<RankResult> ranks) {
        Map<String, List<List<Measurement>>> byIndex = new LinkedHashMap<>();
        for (RankResult rank : ranks) {
            rank.intervals().forEach((op, list) -> {
                List<List<Measurement>> slots = byIndex.computeIfAbsent(op, k -> new java.util.ArrayList<>());
                for (int i = 0; i < list.size(); i++) {
                    while (slots.size() <= i) {
                        slots.add(new java.util.ArrayList<>());
                    }
                    slots.get(i).add(list.get(i));
                }
            });
        }
        Map<String, List<Measurement>> merged = new LinkedHashMap<>();
        byIndex.forEach((op, slots) -> merged.put(op, slots.stream().map(Measurement::combineRanks).toList()));
        return merged;
    }

    /**
     * The aggregate rate of {@code operation} when the fastest rank finished ("first done", as elbencho
     * reports it): each rank's operations up to that moment, assuming it progressed evenly, over the
     * fastest rank's phase. A first-done rate far above {@link #lastDoneOpsPerSecond} means stragglers.
     */
    public double firstDoneOpsPerSecond(String operation) {
        long fastest = ranks.stream().filter(r -> r.measurements().containsKey(operation))
                .mapToLong(RankResult::phaseNanos).filter(p -> p > 0).min().orElse(0);
        if (fastest == 0) {
            return 0;
        }
        double done = 0;
        for (RankResult rank : ranks) {
            Measurement m = rank.measurements().get(operation);
            if (m != null && rank.phaseNanos() > 0) {
                done += m.count() * Math.min(1.0, (double) fastest / rank.phaseNanos());
            }
        }
        return done * 1e9 / fastest;
    }

    /** @return {@link #firstDoneOpsPerSecond} as a rate */
    public Rate firstDoneRate(String operation) {
        return Rate.ofOperations(firstDoneOpsPerSecond(operation));
    }

    /** @return {@link #lastDoneOpsPerSecond} as a rate */
    public Rate lastDoneRate(String operation) {
        return Rate.ofOperations(lastDoneOpsPerSecond(operation));
    }

    /** @return this repetition's counters: each summed over its ranks, in the order first seen */
    public Map<String, Long> counters() {
        Map<String, Long> sums = new LinkedHashMap<>();
        ranks.forEach(rank -> rank.counters().forEach((k, v) -> sums.merge(k, v, Long::sum)));
        return Collections.unmodifiableMap(sums);
    }

    /** The aggregate rate of {@code operation} when the slowest rank finished ("last done"): all operations over its phase. */
    public double lastDoneOpsPerSecond(String operation) {
        Measurement m = measurements.get(operation);
        return m == null ? 0 : m.opsPerSecond();
    }
}
