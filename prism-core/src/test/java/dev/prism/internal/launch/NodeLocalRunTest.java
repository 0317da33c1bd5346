package dev.prism.internal.launch;

import dev.prism.Benchmarks;
import dev.prism.PrismException;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.internal.files.RunDirectory;
import dev.prism.spi.HeldDirectory;
import dev.prism.testing.CheckedThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node-local target: the node's ranks make the run directory themselves. The one whose mkdir makes it marks it as
 * the run's; the others, starting at the same moment, wait for that mark and never write one; a directory already
 * there as another run's is refused.
 */
class NodeLocalRunTest {
    private static RunPlan plan(Path target, String runId, int tasks) {
        return new RunPlan(Benchmarks.create("test_noop", Map.of()), tasks, target.resolve("prism-" + runId), 1,
                Duration.ofMinutes(1), Instant.now().plusSeconds(60), Duration.ofSeconds(1), ScenarioListener.NONE,
                runId, 0, null);
    }

    @Test
    void theNodesRanksAllAtOnce_makeOneRunDirectoryMarkedAsTheRuns(@TempDir Path target) throws Exception {
        int ranks = 8;
        RunPlan plan = plan(target, "node", ranks);
        CountDownLatch go = new CountDownLatch(1);
        List<CheckedThread> all = new ArrayList<>();
        for (int r = 1; r < ranks; r++) {
            int rank = r;
            all.add(CheckedThread.start("rank-" + r, () -> {
                go.await();
                NodeLocalRun.prepare(plan, rank);
            }));
        }
        go.countDown();
        for (CheckedThread t : all) {
            t.join();
        }
        assertThat(plan.runDirectory().resolve(HeldDirectory.RUN_MARK)).hasContent("node\n");
        for (int r = 1; r < ranks; r++) {
            assertThat(plan.rankDirectory(r)).isDirectory();
        }
        assertThat(plan.sharedDirectory()).isDirectory();
    }

    @Test
    void anotherRunsDirectoryAlreadyThere_isRefused_andLeftAsItWas(@TempDir Path target) throws Exception {
        Path theirs = RunDirectory.create(target, "theirs");
        Files.move(theirs, target.resolve("prism-ours"));
        Path there = target.resolve("prism-ours");
        assertThatThrownBy(() -> NodeLocalRun.prepare(plan(target, "ours", 2), 1)).isInstanceOf(PrismException.class)
                .hasMessageContaining(there.toString()).hasMessageContaining("is marked as another run's");
        try (var entries = Files.list(there)) {
            assertThat(entries).containsExactly(there.resolve(HeldDirectory.RUN_MARK));
        }
    }
}
