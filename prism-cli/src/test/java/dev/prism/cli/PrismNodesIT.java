package dev.prism.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.testing.Await;
import dev.prism.testing.HostDelay;
import dev.prism.testing.RankProcesses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two SLURM nodes for real: {@code scripts/slurm-up.sh --nodes 2} makes each node a network and UTS
 * namespace of this machine with its own slurmd, address and host name (n1, n2), under its own
 * SLURM_CONF beside the one-node SLURM; this class starts it and removes it. Needs root; skipped
 * without it, unless PRISM_REQUIRE_SLURM=1 (as scripts/test.sh sets), which makes that a failure.
 */
@org.junit.jupiter.api.Tag("timing")
class PrismNodesIT {
    private static final Path SCRIPT = SimulatedCluster.SCRIPT;
    private static final String CONF = SimulatedCluster.CONF;

    /**
     * What the loaded host adds to a bound counted from a kill or a cut (the coordinator noticing, its result written
     * and renamed, the process exiting and being reaped, the test's thread seeing it): five hand-offs of the longest
     * scheduling delay observed over the test.
     */
    @RegisterExtension
    final HostDelay host = new HostDelay(5);

    @BeforeAll
    static void twoNodesAreUp() throws Exception {
        SimulatedCluster.start(2);
    }

    @AfterAll
    static void nodesAreRemoved() throws Exception {
        SimulatedCluster.stop();
    }

    /** A command of the simulated cluster (srun, salloc) that ended: what it printed on stdout and stderr, its exit code and wall time. */
    private record Finished(int exitCode, String stdout, String stderr, double seconds) {
    }

