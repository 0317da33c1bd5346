package dev.prism.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observer of rank start-up: {@code n} rank JVMs started side by side as the processes launcher starts them, each
 * told to exit as soon as its main method runs ({@code prism.fault.exitAtStart}). A bound on a run whose ranks start
 * (or die starting) adds what this takes on the host now, instead of a constant that fits one machine.
 *
 * <pre>{@code
 * double seconds = dev.prism.testing.RankJvms.startingSeconds(2);
 * }</pre>
 */
public final class RankJvms {
    private RankJvms() {
    }

    /** @return seconds until the last of {@code n} rank JVMs, started together, has exited */
    public static double startingSeconds(int n) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long start = System.nanoTime();
        List<Process> jvms = new ArrayList<>();
        for (int rank = 0; rank < n; rank++) {
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(dev.prism.internal.launch.ProcessLauncher.rankJvmOptions());
            command.addAll(List.of("-Dprism.fault.exitAtStart=" + rank, "-cp", System.getProperty("java.class.path"),
                    dev.prism.internal.rank.RankWorker.class.getName(), "127.0.0.1", "1", String.valueOf(rank)));
            jvms.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
        for (Process p : jvms) {
            assertThat(p.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("a rank JVM told to exit at start-up ended").isTrue();
            assertThat(p.exitValue()).as("its exit code (prism.fault.exitAtStart)").isEqualTo(7);
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
