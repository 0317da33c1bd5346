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

    /**
     * Each operation sleeps 10 ms; the first to start past 1.1 s into the recorded phase sleeps 300 ms, once. The
     * observer: every operation's start and end by the workload's own clock, read outside PRISM's timer, into
     * {@code seen} as {start, end, stall ? 1 : 0}.
     */
    private static Benchmark sleeper(List<long[]> seen) {
        return Benchmark.builder("sleeper").runsByTime().run(ctx -> {
            long start = System.nanoTime();
            boolean stalled = false;
            for (long i = 0; ctx.keepGoing(i, 10); i++) {
                boolean stall = !stalled && System.nanoTime() - start > 1_600_000_000L;   // ramp 0.5 s + 1.1 s
                stalled |= stall;
                long began = System.nanoTime();
                try (var t = ctx.time("op")) {
                    Thread.sleep(stall ? 300 : 10); // 10 ms operations, one 300 ms stall
                }
                seen.add(new long[]{began, System.nanoTime(), stall ? 1 : 0});
            }
        }).build();
    }

    @Test
    void aTimedRun_lastsItsDuration_skipsTheRamp_andItsIntervalsPlaceTheStall() throws IOException {
        List<long[]> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScenarioResult result = Scenario.builder().target(target).benchmark(sleeper(seen))
                .pacing(Pacing.of(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(200))).build().execute();
        RunResult run = result.runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        // what the observer saw: the first operation's start, the longest operation, the longest pause between two
        long first = seen.get(0)[0];
        long last = seen.get(seen.size() - 1)[1];
        long longestOp = seen.stream().mapToLong(o -> o[1] - o[0]).max().orElseThrow();
        long longestGap = 0;
        for (int i = 1; i < seen.size(); i++) {
            longestGap = Math.max(longestGap, seen.get(i)[0] - seen.get(i - 1)[1]);
        }
        // one operation past the end at most: the one under way when the duration ran out, and the pause before it
        long slack = longestOp + longestGap;
        assertThat((last - first) / 1e9).as("ramp 0.5 s + duration 2 s, observed").isGreaterThanOrEqualTo(2.49)
                .isLessThanOrEqualTo(2.5 + slack / 1e9);
        RankResult rank = run.repetitions().get(0).ranks().get(0);
        // the timed phase is the duration, the ramp left out
        assertThat(rank.phaseNanos() / 1e9).isBetween(1.99, 2.0 + slack / 1e9);
        Measurement op = run.measurement("op");
        // 2 s of 10 ms sleeps (a sleep never returns early), one of them 300 ms: at most 171 operations, and every
        // operation the observer saw well inside the phase (a slack from its edges) is among them; the ramp's are not
        long rampEnd = first + 500_000_000L;
        long inside = seen.stream().filter(o -> o[0] >= rampEnd + slack && o[1] <= rampEnd + 2_000_000_000L - slack).count();
        long afterRamp = seen.stream().filter(o -> o[1] > rampEnd - slack).count();
        assertThat(op.count()).isLessThanOrEqualTo(171L).isGreaterThanOrEqualTo(inside).isLessThanOrEqualTo(afterRamp);
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
        // where the observer saw the stall end, in 200 ms intervals from the ramp's end (one either side: PRISM's ramp
        // begins a moment before the first operation, and an interval's edge may fall between the two clocks)
        long stallEnd = seen.stream().filter(o -> o[2] == 1).findFirst().orElseThrow()[1];
        int expected = (int) ((stallEnd - rampEnd) / 200_000_000L);
        assertThat(stalled).isBetween(expected - 1, expected + 1);
        // the stall began past 1.1 s: interval 2 (0.4-0.6 s) holds none of it
        assertThat(expected).isGreaterThanOrEqualTo(5);
        assertThat(intervals.get(2).maxNanos()).isLessThan(300_000_000L);
        // 10 ms sleeps: at most 100 a second (a sleep never returns early), and some
        assertThat(intervals.get(2).opsPerSecond()).isGreaterThan(0.0).isLessThanOrEqualTo(101.0);

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
        assertThatThrownBy(() -> Scenario.builder().target(target).benchmark(sleeper(new java.util.ArrayList<>())).timeout(Duration.ofSeconds(5))
                .pacing(Pacing.of(Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO)).build())
                .hasMessageContaining("must leave room");
        assertThat(Pacing.of(Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofSeconds(1)).toString())
                .isEqualTo("1m after a 5s ramp, intervals of 1s");
    }
}
