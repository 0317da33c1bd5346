package dev.prism.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program stopped at its timeout never leaves a process behind: not when it is killed after its grace, and not when
 * it obeys SIGTERM at once but leaves a child of its own running (as a torchrun that ends before a stuck worker would).
 */
class ChildProcessTest {
    @Test
    void aProgramThatEndsWithinItsGrace_leavingAChildRunning_hasThatChildKilledToo(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("child.pid");
        // the child ignores SIGTERM; the program exits at SIGTERM without waiting for it
        String script = "(trap '' TERM; exec sleep 300) & echo $! > '" + pidFile + "'; trap 'exit 0' TERM;"
                + " while :; do sleep 0.05; done";
        ChildProcess.Result r = ChildProcess.of(List.of("/bin/sh", "-c", script)).timeout(Duration.ofSeconds(1))
                .terminateGrace(Duration.ofSeconds(30)).run();

        assertThat(r.timedOut()).isTrue();
        long child = Long.parseLong(Files.readString(pidFile).strip());
        // run() returns only once what it killed is gone (a zombie its new parent has yet to reap is gone too)
        assertThat(ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true) || stateOf(child).equals("Z"))
                .as("the program's child %d is gone", child).isTrue();
    }

    /** @return the state letter of process {@code pid} in /proc, or "gone" */
    private static String stateOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (java.io.IOException e) {
            return "gone";
        }
    }
}
