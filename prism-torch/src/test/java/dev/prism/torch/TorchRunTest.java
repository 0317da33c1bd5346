package dev.prism.torch;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command lines TorchRun builds, on one node and across a SLURM allocation. */
class TorchRunTest {
    private static final Path SCRIPT = Path.of("/run/torch/prism_torch_bench.py");

    @Test
    void oneNode_meetsOnLoopback_withoutSrun() {
        List<String> command = TorchRun.builder().python(Path.of("/venv/bin/python")).build()
                .command(SCRIPT, List.of("--benchmark", "ddp_save"), 4, Map.of());
        // the agent and the workers isolated (-I): torchrun is handed the workers' whole command
        assertThat(command).containsExactly("/venv/bin/python", "-I", "-m", "torch.distributed.run", "--nnodes", "1",
                "--nproc-per-node", "4", "--rdzv-backend", "c10d", "--rdzv-endpoint", "127.0.0.1:0",
                "--local-addr", "127.0.0.1", "--log-dir", "/run/torch/torchrun-logs", "--no-python", "/venv/bin/python",
                "-I", "-u", SCRIPT.toString(), "--benchmark", "ddp_save");
    }

    @Test
    void severalNodes_startOneAgentPerNodeWithSrun_meetingOnTheFirstNode() {
        List<String> command = TorchRun.builder().python(Path.of("python3")).nodes(2).srunOptions("--partition=gpu").build()
                .command(SCRIPT, List.of(), 8, Map.of("SLURM_JOB_NODELIST", "gpu[007-008]", "SLURM_JOB_ID", "4242"));
        assertThat(command.subList(0, 8)).containsExactly("srun", "--nodes=2", "--ntasks=2", "--ntasks-per-node=1",
                "--kill-on-bad-exit=1", "--job-name=prism-torchrun", "--chdir=/", "--partition=gpu");
        assertThat(command).containsSequence("--nnodes", "2", "--nproc-per-node", "8");
        String endpoint = command.get(command.indexOf("--rdzv-endpoint") + 1);
        assertThat(endpoint).matches("gpu007:\\d{5}");
        // below the kernel's ephemeral range, where PRISM's own coordinators listen
        assertThat(Integer.parseInt(endpoint.split(":")[1])).isBetween(10_000, 29_999);
        assertThat(command.get(command.indexOf("--rdzv-id") + 1)).startsWith("prism-4242-");
        // every rank's agent is told the same endpoint: it depends on the job, not on the call
        assertThat(TorchRun.builder().nodes(2).build().command(SCRIPT, List.of(), 1,
                Map.of("SLURM_JOB_NODELIST", "gpu[007-008]", "SLURM_JOB_ID", "4242"))).contains(endpoint);
    }

    @Test
    void severalNodes_outsideAnAllocation_needAnEndpoint() {
        assertThatThrownBy(() -> TorchRun.builder().nodes(2).build().command(SCRIPT, List.of(), 1, Map.of()))
                .isInstanceOf(TorchException.class).hasMessageContaining("SLURM allocation (sbatch or salloc)")
                .hasMessageContaining("rendezvousEndpoint");
        assertThat(TorchRun.builder().nodes(2).rendezvousEndpoint("head:29500").build().command(SCRIPT, List.of(), 1, Map.of()))
                .containsSequence("--rdzv-endpoint", "head:29500");
    }

