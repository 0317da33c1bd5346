package dev.prism.torch;

import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * torchrun agents started by real {@code srun}, one per "node", meeting through c10d rendezvous: the
 * multi-node path. The one-node SLURM of scripts/slurm-up.sh hosts both agents (later srun options
 * override PRISM's one-agent-per-node layout), which exercises the same srun, rendezvous and result
 * gathering as two machines would. Needs torch and a running SLURM; skipped without them unless
 * PRISM_REQUIRE_TORCH=1 and PRISM_REQUIRE_SLURM=1 (scripts/test.sh) make that a failure.
 */
class TorchAcrossNodesTest {
    @TempDir
    Path target;

    @BeforeAll
    static void torchAndSlurmAreThere() {
        TorchBenchmarksTest.torchIsThere();
        dev.prism.testing.Required.slurm();
    }

    @Test
    void twoAgentsStartedBySrun_saveAndLoadOneShardedCheckpoint() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        TorchRun acrossTwo = TorchRun.builder().nodes(2).rendezvousEndpoint("127.0.0.1:" + port)
                .srunOptions("--nodes=1", "--ntasks-per-node=2", "--overcommit", "--time=5")
                .timeout(Duration.ofMinutes(4)).build();
        RunResult r = Scenario.builder().target(target)
                .benchmark(TorchBenchmarks.fsdpLoad().parameters(2_000_000).torchRun(acrossTwo))
                .tasks(2).timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);

        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.launcher()).isEqualTo("torchrun+srun");
        assertThat(r.repetitions().get(0).ranks()).extracting(RankResult::rank).containsExactly(0, 1);
        assertThat(r.repetitions().get(0).ranks()).extracting(RankResult::hostname).doesNotContain("?");
        assertThat(r.measurement("save").count()).isEqualTo(2);
        assertThat(r.measurement("load").count()).isEqualTo(2);
        assertThat(r.measurement("load").bytes()).isPositive();
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aTaskCountTheNodesCannotShare_isRefusedNamingBoth() throws IOException {
        TorchRun acrossTwo = TorchRun.builder().nodes(2).rendezvousEndpoint("127.0.0.1:29999").build();
        // said when the scenario is built, before any configuration runs (it failed as a run when its turn came)
        assertThatThrownBy(() -> Scenario.builder().target(target)
                .benchmark(TorchBenchmarks.ddpSave().parameters(2_000_000).torchRun(acrossTwo)).tasks(3).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ddp_save at 3 tasks: nodes 2: torchrun runs the same number of ranks on each node")
                .hasMessageContaining("task count must be a multiple of 2, was 3");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }
}
