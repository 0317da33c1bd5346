package dev.prism;

import dev.prism.testing.Await;
import dev.prism.testing.RankProcesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy rank is slow, not dead: a rank process stopped (SIGSTOP: as silent as a dead node, a long GC pause or a
 * starved JVM) for longer than the silence limit is asked about before anyone gives up on it. Its process is still
 * there, so the run waits, says so ({@link ScenarioListener#rankSlow}) and, once the rank goes on (SIGCONT), passes
 * with every rank's measurements, the slow rank's silence noted in its result.
 */
@org.junit.jupiter.api.Tag("timing")
class LivenessTest {
    @TempDir
    Path dir;

    @AfterEach
    void noRankOutlivesItsTest() {
        ProcessHandle.current().descendants().forEach(h -> signal("CONT", h.pid()));
        Await.until("every rank process of the test has exited", () -> ProcessHandle.current().descendants()
                .noneMatch(ProcessHandle::isAlive));
    }

    private static void signal(String name, long pid) {
        try {
            new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).start().waitFor();
        } catch (Exception e) {
            throw new IllegalStateException("kill -" + name + " " + pid + ": " + e.getMessage(), e);
        }
    }

    @Test
    void aRankStoppedLongerThanTheSilenceLimit_isReportedSlow_notLost_andTheRunPassesWithEveryRanksData() throws Exception {
        Path target = Files.createDirectories(dir.resolve("target"));
        Duration limit = Duration.ofSeconds(5);
        CountDownLatch slow = new CountDownLatch(1);
        AtomicReference<Duration> silence = new AtomicReference<>();
        ScenarioListener listener = new ScenarioListener() {
            @Override
            public void rankSlow(int rank, Duration silent) {
                if (rank == 1) {
                    silence.set(silent);
                    slow.countDown();
                }
            }
        };
        // rank 1 holds 3 s in its timed phase (wall time: it ends at once after a longer stop)
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder().target(target)
                .runId("stopped").benchmark(Benchmarks.create("test_phases", Map.of("hold_phase", "RUN", "hold_rank", "1",
                        "hold_ms", "3000"))).tasks(3).timeout(Duration.ofMinutes(5)).silenceLimit(limit)
                .launcher(Launcher.processes()).listener(listener).build().execute().runs().get(0));
        Path held = target.resolve("prism-stopped/rank-1/held-run");
        Await.until("rank 1 holds in its timed phase (" + held + ")", () -> Files.exists(held));
        ProcessHandle rank1 = RankProcesses.find(ProcessHandle.current(), 1);
        signal("STOP", rank1.pid());
        try {
            assertThat(slow.await(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("the coordinator says rank 1 is slow after its silence").isTrue();
        } finally {
            signal("CONT", rank1.pid());
        }
        RunResult run = running.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(silence.get()).isGreaterThan(limit);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        assertThat(ranks).allSatisfy(r -> assertThat(r.measurements().get("step").count()).isEqualTo(10));
        assertThat(ranks.get(1).notes().get("liveness")).contains("silent for up to").contains("slow, not lost");
        assertThat(ranks.get(0).notes()).doesNotContainKey("liveness");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void theSilenceLimit_isATenthOfTheTimeout_from15sTo60s_andAGivenOneIsChecked() {
        assertThat(RunPlan.defaultSilenceLimit(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(15));
        assertThat(RunPlan.defaultSilenceLimit(Duration.ofMinutes(5))).isEqualTo(Duration.ofSeconds(30));
        assertThat(RunPlan.defaultSilenceLimit(Duration.ofMinutes(10))).isEqualTo(Duration.ofSeconds(60));
        assertThat(RunPlan.defaultSilenceLimit(Duration.ofHours(2))).isEqualTo(Duration.ofSeconds(60));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenario.builder().silenceLimit(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("silenceLimit");
    }
}