    @Test
    void toBuilder_keepsEverySetting() {
        TorchRun original = TorchRun.builder().python(Path.of("/p")).nodes(3).rendezvousEndpoint("h:1234").ompThreads(8)
                .environment("NCCL_DEBUG", "INFO").srunOptions("--gpus-per-node=8").timeout(Duration.ofMinutes(9)).build();
        TorchRun copy = original.toBuilder().timeout(Duration.ofSeconds(30)).build();
        assertThat(copy.python()).isEqualTo(Path.of("/p"));
        assertThat(copy.nodes()).isEqualTo(3);
        assertThat(copy.rendezvousEndpoint()).contains("h:1234");
        assertThat(copy.environment()).containsEntry("OMP_NUM_THREADS", "8").containsEntry("NCCL_DEBUG", "INFO");
        assertThat(copy.srunOptions()).containsExactly("--gpus-per-node=8");
        assertThat(copy.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(original.timeout()).isEqualTo(Duration.ofMinutes(9));
    }

    @Test
    void builder_checksEachArgument() {
        assertThatThrownBy(() -> TorchRun.builder().srunOptions("partition=gpu"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("srunOptions").hasMessageContaining("partition=gpu");
        assertThatThrownBy(() -> TorchRun.builder().timeout(Duration.ZERO)).hasMessageContaining("timeout must be in 1s..7 days");
        assertThatThrownBy(() -> TorchRun.builder().ompThreads(0)).hasMessageContaining("ompThreads must be in 1..1024, was 0");
    }

    @org.junit.jupiter.api.Test
    void aRelativeInterpreterPath_isMadeAbsolute_becauseTorchrunStartsElsewhere() {
        Path relative = Path.of(".venv/bin/python");
        assertThat(TorchRun.builder().python(relative).build().python())
                .isEqualTo(Path.of("").toAbsolutePath().resolve(".venv/bin/python"));
        // a bare name is looked up on PATH, wherever the process starts
        assertThat(TorchRun.builder().python(Path.of("python3")).build().python()).isEqualTo(Path.of("python3"));
    }

    @Test
    void nodes_isTheBenchmarksParameter_whichTorchrunFollows_andTheTaskCountMustSpreadEvenly() {
        // set as a parameter (the command line's -p nodes=2, a sweep), torchrun runs on that many nodes
        TorchBenchmark byParameter = TorchBenchmarks.named("fsdp_save", Map.of("nodes", "2"));
        assertThat(byParameter.torchRun().nodes()).isEqualTo(2);
        assertThat(byParameter.recordedParameters()).containsEntry("nodes", "2");
        // on one node it is not recorded: results from before it was a parameter pair with these
        assertThat(TorchBenchmarks.fsdpSave().recordedParameters()).doesNotContainKey("nodes").containsKey("thread_count");
        assertThat(TorchBenchmarks.dataloader().recordedParameters()).doesNotContainKey("nodes");
        // set through TorchRun, the parameter follows, so the result records it
        TorchBenchmark byTorchRun = TorchBenchmarks.dataloader().torchRun(TorchRun.builder().nodes(4).build());
        assertThat(byTorchRun.parameters().get(TorchBenchmark.NODES)).isEqualTo(4);
        assertThat(byTorchRun.footprint(8)).isEmpty();
        assertThatThrownBy(() -> byTorchRun.footprint(6)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nodes 4: torchrun runs the same number of ranks on each node, so the task count must be a"
                        + " multiple of 4, was 6");
        assertThatThrownBy(() -> byParameter.footprint(3)).hasMessageContaining("must be a multiple of 2, was 3");
    }

    @Test
    void aSweep_keepsTheTorchrunItWasGiven() {
        // a sweep made each configuration again by name, with the default torchrun: the interpreter given was lost
        TorchRun custom = TorchRun.builder().python(Path.of("/opt/venv/bin/python")).build();
        List<dev.prism.Benchmark> swept = dev.prism.Sweep.of(TorchBenchmarks.fsdpSave().torchRun(custom))
                .param("thread_count", "1", "2").benchmarks();
        assertThat(swept).hasSize(2).allSatisfy(b -> assertThat(((TorchBenchmark) b).torchRun().python())
                .isEqualTo(Path.of("/opt/venv/bin/python")));
        assertThat(swept.get(1)).isInstanceOf(FsdpSave.class);
        assertThat(swept.get(1).parameters().get(TorchBenchmark.THREAD_COUNT)).isEqualTo(2);
    }
}
