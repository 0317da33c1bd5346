package dev.prism.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
class PrismNodesIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();
    private static final Path SCRIPTS = SCRIPT.getParent().resolve("scripts");
    private static final String CONF = "/etc/slurm-prism-nodes/slurm.conf";

    @BeforeAll
    static void twoNodesAreUp() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        String said = root ? script("slurm-up.sh", "--nodes", "2") : "not root";
        dev.prism.testing.Required.require(said.contains("2 nodes up"), "PRISM_REQUIRE_SLURM",
                "no simulated 2-node SLURM (scripts/slurm-up.sh --nodes 2 needs root): " + said);
    }

    @AfterAll
    static void nodesAreRemoved() throws Exception {
        if ("root".equals(System.getProperty("user.name"))) {
            script("slurm-down.sh", "--nodes");
        }
    }

    /** Runs a script to a file (the daemons it starts must not hold a pipe of this test open); returns what it said. */
    private static String script(String name, String... arguments) throws IOException, InterruptedException {
        Path log = Files.createTempFile("prism-nodes", ".log");
        List<String> command = new ArrayList<>(List.of(SCRIPTS.resolve(name).toString()));
        command.addAll(List.of(arguments));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        p.waitFor(2, TimeUnit.MINUTES);
        String said = Files.readString(log);
        Files.delete(log);
        return said;
    }

    /** An srun of the simulated cluster; what it printed on stdout, stderr and its exit code, and its wall time. */
    private record Srun(int exitCode, String stdout, String stderr, double seconds) {
    }

    private static Srun srun(Path work, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("srun", "--time=5"));
        command.addAll(List.of(arguments));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(work.resolve("stderr.txt").toFile());
        pb.environment().put("SLURM_CONF", CONF);
        long start = System.nanoTime();
        Process p = pb.start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(4, TimeUnit.MINUTES)).as("srun finished").isTrue();
        return new Srun(p.exitValue(), stdout, Files.readString(work.resolve("stderr.txt")), (System.nanoTime() - start) / 1e9);
    }

    @ParameterizedTest
    @ValueSource(strings = {"n1,n2", "n2,n1"})
    void rankZeroIsFoundOnWhicheverNodeSlurmPlacedIt(String nodes, @TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Srun s = srun(work, "-N2", "-n2", "-m", "arbitrary", "-w", nodes, SCRIPT.toString(), "run", "create_files",
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

    @Test
    void aRankThatCannotReachRankZero_failsTheRunWithinItsTimeout_notAfterFiveMinutes(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        // a fixed coordinator address no node has (10.77.0.99 is on the cluster's bridge, unassigned)
        Srun s = srun(work, "-N2", "-n2", "--kill-on-bad-exit=1", "--export=ALL,MASTER_ADDR=10.77.0.99,MASTER_PORT=29411",
                SCRIPT.toString(), "run", "create_files", "-p", "files=50", "--target", target.toString(),
                "--launcher", "slurm", "--timeout", "15s", "--out", work.resolve("out").toString(), "-q");
        assertThat(s.exitCode()).isNotZero();
        assertThat(s.stderr()).contains("SLURM rank(s) [1] never reached the coordinator at 10.77.0.99:29411 within ");
        assertThat(s.seconds()).as("srun's wall time").isLessThan(60);
    }

    @Test
    void whenANodesRankIsKilled_theRunFailsAtOnce_namingTheNodeAndTheRank_andRecordsWhereEveryRankRan(@TempDir Path work)
            throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        Process srun = longRunAcrossBothNodes(work, target, "120s", "killed");
        long rank1 = javaIn("prism-n2");
        long killed = System.nanoTime();
        new ProcessBuilder("kill", "-9", String.valueOf(rank1)).start().waitFor();
        assertThat(srun.waitFor(2, TimeUnit.MINUTES)).as("srun ended").isTrue();
        double seconds = (System.nanoTime() - killed) / 1e9;

        JsonNode run = new ObjectMapper().readTree(out.resolve("killed/01-create_files-t2.json").toFile());
        assertThat(run.at("/failure/message").asText()).as(run.toString()).contains("rank 1 on n2");
        assertThat(run.at("/repetitions/0/ranks/1/hostname").asText()).isEqualTo("n2");
        assertThat(run.at("/nodes/n1/0").asInt()).isZero();
        assertThat(run.at("/nodes/n2/0").asInt()).isEqualTo(1);
        // the survivor stopped before its next operation, not at the end of its 3,000,000 files
        assertThat(run.at("/measurements/create/count").asLong()).isPositive().isLessThan(3_000_000);
        assertThat(seconds).as("from the kill to srun's end").isLessThan(30);
    }

    @Test
    void whenANodesNetworkGoesDown_bothSidesNoticeTheSilence_andTheRunFailsNamingTheNode(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        Process srun = longRunAcrossBothNodes(work, target, "150s", "unreachable");
        long rank1 = javaIn("prism-n2");
        long cut = System.nanoTime();
        // n2 drops off the network: no connection is reset, the other side just hears nothing more
        new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "down").start().waitFor();
        try {
            // rank 0 gives up on rank 1 after its silence and writes the result
            Path results = out.resolve("unreachable/01-create_files-t2.json");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(results) && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            double rank0Seconds = (System.nanoTime() - cut) / 1e9;
            // rank 1, alone on n2, notices the coordinator's silence, stops and removes its own directory (which may
            // take a while: it holds every file it created)
            assertThat(ProcessHandle.of(rank1).map(h -> h.onExit().orTimeout(90, TimeUnit.SECONDS).join()))
                    .as("rank 1 on n2 ended").isPresent();
            double rank1Seconds = (System.nanoTime() - cut) / 1e9;
            assertThat(results).as(Files.readString(work.resolve("stderr.txt"))).exists();
            System.out.printf("link down on n2: rank 1 ended %.1f s after the cut, rank 0's result was written after %.1f s%n",
                    rank1Seconds, rank0Seconds);
            JsonNode run = new ObjectMapper().readTree(results.toFile());
            assertThat(run.at("/failure/message").asText()).as("after %.1f s", rank0Seconds)
                    .contains("rank 1 on n2 has not been heard from for")
                    .contains("its node or its network is down");
            assertThat(run.at("/measurements/create/count").asLong()).isPositive().isLessThan(3_000_000);
            // 15 s of silence, then the next look: well before the run's 150 s timeout
            assertThat(rank0Seconds).as("rank 0's result after the cut").isBetween(14.0, 40.0);
            assertThat(rank1Seconds).as("rank 1's end after the cut").isBetween(14.0, 90.0);
        } finally {
            new ProcessBuilder("ip", "-n", "prism-n2", "link", "set", "pn2", "up").start().waitFor();
            srun.waitFor(2, TimeUnit.MINUTES);
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    /**
     * Starts rank 0 on n1 and rank 1 on n2 creating up to 3,000,000 files each, and returns once they are in their
     * timed phase (files appear in the target).
     */
    private static Process longRunAcrossBothNodes(Path work, Path target, String timeout, String runId) throws Exception {
        List<String> command = new ArrayList<>(List.of("srun", "--time=5", "-N2", "-n2", "-m", "arbitrary", "-w", "n1,n2",
                SCRIPT.toString(), "run", "create_files", "-p", "files=3000000", "--target", target.toString(),
                "--launcher", "slurm", "--timeout", timeout, "--out", work.resolve("out").toString(), "--run-id", runId, "-q"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(work.resolve("stdout.txt").toFile())
                .redirectError(work.resolve("stderr.txt").toFile());
        pb.environment().put("SLURM_CONF", CONF);
        Process srun = pb.start();
        Targets.awaitFiles(target);
        return srun;
    }

    /** @return the PRISM JVM running inside network namespace {@code namespace} (a node's rank) */
    private static long javaIn(String namespace) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            Process pids = new ProcessBuilder("ip", "netns", "pids", namespace).start();
            String text = new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            pids.waitFor();
            for (String pid : text.split("\\s+")) {
                if (!pid.isBlank() && ProcessHandle.of(Long.parseLong(pid)).flatMap(h -> h.info().commandLine())
                        .orElse("").contains("-Dprism.script=")) {
                    return Long.parseLong(pid);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no PRISM rank runs in " + namespace);
    }
}
