package dev.prism.spi;

import dev.prism.internal.files.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

class AtomicFilesTest {
    @Test
    void write_replacesTheWholeFileAndLeavesNoTemporaryBehind(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("run.json");
        Files.writeString(file, "old content that is longer than the new one");
        AtomicFiles.write(file, "{}".getBytes());
        assertThat(file).hasContent("{}");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
    }

    @Test
    void deleteTree_removesLinksWithoutFollowingThem(@TempDir Path dir, @TempDir Path outside) throws IOException {
        Path kept = Files.writeString(outside.resolve("kept"), "x");
        Path tree = Files.createDirectories(dir.resolve("run/a/b"));
        Files.createSymbolicLink(tree.resolve("dir-link"), outside);
        Files.createSymbolicLink(tree.resolve("dangling"), dir.resolve("nowhere"));
        RunDirectory.deleteTree(dir.resolve("run"));
        assertThat(dir.resolve("run")).doesNotExist();
        assertThat(kept).exists();
    }

    @Test
    void deleteContents_refusesARunDirectoryReplacedByALink(@TempDir Path dir, @TempDir Path outside) throws IOException {
        Path kept = Files.writeString(outside.resolve("kept"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("prism-x"), outside);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunDirectory.deleteContents(link))
                .hasMessageContaining("no longer a real directory");
        assertThat(kept).exists();
    }
}
