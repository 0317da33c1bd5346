package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Time-based runs: the duration bounds the work, the ramp is not recorded, intervals show when a stall happened. */
class PacingTest {
    @TempDir
    Path target;

    /** Each operation sleeps 10 ms (the observer); the one that ends past 1.1 s into the recorded phase sleeps 300 ms, once. */
    private static Benchmark sleeper() {
        return Benchmark.builder("sleeper").runsByTime().run(ctx -> {
            long start = System.nanoTime();
            boolean stalled = false;
            for (long i = 0; ctx.keepGoing(i, 10); i++) {
                boolean stall = !stalled && System.nanoTime() - start > 1_600_000_000L;   // ramp 0.5 s + 1.1 s
                stalled |= stall;
                try (var t = ctx.time("op")) {
                    Thread.sleep(stall ? 300 : 10); // the observer: 10 ms operations, one 300 ms stall
                }
            }
        }).build();
    }

    @Test
    void aTimedRun_lastsItsDuration_skipsTheRamp_andItsIntervalsPlaceTheStall() throws IOException {
        long begin = System.nanoTime();
        ScenarioResult result = Scenario.builder().target(target).benchmark(sleeper())
                .pacing(Pacing.of(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(200))).build().execute();
        double seconds = (System.nanoTime() - begin) / 1e9;
        RunResult run = result.runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(seconds).as("wall time of ramp 0.5 s + duration 2 s").isBetween(2.4, 6.0);
        RankResult rank = run.repetitions().get(0).ranks().get(0);
        // the timed phase is the duration, the ramp left out
        assertThat(rank.phaseNanos() / 1e9).isBetween(1.99, 2.4);
        Measurement op = run.measurement("op");
        // 2 s of 10 ms sleeps, one of them 300 ms: at most 171 operations; the ramp's ~45 are not among them
        assertThat(op.count()).isBetween(100L, 171L);
        assertThat(op.maxNanos()).isGreaterThanOrEqualTo(300_000_000L);
        List<Measurement> intervals = run.repetitions().get(0).intervals().get("op");
        assertThat(intervals).hasSize(10);
        assertThat(intervals.stream().mapToLong(Measurement::count).sum()).isEqualTo(op.count());
        // the stall ended in the interval 1.4–1.6 s (it started at 1.1 s and ran 0.3 s): only there is the max that long
        int stalled = -1;
        for (int i = 0; i < intervals.size(); i++) {
            if (intervals.get(i).maxNanos() >= 300_000_000L) {
                stalled = i;
            }
        }
        // (a loaded machine may wake the sleeper late: one interval of slack)
        assertThat(stalled).isBetween(6, 8);
        assertThat(intervals.get(2).maxNanos()).isLessThan(100_000_000L);
        // 10 ms sleeps: at most 100 a second, fewer where the scheduler wakes the sleeper late
        assertThat(intervals.get(2).opsPerSecond()).isBetween(25.0, 101.0);

        // written as JSON and an HdrHistogram log, and read back
        Path out = Files.createDirectories(target.resolve("results"));
        result.writeJson(out);
        assertThat(Files.readString(out.resolve("01-sleeper-t1.hlog"))).contains("Tag=rep1/op,0.000,0.200");
        RunResult back = Results.load(out).get(0);
        assertThat(back.repetitions().get(0).intervals().get("op")).extracting(Measurement::count)
                .isEqualTo(intervals.stream().map(Measurement::count).toList());
    }

    @Test
    void pacingIsCheckedWhereItIsWritten() {
        assertThatThrownBy(() -> Pacing.of(Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO)).hasMessageContaining("needs a duration");
        assertThatThrownBy(() -> Pacing.of(Duration.ofSeconds(1), Duration.ZERO, Duration.ofMillis(1))).hasMessageContaining("10ms..1d");
        assertThatThrownBy(() -> Pacing.of(Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO)).hasMessageContaining("duration");
        Benchmark fixed = Benchmark.builder("fixed").run(ctx -> { }).build();
        assertThatThrownBy(() -> Scenario.builder().target(target).benchmark(fixed)
                .pacing(Pacing.of(Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO)).build())
                .hasMessageContaining("fixed runs a fixed amount of work");
        assertThatThrownBy(() -> Scenario.builder().target(target).benchmark(sleeper()).timeout(Duration.ofSeconds(5))
                .pacing(Pacing.of(Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO)).build())
                .hasMessageContaining("must leave room");
        assertThat(Pacing.of(Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofSeconds(1)).toString())
                .isEqualTo("1m after a 5s ramp, intervals of 1s");
    }
}