    private static Finished srun(Path work, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("srun", "--time=5"));
        command.addAll(List.of(arguments));
        return slurmCommand(work, command, java.util.Map.of());
    }

    /** Runs a command of the simulated cluster (its stderr to work/stderr.txt) to its end, with {@code env} added. */
    private static Finished slurmCommand(Path work, List<String> command, java.util.Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(work.resolve("stderr.txt").toFile());
        pb.environment().put("SLURM_CONF", CONF);
        pb.environment().putAll(env);
        long start = System.nanoTime();
        Process p = pb.start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(4, TimeUnit.MINUTES)).as(command.get(0) + " finished").isTrue();
        return new Finished(p.exitValue(), stdout, Files.readString(work.resolve("stderr.txt")), (System.nanoTime() - start) / 1e9);
    }

    @ParameterizedTest
    @ValueSource(strings = {"n1,n2", "n2,n1"})
    void rankZeroIsFoundOnWhicheverNodeSlurmPlacedIt(String nodes, @TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Finished s = srun(work, "-N2", "-n2", "-m", "arbitrary", "-w", nodes, SCRIPT.toString(), "run", "create_files",
                "-p", "files=50", "--target", target.toString(), "--launcher", "slurm", "--timeout", "60s",
                "--out", work.resolve("out").toString(), "--json", "-q");
        assertThat(s.exitCode()).as(s.stderr()).isZero();
        JsonNode run = new ObjectMapper().readTree(s.stdout()).get(0);
        String[] placed = nodes.split(",");
        assertThat(run.at("/repetitions/0/ranks/0/hostname").asText()).isEqualTo(placed[0]);
        assertThat(run.at("/repetitions/0/ranks/1/hostname").asText()).isEqualTo(placed[1]);
        assertThat(run.at("/measurements/create/count").asLong()).isEqualTo(100);
        // the published address went with the run: nothing is left in the target
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    /** A tmpfs of each node's own (its mount namespace), as /tmp or a local NVMe is on real nodes. */
    private static final String NODE_LOCAL = "/run/prism-slurm-nodes/local";

    @Test
    void onANodeLocalTarget_eachNodeMakesAndRemovesItsOwnRunDirectory_andResultsTravelThroughTheCoordinator(@TempDir Path work)
            throws Exception {
        // rank 0's address is given: a node-local target cannot carry the published one to the other node
        Finished s = srun(work, "-N2", "-n2", "-m", "arbitrary", "-w", "n1,n2", "--export=ALL,MASTER_ADDR=n1,MASTER_PORT=29533",
                SCRIPT.toString(), "run", "create_files", "-p", "files=300", "--reps", "2", "--target", NODE_LOCAL,
                "--launcher", "slurm", "--timeout", "60s", "--out", work.resolve("out").toString(), "--json", "-q");
        assertThat(s.exitCode()).as(s.stderr()).isZero();
        JsonNode run = new ObjectMapper().readTree(s.stdout()).get(0);
        assertThat(run.at("/measurements/create/count").asLong()).isEqualTo(2 * 2 * 300);
        for (int rep = 0; rep < 2; rep++) {
            assertThat(run.at("/repetitions/" + rep + "/ranks/1/hostname").asText()).isEqualTo("n2");
            assertThat(run.at("/repetitions/" + rep + "/ranks/1/notes/target").asText()).startsWith("node-local");
            assertThat(run.at("/repetitions/" + rep + "/ranks/0/notes/target").isMissingNode()).isTrue();
        }
        // each node's own tmpfs, looked at from inside its mount namespace: nothing left on either
        for (String node : List.of("n1", "n2")) {
            assertThat(onNode(node, "ls", "-A", NODE_LOCAL)).as(node).isEmpty();
        }
    }

    /** Python with torch for the torch benchmarks (scripts/python-venv.sh makes it) */
    private static final Path PYTHON = SCRIPT.getParent().resolve(".venv/bin/python");

    /** {@code salloc -N2} of the simulated cluster running {@code ./prism arguments…} on this host, as a login node would. */
    private static Finished salloc(Path work, String... arguments) throws IOException, InterruptedException {
        dev.prism.testing.Required.require(Files.isExecutable(PYTHON), "PRISM_REQUIRE_TORCH",
                "no Python with torch at " + PYTHON + " (scripts/python-venv.sh)");
        List<String> command = new ArrayList<>(List.of("salloc", "-N2", "--time=5", SCRIPT.toString()));
        command.addAll(List.of(arguments));
        return slurmCommand(work, command, java.util.Map.of("PRISM_PYTHON", PYTHON.toString()));
    }

    @Test
    void fsdpAcrossBothNodes_savesAndLoadsOneShardedCheckpoint_withATorchAgentOnEachNode(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Finished s = salloc(work, "run", "fsdp_save", "fsdp_load", "--torch-nodes", "2", "--tasks", "2", "-p", "params=2000000",
                "--target", target.toString(), "--timeout", "200s", "--out", work.resolve("out").toString(), "--json", "-q");
        assertThat(s.exitCode()).as(s.stderr()).isZero();
        JsonNode runs = new ObjectMapper().readTree(s.stdout());
        assertThat(runs).hasSize(2);
        for (JsonNode run : runs) {
            assertThat(run.at("/launcher").asText()).isEqualTo("torchrun+srun");
            // one torch agent on each node, met through c10d rendezvous on n1
            assertThat(run.at("/nodes/n1/0").asInt()).isZero();
            assertThat(run.at("/nodes/n2/0").asInt()).isEqualTo(1);
        }
        assertThat(runs.get(1).at("/measurements/load/count").asLong()).isEqualTo(2);
        // the four clocks of the save, the last taken on the other node: it opened the .metadata and read the other
        // rank's file to its end no sooner than its own save was durable
        JsonNode save = runs.get(0);
        for (JsonNode rank : save.at("/repetitions/0/ranks")) {
            assertThat(rank.at("/notes/visible_from").asText()).isEqualTo("another node");
            long durable = rank.at("/measurements/durable/maxNanos").asLong();
            assertThat(rank.at("/measurements/blocked/maxNanos").asLong()).isPositive().isLessThanOrEqualTo(durable);
            assertThat(rank.at("/measurements/visible/maxNanos").asLong()).isGreaterThanOrEqualTo(durable);
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void torchOnANodeLocalTarget_failsAtOnce_sayingTheNodesMustShareIt(@TempDir Path work) throws Exception {
        // the driver runs here, in the root namespace: its NODE_LOCAL is neither n1's nor n2's
        Finished s = salloc(work, "run", "fsdp_save", "--torch-nodes", "2", "--tasks", "2", "-p", "params=2000000",
                "--target", NODE_LOCAL, "--timeout", "100s", "--out", work.resolve("out").toString(), "-q");
        assertThat(s.exitCode()).isEqualTo(1);
        assertThat(s.stdout() + s.stderr()).contains("is the target on a filesystem all 2 nodes share?");
        // at once: a run left to wait for its rendezvous would end only at its --timeout of 100 s
        assertThat(s.seconds()).as("salloc's wall time against the run's --timeout").isLessThan(100);
    }

    /** @return what {@code command} printed, run in {@code node}'s mount namespace (where its slurmd runs) */
    private static String onNode(String node, String... command) throws Exception {
        String slurmd = Files.readString(Path.of("/run/prism-slurm-nodes/slurmd-" + node + ".pid")).strip();
        List<String> line = new ArrayList<>(List.of("nsenter", "-t", slurmd, "-m"));
        line.addAll(List.of(command));
        Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return said;
    }

    @Test
    void aRankThatCannotReachRankZero_failsTheRunWithinItsTimeout_notAfterFiveMinutes(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        double startedBefore = srun(work, "-N2", "-n2", SCRIPT.toString(), "--version").seconds();
        // a fixed coordinator address no node has (10.77.0.99 is on the cluster's bridge, unassigned)
        Finished s = srun(work, "-N2", "-n2", "--kill-on-bad-exit=1", "--export=ALL,MASTER_ADDR=10.77.0.99,MASTER_PORT=29411",
                SCRIPT.toString(), "run", "create_files", "-p", "files=50", "--target", target.toString(),
                "--launcher", "slurm", "--timeout", "8s", "--out", work.resolve("out").toString(), "-q");
        assertThat(s.exitCode()).isNotZero();
        assertThat(s.stderr()).contains("SLURM rank(s) [1] never reached the coordinator at 10.77.0.99:29411 within ");
        // its --timeout of 8 s once PRISM is up on both nodes: each task starts two JVMs, one after the other (the
        // supervisor, then its rank, which loads much more of PRISM: counted twice), each as long as the one an srun of
        // `prism --version` starts here, beside this test, on this host's load (the longer of one before the run and one
        // after); then a second for writing the document and exiting, and the host's delays (quiet: 10.1 s against an
        // srun of 0.8 s)
        double started = Math.max(startedBefore, srun(work, "-N2", "-n2", SCRIPT.toString(), "--version").seconds());
        System.out.printf("unreachable coordinator: srun ended after %.1f s; srun of prism --version on both nodes %.1f s%n",
                s.seconds(), started);
        assertThat(s.seconds()).as("srun's wall time, against `srun prism --version`'s %.1f s plus the 8 s timeout", started)
                .isLessThan(3 * started + 8 + 1 + host.allowanceSeconds());
    }

    @Test
    void whenANodesRankIsKilled_theRunFailsAtOnce_namingTheNodeAndTheRank_andRecordsWhereEveryRankRan(@TempDir Path work)
            throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        Process srun = longRunAcrossBothNodes(work, target, "120s", "killed");
        ProcessHandle rank1 = javaIn("prism-n2");
        Path result = out.resolve("killed/01-create_files-t2.json");
        long killed = System.nanoTime();
        new ProcessBuilder("kill", "-9", String.valueOf(rank1.pid())).start().waitFor();
        Await.until("rank 0 writes its result " + result, Duration.ofMinutes(2), () -> Files.exists(result));
        double seconds = (System.nanoTime() - killed) / 1e9;
        // then rank 0 removes what both ranks created: how long that takes is the storage's and the host's, not the
        // failure's, so srun's end is only waited for
        assertThat(srun.waitFor(2, TimeUnit.MINUTES)).as("srun ended").isTrue();
        System.out.printf("rank 1 on n2 killed: the run's result written %.1f s after, srun ended %.1f s after%n", seconds,
                (System.nanoTime() - killed) / 1e9);

        JsonNode run = new ObjectMapper().readTree(result.toFile());
        assertThat(run.at("/failure/message").asText()).as(run.toString()).contains("rank 1 on n2");
        assertThat(run.at("/repetitions/0/ranks/1/hostname").asText()).isEqualTo("n2");
        assertThat(run.at("/nodes/n1/0").asInt()).isZero();
        assertThat(run.at("/nodes/n2/0").asInt()).isEqualTo(1);
        // the survivor stopped before its next operation, not at the end of its 3,000,000 files
        assertThat(run.at("/measurements/create/count").asLong()).isPositive().isLessThan(3_000_000);
        // docs/guarantees.md: a rank's process killed fails the run within 5 s of the kill
        assertThat(seconds).as("from the kill to the run's result").isLessThan(5 + host.allowanceSeconds());
    }

    @Test
    void whenANodesNetworkGoesDown_bothSidesNoticeTheSilence_andTheRunFailsNamingTheNode(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        // files synced one by one: both ranks write on for 15 s, and what they leave is soon removed
        Process srun = longRunAcrossBothNodes(work, target, "150s", "unreachable", true, 200);
        ProcessHandle rank1 = javaIn("prism-n2");
        long cut = System.nanoTime();
        // n2 drops off the network: no connection is reset, the other side just hears nothing more
        new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "down").start().waitFor();
        try {
            // rank 0 gives up on rank 1 after its silence and writes the result
            Path results = out.resolve("unreachable/01-create_files-t2.json");
            Await.until("rank 0 writes its result " + results, Duration.ofSeconds(60), () -> Files.exists(results));
            double rank0Seconds = (System.nanoTime() - cut) / 1e9;
            // back on the network before SLURM's SlurmdTimeout (30 s) takes n2 for dead and cancels the step, which
            // would SIGTERM rank 0 during its clean-up: that case, SLURM noticing first, is the test below
            new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "up").start().waitFor();
            // rank 1 notices the coordinator's silence (or, back on the network, its closed connection), stops and
            // removes its own directory (which may take a while: it holds every file it created)
            Await.until("rank 1 on n2 ended", Duration.ofSeconds(90), () -> RankProcesses.ended(rank1));
            double rank1Seconds = (System.nanoTime() - cut) / 1e9;
            assertThat(results).as(Files.readString(work.resolve("stderr.txt"))).exists();
            System.out.printf("link down on n2: rank 1 ended %.1f s after the cut, rank 0's result was written after %.1f s%n",
                    rank1Seconds, rank0Seconds);
            JsonNode run = new ObjectMapper().readTree(results.toFile());
            assertThat(run.at("/failure/message").asText()).as("after %.1f s", rank0Seconds)
                    .contains("rank 1 on n2 has not been heard from for")
                    .contains("its node or its network is down");
            assertThat(run.at("/measurements/create/count").asLong()).isPositive().isLessThan(3_000_000);
            // the silence limit (a tenth of the 150 s timeout: 15 s), then n2's kernel asked with a connection attempt
            // that times out after 3 s, and two seconds for the coordinator's next look and its result's writing
            assertThat(rank0Seconds).as("rank 0's result after the cut").isBetween(14.0, 15 + 3 + 2 + host.allowanceSeconds());
            assertThat(rank1Seconds).as("rank 1's end after the cut").isBetween(14.0, 90.0);
        } finally {
            new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "up").start().waitFor();
            srun.waitFor(2, TimeUnit.MINUTES);
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void whenSlurmNoticesTheNodeFirst_theSurvivorKeepsWhatItMeasured_andRemovesItsOwnDirectoryWithinKillWait(@TempDir Path work)
            throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        // 20,000 files, about half of them rank 0's: more than the old 3 s wait for the unreachable rank and a clean-up
        // of the whole run directory (rank 1's files included, which rank 1 still adds to) fit in KillWait
        Process srun = longRunAcrossBothNodes(work, target, "150s", "cancelled", false, 20_000);
        Path runDirectory = target.resolve("prism-cancelled");
        ProcessHandle rank0 = javaIn("prism-n1");
        ProcessHandle rank1 = javaIn("prism-n2");
        // n2 drops off the network and SLURM is told at once, as its SlurmdTimeout would tell it later: it cancels the
        // step, so rank 0 on n1 gets SIGTERM, and SIGKILL KillWait (5 s here) after it
        new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "down").start().waitFor();
        long signalled = System.nanoTime();
        scontrol("update", "nodename=n2", "state=down", "reason=prism-test-node-failure");
        boolean rank0Left;
        try {
            Await.until("rank 0 on n1 ended", Duration.ofSeconds(60), () -> RankProcesses.ended(rank0));
            double seconds = (System.nanoTime() - signalled) / 1e9;
            assertThat(srun.waitFor(60, TimeUnit.SECONDS)).as("srun ended").isTrue();
            String said = Files.readString(work.resolve("stderr.txt"));
            System.out.printf("SLURM cancelled the step for n2: rank 0 on n1 ended %.1f s after%n", seconds);
            // it ended on its own after the SIGTERM (143), not by the SIGKILL that follows KillWait
            assertThat(said).contains("task 0: Exited with exit code 143").doesNotContain("task 0: Killed");
            JsonNode run = new ObjectMapper().readTree(out.resolve("cancelled/01-create_files-t2.json").toFile());
            assertThat(run.at("/failure/kind").asText()).as(run.toString()).isEqualTo("INTERRUPTED");
            assertThat(run.at("/failure/message").asText()).contains("SIGTERM").contains("what it measured until then is kept");
            assertThat(run.at("/repetitions/0/ranks/0/hostname").asText()).isEqualTo("n1");
            assertThat(run.at("/repetitions/0/ranks/0/measurements/create/count").asLong()).isPositive();
            // its own directory goes first, within the grace; where the host is too loaded for even that (a suite's other
            // lane took it past 4 s once), the clean-up says so and names what it left, as it must
            Path own = runDirectory.resolve("rank-0");
            System.out.printf("rank 0's own directory %s%n", Files.exists(own) ? "was left, and said so" : "was removed");
            assertThat(said).as("rank 0's own directory %s, %.1f s after the signal; prism said: %s", own, seconds, said)
                    .satisfiesAnyOf(s -> assertThat(own).doesNotExist(),
                            s -> assertThat(s).contains("removing " + runDirectory)
                                    .contains("did not finish within 4s of the interruption").contains("the rest is still there"));
            rank0Left = Files.exists(own);
        } finally {
            new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "up").start().waitFor();
            scontrol("update", "nodename=n2", "state=resume");
            srun.waitFor(60, TimeUnit.SECONDS);
        }
        // rank 1, cut off from rank 0, stops once back (the closed connection, or its own node's SIGTERM) and removes
        // its own directory, within KillWait when signalled: anything left can only be in rank 1's directory, or, where
        // rank 0 said its clean-up did not finish (above), in the run directory its message named; never outside it
        Await.until("rank 1 on n2 ended", Duration.ofSeconds(90), () -> RankProcesses.ended(rank1));
        try (Stream<Path> left = Files.walk(target)) {
            Path mayHoldLeftovers = rank0Left ? runDirectory : runDirectory.resolve("rank-1");
            assertThat(left.filter(p -> !p.equals(target) && !p.equals(runDirectory) && !p.startsWith(mayHoldLeftovers)))
                    .as("left in %s (rank 0 %s)", target, rank0Left ? "said it left its clean-up unfinished" : "removed its own")
                    .isEmpty();
        }
        SimulatedCluster.awaitIdle("n2");
    }

    /** Runs scontrol of the simulated cluster, its output to this test's. */
    private static void scontrol(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("scontrol"));
        command.addAll(List.of(arguments));
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().put("SLURM_CONF", CONF);
        pb.start().waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Starts rank 0 on n1 and rank 1 on n2 creating up to 3,000,000 files each, and returns once they are in their
     * timed phase (files appear in the target).
     */
    private static Process longRunAcrossBothNodes(Path work, Path target, String timeout, String runId) throws Exception {
        return longRunAcrossBothNodes(work, target, timeout, runId, false, 200);
    }

    /**
     * As {@link #longRunAcrossBothNodes(Path, Path, String, String)}: with {@code fsync} every file is synced (about a
     * thousand files a second, not ten thousand: fewer to remove when the run ends), and it returns once the ranks
     * have written {@code files} files.
     */
    private static Process longRunAcrossBothNodes(Path work, Path target, String timeout, String runId, boolean fsync,
                                                  int files) throws Exception {
        List<String> command = new ArrayList<>(List.of("srun", "--time=5", "-N2", "-n2", "-m", "arbitrary", "-w", "n1,n2",
                SCRIPT.toString(), "run", "create_files", "-p", "files=3000000", "-p", "fsync=" + fsync, "--target", target.toString(),
                "--launcher", "slurm", "--timeout", timeout, "--out", work.resolve("out").toString(), "--run-id", runId, "-q"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(work.resolve("stdout.txt").toFile())
                .redirectError(work.resolve("stderr.txt").toFile());
        pb.environment().put("SLURM_CONF", CONF);
        Process srun = pb.start();
        Targets.awaitFiles(target, files);
        return srun;
    }

    /**
     * @return the PRISM JVM running inside network namespace {@code namespace} (a node's rank), as a handle taken
     *     while it runs, so that waiting for its end still works after it ended
     */
    private static ProcessHandle javaIn(String namespace) {
        return Await.value("a PRISM rank runs in " + namespace, () -> {
            Process pids = new ProcessBuilder("ip", "netns", "pids", namespace).start();
            String text = new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            pids.waitFor();
            for (String pid : text.split("\\s+")) {
                java.util.Optional<ProcessHandle> handle = pid.isBlank() ? java.util.Optional.empty()
                        : ProcessHandle.of(Long.parseLong(pid));
                if (handle.flatMap(h -> h.info().commandLine()).orElse("").contains("-Dprism.script=")) {
                    return handle;
                }
            }
            return java.util.Optional.empty();
        });
    }
}
