package dev.prism.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The simulated N-node SLURM cluster of {@code scripts/slurm-up.sh --nodes N} for the multi-node tests: each node a
 * network and UTS namespace of this machine with its own slurmd, under its own SLURM_CONF beside the one-node SLURM.
 * Needs root; without it a test class is skipped, unless PRISM_REQUIRE_SLURM=1 (as scripts/test.sh sets).
 */
final class SimulatedCluster {
    static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();
    static final String CONF = "/etc/slurm-prism-nodes/slurm.conf";
    private static final Path SCRIPTS = SCRIPT.getParent().resolve("scripts");

    private SimulatedCluster() {
    }

    /** Starts a cluster of {@code nodes} nodes (n1…nN), or skips (fails, where required) the calling test class. */
    static void start(int nodes) throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        String said = root ? script("slurm-up.sh", "--nodes", String.valueOf(nodes)) : "not root";
        dev.prism.testing.Required.require(said.contains(nodes + " nodes up"), "PRISM_REQUIRE_SLURM",
                "no simulated " + nodes + "-node SLURM (scripts/slurm-up.sh --nodes " + nodes + " needs root): " + said);
    }

    /** Removes the cluster, namespaces and daemons included. */
    static void stop() throws IOException, InterruptedException {
        if ("root".equals(System.getProperty("user.name"))) {
            script("slurm-down.sh", "--nodes");
        }
    }

    /** Waits until SLURM has {@code node} back in service (idle in sinfo, resumed while it is not), for the next test. */
    static void awaitIdle(String node) {
        dev.prism.testing.Await.until(node + " is back in service (idle in sinfo)", java.time.Duration.ofMinutes(2), () -> {
            ProcessBuilder sinfo = new ProcessBuilder("sinfo", "-h", "-n", node, "-o", "%t");
            sinfo.environment().put("SLURM_CONF", CONF);
            Process p = sinfo.start();
            String state = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            p.waitFor();
            if (!state.equals("idle")) {
                ProcessBuilder resume = new ProcessBuilder("scontrol", "update", "nodename=" + node, "state=resume");
                resume.environment().put("SLURM_CONF", CONF);
                resume.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
            }
            return state.equals("idle");
        });
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
}
