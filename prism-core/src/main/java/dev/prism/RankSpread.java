package dev.prism;

import java.util.Comparator;
import java.util.List;

/**
 * How the ranks' timed-phase durations spread: mean, p99, the fastest and the slowest (the
 * straggler), which ranks those were and in which repetition. Only ranks that timed work count: a
 * rank that recorded no operation (ddp_save's non-writing ranks, a rank that died before its timed
 * phase) is no "fastest rank". A large max/min ratio points at one slow client rather than a slow
 * system.
 *
 * <pre>{@code
 * import dev.prism.LatencyRecorder;
 * import dev.prism.RankResult;
 * import dev.prism.RankSpread;
 * import dev.prism.Status;
 * import java.util.List;
 * import java.util.Map;
 *
 * var r = new LatencyRecorder("op"); r.record(5);
 * var a = new RankResult(0, "h", Status.PASS, null, 10, Map.of("op", r.snapshot(10)), Map.of(), List.of());
 * var b = new RankResult(1, "h", Status.PASS, null, 30, Map.of("op", r.snapshot(30)), Map.of(), List.of());
 * System.out.println(RankSpread.of(List.of(a, b), 0));
 * }</pre>
 *
 * @param ranks             how many rank phases were counted
 * @param meanNanos         mean phase duration
 * @param p99Nanos          99th percentile (nearest rank) of the phase durations
 * @param minNanos          the fastest rank's phase duration
 * @param maxNanos          the slowest rank's phase duration
 * @param fastestRank       the fastest rank (−1 when none timed work)
 * @param fastestRepetition the repetition in which it was fastest, as an index from 0 ({@link #fastestRepetitionNumber()}
 *                          numbers it as the tables do, from 1)
 * @param slowestRank       the slowest rank: the straggler (−1 when none timed work)
 * @param slowestRepetition the repetition in which it was slowest, as an index from 0 ({@link #slowestRepetitionNumber()}
 *                          numbers it as the tables do, from 1)
 */
public record RankSpread(int ranks, double meanNanos, long p99Nanos, long minNanos, long maxNanos,
                         int fastestRank, int fastestRepetition, int slowestRank, int slowestRepetition) {
    private static final RankSpread NONE = new RankSpread(0, 0, 0, 0, 0, -1, -1, -1, -1);

    /** @return the spread of one repetition's ranks (those that timed work); {@link #ranks()} 0 when none did */
    public static RankSpread of(List<RankResult> results, int repetition) {
        return of(results.stream().map(r -> new Phase(r, repetition)).toList());
    }

    /** @return the spread over every rank of every repetition that timed work, naming the repetitions */
    public static RankSpread ofRepetitions(List<RepetitionResult> repetitions) {
        return of(repetitions.stream().flatMap(rep -> rep.ranks().stream().map(r -> new Phase(r, rep.index()))).toList());
    }

    /** @return the mean phase duration, to the nearest nanosecond */
    public java.time.Duration mean() {
        return java.time.Duration.ofNanos(Math.round(meanNanos));
    }

    /** @return the 99th percentile of the phase durations */
    public java.time.Duration p99() {
        return java.time.Duration.ofNanos(p99Nanos);
    }

    /** @return the fastest rank's phase duration */
    public java.time.Duration fastest() {
        return java.time.Duration.ofNanos(minNanos);
    }

    /** @return the slowest rank's phase duration: the straggler's */
    public java.time.Duration slowest() {
        return java.time.Duration.ofNanos(maxNanos);
    }

    /** @return the slowest phase over the fastest (1.38 reads "1.38x the fastest"); 1 when none was timed */
    public double slowestOverFastest() {
        return minNanos <= 0 ? 1 : (double) maxNanos / minNanos;
    }

    /** @return the repetition the fastest rank was fastest in, numbered from 1 as the tables number them; 0 when none */
    public int fastestRepetitionNumber() {
        return fastestRepetition + 1;
    }

    /** @return the repetition the slowest rank was slowest in, numbered from 1 as the tables number them; 0 when none */
    public int slowestRepetitionNumber() {
        return slowestRepetition + 1;
    }

    /**
     * @return the spread as the table says it: {@code 2 ranks: mean 4.22 ms, fastest rank 1 3.55 ms (rep 1), slowest rank
     *         0 4.90 ms (rep 1), 1.38x the fastest}; {@code no rank timed work} when none did
     */
    @Override
    public String toString() {
        if (ranks == 0) {
            return "no rank timed work";
        }
        return String.format(java.util.Locale.ROOT, "%d rank phase(s): mean %s, fastest rank %d %s (rep %d), slowest rank %d %s"
                        + " (rep %d), %.2fx the fastest", ranks, dev.prism.spi.Formats.latency(meanNanos), fastestRank,
                dev.prism.spi.Formats.latency(minNanos), fastestRepetitionNumber(), slowestRank,
                dev.prism.spi.Formats.latency(maxNanos), slowestRepetitionNumber(), slowestOverFastest());
    }

    /** @return whether {@code rank} recorded at least one timed operation (or one that failed) */
    static boolean timedWork(RankResult rank) {
        return rank.measurements().values().stream().anyMatch(m -> m.count() > 0 || m.errors() > 0);
    }

    private record Phase(RankResult rank, int repetition) {
    }

    private static RankSpread of(List<Phase> phases) {
        List<Phase> sorted = phases.stream().filter(p -> timedWork(p.rank()))
                .sorted(Comparator.comparingLong(p -> p.rank().phaseNanos())).toList();
        if (sorted.isEmpty()) {
            return NONE;
        }
        double mean = sorted.stream().mapToLong(p -> p.rank().phaseNanos()).average().orElse(0);
        int p99Index = (int) Math.ceil(0.99 * sorted.size()) - 1;
        Phase fastest = sorted.get(0);
        Phase slowest = sorted.get(sorted.size() - 1);
        return new RankSpread(sorted.size(), mean, sorted.get(p99Index).rank().phaseNanos(), fastest.rank().phaseNanos(),
                slowest.rank().phaseNanos(), fastest.rank().rank(), fastest.repetition(), slowest.rank().rank(),
                slowest.repetition());
    }
}
