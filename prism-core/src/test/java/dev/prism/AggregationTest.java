package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import dev.prism.internal.output.Statistics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AggregationTest {
    private static RankResult rank(int rank, long phaseNanos, long ops) {
        LatencyRecorder r = new LatencyRecorder("op");
        for (int i = 0; i < ops; i++) {
            r.record(1000);
        }
        return new RankResult(rank, "h", Status.PASS, null, phaseNanos, Map.of("op", r.snapshot(phaseNanos)), Map.of(), List.of());
    }

    @Test
    void firstAndLastDoneRates_matchValuesComputedByHand() {
        // rank 0: 100 ops in 1 s; rank 1: 100 ops in 2 s (the straggler)
        RankResult fast = rank(0, 1_000_000_000L, 100);
        RankResult slow = rank(1, 2_000_000_000L, 100);
        RepetitionResult rep = new RepetitionResult(0, Status.PASS, null,
                Map.of("op", Measurement.combineRanks(List.of(fast.measurements().get("op"), slow.measurements().get("op")))),
                List.of(fast, slow), RankSpread.of(List.of(fast, slow), 0));
        // last done: 200 ops when the slowest finished, after 2 s
        assertThat(rep.lastDoneOpsPerSecond("op")).isCloseTo(100.0, within(1e-9));
        // first done: after 1 s, rank 0 did 100 and rank 1 (evenly) 50
        assertThat(rep.firstDoneOpsPerSecond("op")).isCloseTo(150.0, within(1e-9));
        assertThat(rep.rankSpread().slowestRank()).isEqualTo(1);
    }

    @Test
    void acrossRepetitions_meanAndConfidenceIntervalByHand() {
        // means 90, 100, 110: mean 100, s = 10, t(0.975, 2) = 4.302653 → half width 4.302653 × 10 / √3
        RepetitionStats s = RepetitionStats.of(new double[]{90, 100, 110}, new double[]{1, 2, 3});
        double half = 4.302652730 * 10 / Math.sqrt(3);
        assertThat(s.meanNanos()).isCloseTo(100, within(1e-9));
        assertThat(s.ci95LowNanos()).isCloseTo(100 * Math.exp(-half / 100), within(1e-6));
        assertThat(s.ci95HighNanos()).isCloseTo(100 * Math.exp(half / 100), within(1e-6));
        assertThat(s.meanOpsPerSecond()).isCloseTo(2, within(1e-9));
        assertThat(RepetitionStats.of(new double[]{5}, new double[]{7}).ci95HighNanos()).isEqualTo(5.0);
    }

    @Test
    void aSkewedFewRepetitions_neverGiveANegativeLowerBound() {
        // the symmetric t interval of {1 µs, 1 µs, 1 ms} reaches far below zero (mean 334 µs, half width 1.43 ms)
        RepetitionStats s = RepetitionStats.of(new double[]{1_000, 1_000, 1_000_000}, new double[]{1e6, 1e6, 1e3});
        assertThat(s.meanNanos() - Statistics.ci95HalfWidth(3, Statistics.stddev(new double[]{1_000, 1_000, 1_000_000})))
                .isNegative();
        assertThat(s.ci95LowNanos()).isPositive().isLessThan(s.meanNanos());
        assertThat(s.ci95HighNanos()).isGreaterThan(s.meanNanos());
        assertThat(s.ci95LowOpsPerSecond()).isPositive();
        LatencyRecorder r = new LatencyRecorder("op");
        r.record(10);
        r.record(100_000);
        assertThat(r.snapshot(1).ci95LowNanos()).isPositive();
    }

    @Property
    void acrossRepetitions_intervalContainsTheMean(@ForAll @Size(min = 1, max = 50) List<@DoubleRange(min = 0, max = 1e12) Double> means) {
        double[] values = means.stream().mapToDouble(Double::doubleValue).toArray();
        RepetitionStats s = RepetitionStats.of(values, values);
        assertThat(s.ci95LowNanos()).isLessThanOrEqualTo(s.meanNanos() + 1e-3);
        assertThat(s.ci95HighNanos()).isGreaterThanOrEqualTo(s.meanNanos() - 1e-3);
    }
}
