package dev.prism;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rates and durations as types: the same figures as the raw accessors, printed in the tables' units. */
class RateTest {
    @Test
    void aRate_printsInTheTablesUnits_andIsChecked() {
        assertThat(Rate.ofOperations(12_345).toString()).isEqualTo("12,345 ops/s");
        assertThat(Rate.ofBytes(1.5 * 1024 * 1024 * 1024).toString()).endsWith("GiB/s").startsWith("1.5");
        assertThat(Rate.ofOperations(2)).isEqualTo(Rate.ofOperations(2)).isNotEqualTo(Rate.ofBytes(2))
                .isGreaterThan(Rate.ofOperations(1));
        assertThatThrownBy(() -> Rate.ofBytes(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a rate must be a finite number of bytes per second, at least 0, was -1.0");
        assertThatThrownBy(() -> Rate.ofOperations(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Rate.ofOperations(1).compareTo(Rate.ofBytes(1)))
                .hasMessage("cannot compare a rate of operations with one of bytes");
    }

    @Test
    void theTypedAccessors_holdTheRawFigures() {
        LatencyRecorder recorder = new LatencyRecorder("write");
        for (int i = 1; i <= 1000; i++) {
            recorder.record(i * 1_000L);
            recorder.addBytes(4096);
        }
        Measurement m = recorder.snapshot(2_000_000_000L);
        assertThat(m.operationRate().perSecond()).isEqualTo(m.opsPerSecond()).isEqualTo(500.0);
        assertThat(m.dataRate().perSecond()).isEqualTo(m.bytesPerSecond()).isEqualTo(4096 * 500.0);
        RepetitionStats s = RepetitionStats.of(new double[]{100.4, 110, 90}, new double[]{1000, 900, 1100});
        assertThat(s.mean()).isEqualTo(Duration.ofNanos(Math.round(s.meanNanos())));
        assertThat(s.ci95Low().toNanos()).isEqualTo(Math.round(s.ci95LowNanos()));
        assertThat(s.meanRate()).isEqualTo(Rate.ofOperations(1000));
        assertThat(s.toString()).startsWith("mean 100 ns [").endsWith("over 3 repetitions").contains("1,000 ops/s [");
        assertThat(new Stall(0, "open", "/f", Instant.EPOCH, 5_000_000_000L, true).duration()).isEqualTo(Duration.ofSeconds(5));
    }
}
