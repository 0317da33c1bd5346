package dev.prism.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A program PRISM starts reaches a held directory through {@link HeldDirectory#childPath()}, whatever its name is now. */
class HeldDirectoryChildTest {

    @Test
    void aChildWorkingInTheChildPath_writesIntoTheHeldDirectory_afterItWasRenamedAndLinkedAway(@TempDir Path dir)
            throws IOException, InterruptedException {
        Path run = Files.createDirectory(dir.resolve("run"));
        Path victim = Files.createDirectory(dir.resolve("victim"));
        try (HeldDirectory held = HeldDirectory.open(run)) {
            Files.move(run, dir.resolve("moved"));
            Files.createSymbolicLink(run, victim);
            // ProcessBuilder closes the child's descriptors before its chdir: /proc/self would name the child's own
            Process touch = new ProcessBuilder("touch", "made-here", held.childPath().resolve("made-by-path").toString())
                    .directory(held.childPath().toFile()).inheritIO().start();
            assertThat(touch.waitFor()).as("touch's exit code").isZero();
        }
        assertThat(dir.resolve("moved/made-here")).as("made in its working directory").isRegularFile();
        assertThat(dir.resolve("moved/made-by-path")).as("made through the path").isRegularFile();
        try (Stream<Path> inVictim = Files.list(victim)) {
            assertThat(inVictim).as("made where the link points").isEmpty();
        }
    }
}
