package dev.prism;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MeasurementTest {
    private static Measurement of(long elapsedNanos, long... values) {
        LatencyRecorder r = new LatencyRecorder("op");
        for (long v : values) {
            r.record(v);
        }
        return r.snapshot(elapsedNanos);
    }

    @Test
    void statistics_matchValuesComputedByHand() {
        // 100, 200, 300, 400: mean 250; squared deviations 22500+2500+2500+22500 = 50000; s² = 50000/3
        Measurement m = of(1_000_000, 100, 200, 300, 400);
        assertThat(m.count()).isEqualTo(4);
        assertThat(m.sumNanos()).isEqualTo(1000);
        assertThat(m.minNanos()).isEqualTo(100);
        assertThat(m.maxNanos()).isEqualTo(400);
        assertThat(m.meanNanos()).isEqualTo(250.0);
        assertThat(m.stddevNanos()).isCloseTo(Math.sqrt(50000.0 / 3), within(1e-9));
        // t(0.975, 3) = 3.182446305 (Student's t table); half width = t * s / sqrt(4), on the log scale:
        // mean × exp(∓ half / mean)
        double half = 3.182446305 * Math.sqrt(50000.0 / 3) / 2;
        assertThat(m.ci95HalfWidthNanos()).isCloseTo(half, within(1e-6));
        assertThat(m.ci95LowNanos()).isCloseTo(250 * Math.exp(-half / 250), within(1e-6));
        assertThat(m.ci95HighNanos()).isCloseTo(250 * Math.exp(half / 250), within(1e-6));
        // exact below 2048 with 3 significant digits
        assertThat(m.p50Nanos()).isEqualTo(200);
        assertThat(m.p90Nanos()).isEqualTo(400);
        assertThat(m.p99Nanos()).isEqualTo(400);
        // 4 operations in 1 ms
        assertThat(m.opsPerSecond()).isCloseTo(4000.0, within(1e-9));
    }

    @Test
    void bytesPerSecond_countsBytesOverElapsedTime() {
        LatencyRecorder r = new LatencyRecorder("write");
        r.record(10);
        r.addBytes(1 << 20);
        Measurement m = r.snapshot(500_000_000);
        assertThat(m.bytes()).isEqualTo(1 << 20);
        assertThat(m.bytesPerSecond()).isCloseTo(2.0 * (1 << 20), within(1e-6));
    }

    @Test
    void percentiles_followHistogramPrecisionForLargeValues() {
        Measurement m = of(1, 1_234_567_891L);
        // 3 significant digits: within 0.1% and never outside [min, max]
        assertThat(m.p50Nanos()).isEqualTo(1_234_567_891L);
        Measurement spread = of(1, 1_000_000, 2_000_000, 3_000_000);
        assertThat(spread.p50Nanos()).isCloseTo(2_000_000, within(2_000L));
    }

    @Test
    void empty_isAllZeros() {
        Measurement m = of(0);
        assertThat(m.count()).isZero();
        assertThat(m.meanNanos()).isZero();
        assertThat(m.minNanos()).isZero();
        assertThat(m.p99Nanos()).isZero();
        assertThat(m.opsPerSecond()).isZero();
        assertThat(m.ci95HalfWidthNanos()).isZero();
    }

    @Test
    void singleValue_hasNoSpread() {
        Measurement m = of(10, 42);
        assertThat(m.stddevNanos()).isZero();
        assertThat(m.ci95LowNanos()).isEqualTo(42.0);
        assertThat(m.ci95HighNanos()).isEqualTo(42.0);
    }

    @Test
    void combineRanks_takesLongestElapsed_combineRepetitions_addsThem() {
        Measurement a = of(1_000, 10, 20);
        Measurement b = of(3_000, 30);
        assertThat(Measurement.combineRanks(List.of(a, b)).elapsedNanos()).isEqualTo(3_000);
        assertThat(Measurement.combineRepetitions(List.of(a, b)).elapsedNanos()).isEqualTo(4_000);
        Measurement merged = Measurement.combineRanks(List.of(a, b));
        assertThat(merged.count()).isEqualTo(3);
        assertThat(merged.meanNanos()).isEqualTo(20.0);
        assertThat(merged.stddevNanos()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void combine_refusesDifferentOperationsAndEmptyLists() {
        Measurement open = of(1, 1);
        Measurement close = new LatencyRecorder("close").snapshot(1);
        assertThatThrownBy(() -> Measurement.combineRanks(List.of(open, close)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'op'").hasMessageContaining("'close'");
        assertThatThrownBy(() -> Measurement.combineRanks(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decode_rebuildsWhatTheDocumentHolds() {
        Measurement m = of(5_000, 100, 250, 900, 4_000_000);
        Measurement back = Measurement.decoder("op", m.encodedHistogram()).count(m.count()).bytes(m.bytes())
                .meanNanos(m.meanNanos()).stddevNanos(m.stddevNanos()).minNanos(m.minNanos()).maxNanos(m.maxNanos())
                .elapsedNanos(m.elapsedNanos()).decode();
        assertThat(back.count()).isEqualTo(m.count());
        assertThat(back.p99Nanos()).isEqualTo(m.p99Nanos());
        assertThat(back.meanNanos()).isEqualTo(m.meanNanos());
        assertThat(back.stddevNanos()).isCloseTo(m.stddevNanos(), within(1e-6));
        assertThatThrownBy(() -> Measurement.decoder("op", m.encodedHistogram()).count(99).decode())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count says 99");
        assertThatThrownBy(() -> Measurement.decoder("op", m.encodedHistogram()).minNanos(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("minNanos must be at least 0, was -1");
    }

    @Test
    void valuesBeyondTheHistogramRange_keepExactMaxAndCount() {
        long twoDays = 2 * LatencyRecorder.HIGHEST_TRACKABLE_NANOS;
        Measurement m = of(1, twoDays);
        assertThat(m.maxNanos()).isEqualTo(twoDays);
        assertThat(m.count()).isEqualTo(1);
    }
}
