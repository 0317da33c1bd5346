package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Operations summarised elsewhere and added to a recorder ({@link LatencyRecorder#recordAll},
 * {@link LatencyRecorder#add}) come out as if each had been recorded one by one: the observer is a recorder that was
 * given every sample.
 */
class LatencyRecorderMergeProperties {
    @Property
    void addingAnotherRecordersSnapshot_isRecordingItsSamples(
            @ForAll @Size(max = 40) List<@LongRange(min = 0, max = 10_000_000_000L) Long> first,
            @ForAll @Size(max = 40) List<@LongRange(min = 0, max = 10_000_000_000L) Long> second) {
        LatencyRecorder all = new LatencyRecorder("op");
        LatencyRecorder a = new LatencyRecorder("op");
        LatencyRecorder b = new LatencyRecorder("op");
        first.forEach(v -> { all.record(v); a.record(v); });
        second.forEach(v -> { all.record(v); b.record(v); });
        b.recordError();
        all.recordError();
        b.addBytes(7);
        all.addBytes(7);
        a.add(b.snapshot(1));
        same(a.snapshot(1), all.snapshot(1));
    }

    @Property
    void recordingAllAtOnce_isRecordingEachWhenTheLatenciesAreExact(
            @ForAll @Size(min = 1, max = 40) List<@LongRange(min = 1, max = 10_000_000_000L) Long> samples,
            @ForAll @Size(max = 10) List<@LongRange(min = 1, max = 1_000_000L) Long> before) {
        LatencyRecorder each = new LatencyRecorder("op");
        LatencyRecorder summary = new LatencyRecorder("op");
        before.forEach(v -> { each.record(v); summary.record(v); });
        samples.forEach(each::record);
        Map<Long, Long> latencies = new TreeMap<>();
        samples.forEach(v -> latencies.merge(v, 1L, Long::sum));
        summary.recordAll(samples.size(), samples.stream().mapToLong(Long::longValue).sum(),
                samples.stream().mapToLong(Long::longValue).min().orElseThrow(),
                samples.stream().mapToLong(Long::longValue).max().orElseThrow(), latencies);
        same(summary.snapshot(1), each.snapshot(1));
    }

    private static void same(Measurement actual, Measurement expected) {
        assertThat(List.of(actual.count(), actual.errors(), actual.bytes(), actual.sumNanos(), actual.minNanos(),
                actual.maxNanos(), actual.p50Nanos(), actual.p99Nanos()))
                .isEqualTo(List.of(expected.count(), expected.errors(), expected.bytes(), expected.sumNanos(),
                        expected.minNanos(), expected.maxNanos(), expected.p50Nanos(), expected.p99Nanos()));
        assertThat(actual.stddevNanos()).isCloseTo(expected.stddevNanos(), within(1e-6 * Math.max(1, expected.stddevNanos())));
    }
}
