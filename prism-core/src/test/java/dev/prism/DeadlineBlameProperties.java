package dev.prism;

import dev.prism.testing.Await;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run that reaches its deadline blames the rank that was still at work, with TIMEOUT and the phase it was in —
 * whichever clock saw the deadline first: the barrier the other ranks wait at, the launcher's watch over the rank
 * threads, or (for ranks in their own processes) the coordinator's, whose stop reaches a rank before its own copy of the
 * deadline, which it learnt as time remaining and so falls later. A rank that was waiting at a barrier did its part and
 * is ABORTED, never the run's failure while a rank timed out.
 *
 * <p>The property holds that rule over phases, held ranks and timeouts. The held rank holds far past the deadline: in
 * the timed phase by timed ticks that notice a stop, elsewhere by work that does not (those cases end as a rank stuck
 * past the launcher's grace, and held before this change too). Which clock fires first varies with which rank holds
 * (none of the others waiting at a barrier when all hold), with the phase, and with the timeout against the ticks. The
 * two cases below it are what failed before: ranks in their own processes, and a rank that reaches its barrier late.
 */
@org.junit.jupiter.api.Tag("timing")
@net.jqwik.api.Tag("timing")
class DeadlineBlameProperties {
    private static final List<TestPhasesProvider.Hold> PHASES = List.of(TestPhasesProvider.Hold.SETUP,
            TestPhasesProvider.Hold.REHEARSAL, TestPhasesProvider.Hold.RUN, TestPhasesProvider.Hold.TEARDOWN);

    @Property(tries = 10)
    void theRankStillAtWorkAtTheDeadline_isTheRunsTimeout_inItsPhase(@ForAll @IntRange(min = 0, max = 3) int phaseIndex,
                                                                     @ForAll @IntRange(min = -1, max = 2) int heldRank,
                                                                     @ForAll @IntRange(min = 300, max = 1500) int timeoutMillis)
            throws IOException {
        TestPhasesProvider.Hold phase = PHASES.get(phaseIndex);
        Path target = Files.createTempDirectory("prism-deadline-");
        try {
            RunResult run = run(target, Launcher.threads(), 3, phase, heldRank, Duration.ofMillis(timeoutMillis));
            assertBlame(run, phase, heldRank);
        } finally {
            // a held rank that does not notice a stop is abandoned after the launcher's grace and ends when its hold does
            Await.until("the abandoned rank threads ended", () -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().startsWith("prism-rank-")));
            DirectoryRemoval.of(target);
        }
    }

    /**
     * Ranks in their own processes: rank 0 waits at {@code after-run} when the coordinator's barrier reaches the
     * deadline, and tells rank 1 — still ticking in its timed phase, its own copy of the deadline not yet reached — to
     * stop. The run was once called ABORTED, naming rank 1 as one that "never arrived" from rank 0's result.
     */
    @Test
    void ranksInTheirOwnProcesses_theCoordinatorsClockFirst_blameTheRankStillInItsTimedPhase(@TempDir Path target) {
        RunResult run = run(target, Launcher.processes(), 2, TestPhasesProvider.Hold.RUN, 1, Duration.ofSeconds(15));
        assertBlame(run, TestPhasesProvider.Hold.RUN, 1);
        assertThat(run.repetitions().get(0).ranks().get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
    }

    /**
     * A rank busy past the deadline in work that does not listen for a stop (as a call into the storage would not)
     * reaches {@code after-run} after the stop was told: it was not there when the deadline came, so it timed out, in
     * its timed phase; the rank that waited there is ABORTED. The late one was once ABORTED too, and the run with it.
     */
    @Test
    void aRankThatReachesItsBarrierAfterTheDeadline_timedOut(@TempDir Path target) {
        Duration timeout = Duration.ofMillis(600);
        Benchmark late = Benchmark.builder("late").run(ctx -> {
            if (ctx.rank() == 1) {
                long end = System.nanoTime() + timeout.plusMillis(400).toNanos(); // past the deadline, within the grace
                while (System.nanoTime() < end) {
                    try {
                        Thread.sleep(10); // stands for untimed work that does not end on an interrupt
                    } catch (InterruptedException e) {
                        // as a file system call would not
                    }
                }
            }
        }).build();
        RunResult run = Scenario.builder().target(target).benchmark(late).tasks(2).timeout(timeout)
                .launcher(Launcher.threads()).build().execute().runs().get(0);
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        assertThat(ranks.get(1).failure()).as(ranks.toString()).isNotNull();
        assertThat(ranks.get(1).failure().kind()).as(ranks.toString()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(ranks.get(1).failure().message()).contains("in the timed phase (stopped with stopped before barrier"
                + " 'after-run'");
        assertThat(ranks.get(0).failure().kind()).as(ranks.toString()).isEqualTo(Failure.Kind.ABORTED);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(run.failure().rank()).isEqualTo(1);
    }

    private static RunResult run(Path target, Launcher launcher, int tasks, TestPhasesProvider.Hold phase, int heldRank,
                                 Duration timeout) {
        long holdMillis = timeout.toMillis() + 2_500; // past the deadline and the threads launcher's grace after it
        return Scenario.builder().target(target).runId("deadline")
                .benchmark(Benchmarks.create("test_phases", Map.of("hold_phase", phase.name(), "hold_rank",
                        String.valueOf(heldRank), "hold_ms", String.valueOf(holdMillis))))
                .tasks(tasks).timeout(timeout).launcher(launcher).build().execute().runs().get(0);
    }

    /**
     * The held rank timed out in its phase, the run's failure is the lowest rank that timed out (the held one, or on a
     * host so loaded that a rank had not reached its barrier by the deadline, a lower one still at work too), and
     * every other rank either timed out or was waiting at a barrier.
     */
    private static void assertBlame(RunResult run, TestPhasesProvider.Hold phase, int heldRank) {
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        String described = ranks.toString();
        assertThat(run.failure()).as(described).isNotNull();
        assertThat(run.failure().kind()).as(run.failure() + " " + described).isEqualTo(Failure.Kind.TIMEOUT);
        RankPhase rankPhase = RankPhase.valueOf(phase.name());
        for (RankResult rank : ranks) {
            boolean held = heldRank < 0 || rank.rank() == heldRank;
            if (held) {
                assertThat(rank.failure()).as(described).isNotNull();
                assertThat(rank.failure().kind()).as(described).isEqualTo(Failure.Kind.TIMEOUT);
                assertThat(rank.failure().message()).as(described).containsAnyOf("in " + rankPhase.description() + " (",
                        "stuck in " + rankPhase.description());
            } else if (rank.failure() != null) {
                assertThat(rank.failure().kind()).as(described).isIn(Failure.Kind.TIMEOUT, Failure.Kind.ABORTED);
            }
        }
        int firstTimedOut = ranks.stream().filter(r -> r.failure() != null && r.failure().kind() == Failure.Kind.TIMEOUT)
                .mapToInt(RankResult::rank).min().orElseThrow();
        assertThat(run.failure().rank()).as(described).isEqualTo(firstTimedOut);
    }
}
