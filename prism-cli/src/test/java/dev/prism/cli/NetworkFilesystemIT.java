package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.Sshfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PRISM's main job against a real network filesystem: the quick suite on sshfs over loopback, by the real ./prism, at
 * 2 tasks (about 1.5 minutes here; both task counts take about 3).
 */
class NetworkFilesystemIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();

    @TempDir
    Path work;

    @Test
    void theQuickSuite_passesOnSshfs_andLeavesTheTargetEmpty() throws Exception {
        try (Sshfs fs = Sshfs.mount(work.resolve("fs"))) {
            // at 2 tasks, where ranks share files (link_lock's cache, open_contention's file): 1 task runs the same code
            Process prism = new ProcessBuilder(SCRIPT.toString(), "suite", "quick", "--tasks", "2", "--target", fs.mountPoint().toString(),
                    "--out", work.resolve("results").toString(), "-q").directory(work.toFile())
                    .redirectOutput(work.resolve("out.txt").toFile()).redirectError(work.resolve("err.txt").toFile()).start();
            assertThat(prism.waitFor(Await.PATIENCE.toSeconds() * 5, TimeUnit.SECONDS)).as("the suite finished").isTrue();
            String out = Files.readString(work.resolve("out.txt"));
            String err = Files.readString(work.resolve("err.txt"));
            assertThat(prism.exitValue()).as(err).isZero();
            assertThat(out).contains("fuse.sshfs").contains("link_lock").contains("inode_numbers=").doesNotContain("FAIL");
            try (Stream<Path> left = Files.list(fs.source())) {
                assertThat(left).isEmpty();
            }
        }
    }
}
