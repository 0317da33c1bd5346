package dev.prism.torch;

import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 55, item 2, for torch on one node and across two: another user who may write the target renames the run directory after
 * torchrun started and before its workers run the benchmark, and puts a link in its place to a directory of their
 * choosing, laid out as a run directory is. The job reaches the run directory through a held descriptor
 * ({@code /proc/<pid>/fd/N/…}: the JVM's on one node, each node's opener's across nodes): the workers' script, their documents and the checkpoint stay in the directory the run
 * made, now under its new name, and nothing lands where the link points. (Before, torchrun was given the run
 * directory's paths by name, and the workers went through the link.)
 */
class TorchRunDirectorySwapTest {
    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} node(s)")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
    void ddpSave_runDirectoryRenamedAndLinkedAwayBeforeTheWorkersStart_nothingLandsInTheLinkedDirectory(
            int nodes, @TempDir Path scratch) throws Exception {
        if (nodes > 1) {
            dev.prism.testing.Required.slurm();
        }
        Path target = Files.createDirectory(scratch.resolve("target"));
        Path victim = Files.createDirectory(scratch.resolve("victim"));
        // where the workers would go through the link: the run directory's layout, made by the neighbour, with
        // copies of PRISM's scripts (which root would run, had it gone there)
        Files.createDirectories(victim.resolve("torch").resolve("ranks"));
        Files.createDirectories(victim.resolve("shared").resolve("ddp_save"));
        for (String script : List.of("prism_torch_bench.py", "prism_shards.py", "prism_dcp_job.py", "prism_interpose.py",
                "prism_formats.py")) {
            try (var in = TorchRunDirectorySwapTest.class.getResourceAsStream("/dev/prism/torch/" + script)) {
                assertThat(in).as(script).isNotNull();
                Files.copy(in, victim.resolve("torch").resolve(script));
            }
        }
        List<Path> victimBefore = tree(victim);
        Path moved = target.resolve("moved-away");
        Path waiting = scratch.resolve("worker-waiting");
        Path gate = scratch.resolve("worker-may-go");
        // the interpreter, as torchrun starts each worker (-I -u <script> …): held at a gate until the swap is done.
        // On two nodes, both agents (and the opener before each) are up before any worker starts: rendezvous
        Path python = scratch.resolve("python");
        Files.writeString(python, "#!/bin/sh\n"
                + "if [ \"$1\" = -I ] && [ \"$2\" = -u ]; then : > '" + waiting + "';"
                + " while [ ! -e '" + gate + "' ]; do sleep 0.01; done; fi\n"
                + "exec '" + TorchRun.defaultPython() + "' \"$@\"\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwx------"));
        dev.prism.testing.GatedSwap neighbour = dev.prism.testing.GatedSwap.start(target, moved, victim, waiting, gate,
                Duration.ofMinutes(3));

        TorchRun.Builder torchRun = TorchRun.builder().python(python).timeout(Duration.ofMinutes(4));
        if (nodes > 1) {
            // both agents on the one-node SLURM of scripts/slurm-up.sh, as TorchAcrossNodesTest runs them
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                port = free.getLocalPort();
            }
            torchRun.nodes(nodes).rendezvousEndpoint("127.0.0.1:" + port)
                    .srunOptions("--nodes=1", "--ntasks-per-node=2", "--overcommit", "--time=5");
        }
        TorchBenchmark save = TorchBenchmarks.ddpSave().parameters(2_000_000).torchRun(torchRun.build());
        ScenarioResult result = Scenario.builder().target(target).benchmark(save).tasks(2).repetitions(1)
                .timeout(Duration.ofMinutes(5)).build().execute();
        neighbour.swapped();
        assertThat(tree(victim)).as("what is in the directory the link points to").isEqualTo(victimBefore);
        RunResult run = result.runs().get(0);
        assertThat(run.passed()).as("ddp_save passed: %s", run.failure()).isTrue();
        // DDP: rank 0 saves the one copy of the model, every rank trains and meets the others
        assertThat(run.measurement("save").count()).as("saves").isEqualTo(1);
        assertThat(run.measurement("save").bytes()).as("bytes saved").isPositive();
        assertThat(run.repetitions().get(0).ranks()).extracting(RankResult::rank).containsExactly(0, 1);
        assertThat(run.measurement("train").count()).as("training steps timed, one a rank").isEqualTo(2);
        assertThat(result.cleanup()).as("clean-up").contains("no longer the directory");
    }

    /** @return every path in {@code root}, sorted */
    private static List<Path> tree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.sorted().toList();
        }
    }
}
