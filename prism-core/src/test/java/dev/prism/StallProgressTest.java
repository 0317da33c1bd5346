package dev.prism;

import dev.prism.testing.SchedulingDelay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stall is a timing that went the stall threshold without progress (issue 39, item 4: a healthy 1 GiB checkpoint
 * write on tmpfs was reported as a stall, "still running", because it took longer than the threshold). The delays
 * are the test's own sleeps, each far from the 500 ms threshold: progress every 40 ms over 1.2 s is no stall; a 1.5 s
 * spell without progress inside a progressing timing is one, live and in the results; a timing that says nothing
 * of its progress is one once it has run the threshold, as before. A loaded host stretches the short steps: the
 * first test's "no stall" is judged against the longest spell the workload itself saw between two signs of progress.
 */
@org.junit.jupiter.api.Tag("timing")
class StallProgressTest {
    private static final Duration THRESHOLD = Duration.ofMillis(500);

    @TempDir
    Path dir;

    @Test
    void aLongTimingThatKeepsProgressing_isNoStall_evenAroundAShortInnerTimer() {
        // the observer: the longest spell the workload itself saw between two signs of progress (a timer's start or
        // end, a progress call), which a loaded host stretches; and how late the host ran a ready thread
        AtomicLong longestSpell = new AtomicLong();
        Result r;
        SchedulingDelay delay;
        try (SchedulingDelay watching = SchedulingDelay.watch()) {
            delay = watching;
            r = run(ctx -> {
                long[] last = {System.nanoTime()};
                Runnable mark = () -> {
                    long now = System.nanoTime();
                    longestSpell.accumulateAndGet(now - last[0], Math::max);
                    last[0] = now;
                };
                try (var outer = ctx.time("create")) {
                    try (var open = ctx.time("open")) {
                        Thread.sleep(40); // on purpose: the delay under test, one short step
                    }
                    mark.run();
                    try (var write = ctx.time("write")) {
                        for (int block = 0; block < 30; block++) {
                            Thread.sleep(40); // on purpose: the delay under test, one short step
                            ctx.progress();
                            mark.run();
                        }
                        Thread.sleep(40); // on purpose: the delay under test, one short step
                    }
                    mark.run();
                }
            });
        }
        assertThat(r.run.measurement("create").maxNanos()).isGreaterThan(THRESHOLD.toNanos());
        // a stall needs a spell of the threshold without progress: the workload's own marks are at most one of the
        // host's delays away from the progress they stand beside, on either side
        long spell = longestSpell.get() + 2 * delay.longest().toNanos();
        assertThat(r.live.isEmpty() || spell >= THRESHOLD.toNanos())
                .as("stalls %s, with the longest spell the workload saw %.3f s (the host's longest delay %.3f s)", r.live,
                        longestSpell.get() / 1e9, delay.longest().toNanos() / 1e9).isTrue();
        assertThat(r.run.stalls().isEmpty() || spell >= THRESHOLD.toNanos())
                .as("stalls in the results %s, with the longest spell the workload saw %.3f s", r.run.stalls(),
                        longestSpell.get() / 1e9).isTrue();
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
