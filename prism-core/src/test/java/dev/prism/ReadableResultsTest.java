package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Results read as the table reads: typed figures equal to the raw ones, repetitions numbered from 1 where the table
 * numbers them so, and {@code toString()} in the table's units and words instead of raw nanoseconds or an object's hash.
 */
class ReadableResultsTest {
    @Property(tries = 100)
    void typedFigures_areTheRawOnes(@ForAll @Size(min = 1, max = 200) List<@LongRange(min = 1, max = 10_000_000_000L) Long> latencies) {
        LatencyRecorder r = new LatencyRecorder("op");
        latencies.forEach(r::record);
        r.addBytes(4096);
        Measurement m = r.snapshot(1_000_000_000L);
        assertThat(m.p99()).isEqualTo(Duration.ofNanos(m.p99Nanos()));
        assertThat(m.p50()).isEqualTo(Duration.ofNanos(m.p50Nanos()));
        assertThat(m.p90()).isEqualTo(Duration.ofNanos(m.p90Nanos()));
        assertThat(m.p999()).isEqualTo(Duration.ofNanos(m.p999Nanos()));
        assertThat(m.percentile(75)).isEqualTo(Duration.ofNanos(m.percentileNanos(75)));
        assertThat(m.min()).isEqualTo(Duration.ofNanos(latencies.stream().mapToLong(Long::longValue).min().orElseThrow()));
        assertThat(m.max()).isEqualTo(Duration.ofNanos(latencies.stream().mapToLong(Long::longValue).max().orElseThrow()));
        assertThat((double) m.mean().toNanos()).isCloseTo(m.meanNanos(), org.assertj.core.api.Assertions.within(0.5));
        assertThat(m.elapsed()).isEqualTo(Duration.ofSeconds(1));
        assertThat(m.data()).isEqualTo(DataSize.ofBytes(4096));
        assertThat(m.ci95Low()).isLessThanOrEqualTo(m.ci95High());
    }

    @Test
    void aMeasurementPrints_inTheTablesUnits() {
        LatencyRecorder r = new LatencyRecorder("stat");
        for (long v : new long[]{2_000, 2_500, 3_000}) {
            r.record(v);
        }
        String text = r.snapshot(1_000_000).toString();
        assertThat(text).startsWith("stat: 3 ops, mean 2.5 µs [").contains("p50 2.5 µs").contains("max 3.0 µs")
                .contains("3,000 ops/s").doesNotContain("ns=").doesNotContain("mean=");
    }

    @Test
    void aScenarioAndItsResults_printWhatTheyAre_numberingRepetitionsAsTheTableDoes(@TempDir Path tmp) {
        Benchmark touch = Benchmark.builder("touch").run(ctx -> {
            for (int i = 0; i < 50; i++) {
                Path f = ctx.workDirectory().resolve("f" + i);
                try (var t = ctx.time("create", f)) {
                    Files.createFile(f);
                }
            }
        }).build();
        Scenario scenario = Scenario.builder().target(tmp).benchmark(touch).tasks(2).repetitions(2).warmups(0).seed(7).build();
        assertThat(scenario.toString()).isEqualTo("touch at tasks 2, 2 rep(s) after 0 warm-up(s), threads, seed 7, on " + tmp);
        ScenarioResult result = scenario.execute();
        assertThat(result.toString()).startsWith("1 run(s), all passed\ntouch tasks=2: PASS, 2 rep(s)\n  create: 200 ops, mean ")
                .doesNotContain("ScenarioResult[").doesNotContain("RunResult[");
        RunResult run = result.runs().get(0);
        RepetitionResult second = run.repetitions().get(1);
        assertThat(second.number()).isEqualTo(2);
        assertThat(second.toString()).startsWith("rep 2: PASS, 2 rank(s), create 100 ops mean ");
        // the table's lines say "rep N" for each repetition; the spread names the same numbers
        RankSpread spread = second.rankSpread();
        assertThat(spread.slowestRepetitionNumber()).isEqualTo(2);
        assertThat(run.table()).contains("tasks 2 rep 2: rank phase mean");
        assertThat(run.rankSpread().slowestRepetitionNumber()).isIn(1, 2)
                .isEqualTo(run.rankSpread().slowestRepetition() + 1);
        assertThat(spread.toString()).matches("2 rank phase\\(s\\): mean .+, fastest rank [01] .+ \\(rep 2\\), slowest rank [01] .+"
                + " \\(rep 2\\), \\d+\\.\\d\\dx the fastest");
        assertThat(spread.slowest()).isEqualTo(Duration.ofNanos(spread.maxNanos())).isGreaterThanOrEqualTo(spread.fastest());
        assertThat(spread.slowestOverFastest()).isGreaterThanOrEqualTo(1.0);
    }
}
