package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.RankProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/stop-tree.sh}, the exit trap of {@code scripts/test.sh}: every process below the given one is stopped,
 * grandchildren whose parent ends first included (they are re-parented to init the moment it does), one that ignores
 * SIGTERM by SIGKILL after the grace, and the given process itself is left alone. The observer is the process handle
 * taken while each ran (the JDK tells a reused pid by its start time), ended when gone or a zombie.
 */
class StopTreeScriptTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "stop-tree.sh").toAbsolutePath().normalize();

    @Test
    void everyProcessBelow_isStopped_theDeafOneKilledAfterTheGrace_andTheRootLeftRunning(@TempDir Path work)
            throws Exception {
        Path hogPid = work.resolve("hog.pid");
        Path deafPid = work.resolve("deaf.pid");
        // root -> sh (ends on SIGTERM at once) -> yes, as mvn -> a test JVM -> the CPU hog a test started; and a
        // child that ignores SIGTERM, as a process stuck in an uninterruptible call would not end on it either
        String tree = "sh -c 'yes >/dev/null & echo $! > " + hogPid + "; wait' &\n"
                + "sh -c 'trap \"\" TERM; echo $$ > " + deafPid + "; while :; do sleep 1; done' &\n"
                + "wait\n"
                + "read -r line\n"; // the root outlives its children: it waits on its stdin, which stays open
        Process root = new ProcessBuilder("bash", "-c", tree).start();
        try {
            // handles taken while they run: each is that process, not whatever reuses its pid later
            ProcessHandle hog = ProcessHandle.of(Await.value("the hog's pid", () -> pid(hogPid))).orElseThrow();
            ProcessHandle deaf = ProcessHandle.of(Await.value("the deaf child's pid", () -> pid(deafPid))).orElseThrow();

            Process stop = new ProcessBuilder(SCRIPT.toString(), String.valueOf(root.pid()), "1")
                    .redirectErrorStream(true).start();
            String out = new String(stop.getInputStream().readAllBytes());
            assertThat(stop.waitFor(60, TimeUnit.SECONDS)).as("stop-tree.sh ended").isTrue();
            assertThat(stop.exitValue()).as(out).isZero();

            // the script returns once each listed process is gone or was sent SIGKILL; the kernel ends it promptly
            Await.until("the hog is gone", () -> RankProcesses.ended(hog));
            Await.until("the child that ignores SIGTERM is gone", () -> RankProcesses.ended(deaf));
            assertThat(root.isAlive()).as("the root itself is left alone").isTrue();
        } finally {
            root.destroyForcibly().waitFor();
        }
    }

    @Test
    void aProcessWithNothingBelowIt_isLeftAlone(@TempDir Path work) throws Exception {
        Process lone = new ProcessBuilder("sleep", "600").start();
        try {
            Process stop = new ProcessBuilder(SCRIPT.toString(), String.valueOf(lone.pid())).redirectErrorStream(true).start();
            assertThat(stop.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(stop.exitValue()).isZero();
            assertThat(lone.isAlive()).isTrue();
        } finally {
            lone.destroyForcibly().waitFor();
        }
    }

    private static Optional<Long> pid(Path file) throws IOException {
        String text = Files.exists(file) ? Files.readString(file).trim() : "";
        return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
    }
}
