package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MeasurementProperties {
    private static Measurement record(List<Long> values, long elapsed) {
        LatencyRecorder r = new LatencyRecorder("op");
        values.forEach(r::record);
        return r.snapshot(elapsed);
    }

    @Property
    void mergingEqualsRecordingTheUnion(@ForAll @Size(max = 200) List<@LongRange(min = 0, max = 10_000_000_000L) Long> a,
                                        @ForAll @Size(max = 200) List<@LongRange(min = 0, max = 10_000_000_000L) Long> b) {
        List<Long> union = new ArrayList<>(a);
        union.addAll(b);
        Measurement merged = Measurement.combineRanks(List.of(record(a, 7), record(b, 7)));
        Measurement direct = record(union, 7);
        assertThat(merged.count()).isEqualTo(direct.count());
        assertThat(merged.sumNanos()).isEqualTo(direct.sumNanos());
        assertThat(merged.minNanos()).isEqualTo(direct.minNanos());
        assertThat(merged.maxNanos()).isEqualTo(direct.maxNanos());
        assertThat(merged.histogram()).isEqualTo(direct.histogram());
        for (double p : new double[]{0, 50, 90, 99, 99.9, 100}) {
            assertThat(merged.percentileNanos(p)).isEqualTo(direct.percentileNanos(p));
        }
        assertThat(merged.stddevNanos()).isCloseTo(direct.stddevNanos(), within(1e-6 * (1 + direct.stddevNanos())));
    }

    @Property
    void percentilesAreMonotone(@ForAll @Size(min = 1, max = 300) List<@LongRange(min = 0, max = 100_000_000_000L) Long> values) {
        Measurement m = record(values, 1);
        long previous = m.minNanos();
        for (double p = 0; p <= 100; p += 0.5) {
            long value = m.percentileNanos(p);
            assertThat(value).isGreaterThanOrEqualTo(previous).isBetween(m.minNanos(), m.maxNanos());
            previous = value;
        }
    }

    @Property
    void confidenceIntervalContainsTheMean(@ForAll @Size(min = 1, max = 300) List<@LongRange(min = 0, max = 100_000_000_000L) Long> values) {
        Measurement m = record(values, 1);
        assertThat(m.ci95LowNanos()).isLessThanOrEqualTo(m.meanNanos());
        assertThat(m.ci95HighNanos()).isGreaterThanOrEqualTo(m.meanNanos());
        assertThat(m.meanNanos()).isBetween((double) m.minNanos(), (double) m.maxNanos());
    }

    @Property
    void aCompactMeasurement_saysEveryFigureTheSame(@ForAll @Size(max = 300) List<@LongRange(min = 0, max = 100_000_000_000L) Long> values) {
        Measurement m = record(values, 12_345);
        Measurement compact = m.compact();
        assertThat(compact.compact()).isSameAs(compact);
        assertThat(List.of(compact.count(), compact.sumNanos(), compact.minNanos(), compact.maxNanos(), compact.elapsedNanos(),
                compact.bytes(), compact.errors())).isEqualTo(List.of(m.count(), m.sumNanos(), m.minNanos(), m.maxNanos(),
                m.elapsedNanos(), m.bytes(), m.errors()));
        assertThat(compact.stddevNanos()).isEqualTo(m.stddevNanos());
        assertThat(compact.histogram()).isEqualTo(m.histogram());
        assertThat(compact.encodedHistogram()).isEqualTo(m.encodedHistogram());
        for (double p : new double[]{0, 50, 90, 99, 99.9, 100}) {
            assertThat(compact.percentileNanos(p)).isEqualTo(m.percentileNanos(p));
        }
    }
}
