package dev.prism.cli;

import dev.prism.testing.HostDelay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real signals to the real {@code ./prism}: SIGTERM (scancel, a SLURM time limit) and SIGINT
 * (Ctrl-C, sent to the whole process group as a terminal does) stop the ranks, keep and print what
 * they measured marked INTERRUPTED, clean the target and exit 143 or 130; a second signal exits at once.
 */
@org.junit.jupiter.api.Tag("timing")
class SignalsIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();
    // a new session (its own process group) with SIGINT at its default: a shell's background job has it ignored
    private static final String SESSION = "import os, signal, sys; os.setsid(); signal.signal(signal.SIGINT, signal.SIG_DFL);"
            + " os.execvp(sys.argv[1], sys.argv[1:])";

    /**
     * The wake-ups between the signal and the test's seeing the exit (the supervisor relaying it, the run stopping its
     * ranks, each process exiting and being reaped): a loaded host may delay each by as much as the longest delay
     * {@link dev.prism.testing.SchedulingDelay} saw, which the bounds add to the guarantees' figures.
     */
    @RegisterExtension
    final HostDelay host = new HostDelay(5);

    @TempDir
    Path work;

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("python3", "-c", SESSION, SCRIPT.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(work.toFile())
                .redirectOutput(work.resolve("out.txt").toFile()).redirectError(work.resolve("err.txt").toFile()).start();
    }

    private Path target() throws IOException {
        return Files.createDirectories(work.resolve("target"));
    }

    @Test
    void sigterm_stopsTheRanks_printsWhatWasMeasured_cleansUp_andExits143() throws Exception {
        Path target = target();
        Process prism = start("run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--launcher", "processes", "--tasks", "2", "--out", work.resolve("results").toString());
        Targets.awaitFiles(target, prism, work.resolve("err.txt"));
        long signalled = System.nanoTime();
        new ProcessBuilder("kill", "-TERM", String.valueOf(prism.pid())).start().waitFor();
        assertThat(prism.waitFor(30, TimeUnit.SECONDS)).isTrue();
        double seconds = (System.nanoTime() - signalled) / 1e9;

        String out = Files.readString(work.resolve("out.txt"));
        String err = Files.readString(work.resolve("err.txt"));
        assertThat(prism.exitValue()).as(err).isEqualTo(143);
        // guarantees: clean-up within the signal's grace (10 s), then the result written and the processes gone (1 s)
        assertThat(seconds).isLessThan(10 + 1 + host.allowanceSeconds());
        assertThat(out).contains("create").contains("FAIL INTERRUPTED: interrupted by SIGTERM during repetition 1");
        assertThat(err).contains("prism: SIGTERM: stopping the ranks");
        try (Stream<Path> docs = Files.walk(work.resolve("results"))) {
            assertThat(docs.filter(p -> p.getFileName().toString().equals("01-create_files-t2.json"))).hasSize(1);
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
        assertThat(ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(target.toString())))
                .isEmpty();
    }

    @Test
    void ctrlC_toTheProcessGroup_exits130_withResults_andASecondSignalExitsAtOnce() throws Exception {
        Path target = target();
        Process prism = start("run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--tasks", "2", "--out", work.resolve("results").toString());
        Targets.awaitFiles(target, prism, work.resolve("err.txt"));
        new ProcessBuilder("kill", "-INT", "--", "-" + prism.pid()).start().waitFor(); // the group, as a terminal does
        assertThat(prism.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(prism.exitValue()).as(Files.readString(work.resolve("err.txt"))).isEqualTo(130);
        assertThat(Files.readString(work.resolve("out.txt"))).contains("FAIL INTERRUPTED: interrupted by SIGINT");

        // a second signal while the first is handled: out at once, with the shell's code for that signal
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
        Path second = Files.createDirectories(work.resolve("target2"));
        Process again = start("run", "create_files", "--target", second.toString(), "-p", "files=3000000",
                "--tasks", "2", "--out", work.resolve("results").toString());
        Targets.awaitFiles(second, again, work.resolve("err.txt"));
        // the directory the supervisor made for the run (its path is in the run process's environment)
        Path scratch = Targets.supervisorScratch(again);
        new ProcessBuilder("kill", "-TERM", String.valueOf(again.pid())).start().waitFor();
        new ProcessBuilder("kill", "-TERM", String.valueOf(again.pid())).start().waitFor();
        long signalled = System.nanoTime();
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isEqualTo(143);
        // at once: the supervisor's exit, not another grace
        assertThat((System.nanoTime() - signalled) / 1e9).isLessThan(2 + host.allowanceSeconds());
        assertThat(scratch).as("the supervisor's directory, removed before it exits at once").doesNotExist();
    }
}
