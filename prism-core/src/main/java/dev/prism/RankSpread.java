package dev.prism;

import java.util.Comparator;
import java.util.List;

/**
 * How the ranks' timed-phase durations spread: mean, p99, the fastest and the slowest (the
 * straggler) and which ranks those were. A large max/min ratio points at one slow client rather
 * than a slow system.
 *
 * <pre>{@code
 * var a = new dev.prism.RankResult(0, "h", dev.prism.Status.PASS, null, 10, java.util.Map.of(), java.util.Map.of(), java.util.List.of());
 * var b = new dev.prism.RankResult(1, "h", dev.prism.Status.PASS, null, 30, java.util.Map.of(), java.util.Map.of(), java.util.List.of());
 * System.out.println(dev.prism.RankSpread.of(java.util.List.of(a, b)));
 * }</pre>
 *
 * @param ranks       how many rank phases were counted
 * @param meanNanos   mean phase duration
 * @param p99Nanos    99th percentile (nearest rank) of the phase durations
 * @param minNanos    the fastest rank's phase duration
 * @param maxNanos    the slowest rank's phase duration
 * @param fastestRank the fastest rank
 * @param slowestRank the slowest rank: the straggler
 */
public record RankSpread(int ranks, double meanNanos, long p99Nanos, long minNanos, long maxNanos,
                         int fastestRank, int slowestRank) {
    /** @return the spread of the given ranks' phases; all zero (ranks −1) when the list is empty */
    public static RankSpread of(List<RankResult> results) {
        if (results.isEmpty()) {
            return new RankSpread(0, 0, 0, 0, 0, -1, -1);
        }
        List<RankResult> sorted = results.stream().sorted(Comparator.comparingLong(RankResult::phaseNanos)).toList();
        double mean = sorted.stream().mapToLong(RankResult::phaseNanos).average().orElse(0);
        int p99Index = (int) Math.ceil(0.99 * sorted.size()) - 1;
        RankResult fastest = sorted.get(0);
        RankResult slowest = sorted.get(sorted.size() - 1);
        return new RankSpread(sorted.size(), mean, sorted.get(p99Index).phaseNanos(), fastest.phaseNanos(),
                slowest.phaseNanos(), fastest.rank(), slowest.rank());
    }
}
