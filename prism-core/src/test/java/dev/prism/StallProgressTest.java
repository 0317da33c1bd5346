package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stall is a timing that went the stall threshold without progress (issue 39, item 4: a healthy 1 GiB checkpoint
 * write on tmpfs was reported as a stall, "still running", because it took longer than the threshold). The delays
 * are the test's own sleeps, each far from the 500 ms threshold: progress every 40 ms over 1.2 s is no stall; a 1.5 s
 * spell without progress inside a progressing timing is one, live and in the results; a timing that says nothing
 * of its progress is one once it has run the threshold, as before.
 */
@org.junit.jupiter.api.Tag("timing")
class StallProgressTest {
    private static final Duration THRESHOLD = Duration.ofMillis(500);

    @TempDir
    Path dir;

    @Test
    void aLongTimingThatKeepsProgressing_isNoStall_evenAroundAShortInnerTimer() {
        Result r = run(ctx -> {
            try (var outer = ctx.time("create")) {
                try (var open = ctx.time("open")) {
                    Thread.sleep(40); // on purpose: the delay under test, one short step
                }
                try (var write = ctx.time("write")) {
                    for (int block = 0; block < 30; block++) {
                        Thread.sleep(40); // on purpose: the delay under test, one short step
                        ctx.progress();
                    }
                    Thread.sleep(40); // on purpose: the delay under test, one short step
                }
            }
        });
        assertThat(r.run.measurement("create").maxNanos()).isGreaterThan(THRESHOLD.toNanos());
        assertThat(r.live).isEmpty();
        assertThat(r.run.stalls()).isEmpty();
    }

    @Test
    void aSpellWithoutProgress_insideAProgressingTiming_isAStall_liveAndInTheResults() {
        Result r = run(ctx -> {
            try (var write = ctx.time("write")) {
                for (int block = 0; block < 5; block++) {
                    Thread.sleep(40); // on purpose: the delay under test, one short step
                    ctx.progress();
                }
                Thread.sleep(1_500); // on purpose: the delay under test, a hung call
                ctx.progress();
                Thread.sleep(40); // on purpose: the delay under test, one short step
            }
        });
        assertThat(r.live).extracting(Stall::operation).containsExactly("write");
        assertThat(r.run.stalls()).extracting(Stall::operation).containsExactly("write");
        assertThat(r.run.stalls().get(0).finished()).isTrue();
    }

    @Test
    void aHangAtTheEnd_andATimingThatSaysNothingOfItsProgress_areStalls() {
        Result r = run(ctx -> {
            try (var write = ctx.time("write")) {
                Thread.sleep(40); // on purpose: the delay under test, one short step
                ctx.progress();
                Thread.sleep(1_000); // on purpose: the delay under test, the last call hung
            }
            try (var fsync = ctx.time("fsync")) {
                Thread.sleep(1_000); // on purpose: the delay under test, no progress told
            }
        });
        assertThat(r.run.stalls()).extracting(Stall::operation).containsExactly("write", "fsync");
    }

    private record Result(RunResult run, List<Stall> live) {
    }

    private Result run(Workload workload) {
        List<Stall> live = new CopyOnWriteArrayList<>();
        ScenarioListener listener = new ScenarioListener() {
            @Override
            public void stallDetected(Stall stall) {
                live.add(stall);
            }
        };
        RunResult run = Scenario.builder().target(dir).benchmark(Benchmark.builder("progress").run(workload).build())
                .stallThreshold(THRESHOLD).listener(listener).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        return new Result(run, live);
    }
}
