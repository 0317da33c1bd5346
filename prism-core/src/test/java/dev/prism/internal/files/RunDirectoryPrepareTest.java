package dev.prism.internal.files;

import dev.prism.PrismException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Emptying the run directory between repetitions enters only the directory this run made. Another user who may write
 * the target can move any entry of it — another directory of root's, such as a dataset root made there — into the
 * run directory's place after the check by name: it must be neither emptied nor written to.
 */
class RunDirectoryPrepareTest {
    @Test
    void theRunDirectoryIsMarkedAsItsRuns_keepsTheMarkBetweenRepetitions_andGoesWhenEmptyButForIt(@TempDir Path target)
            throws Exception {
        Path runDirectory = RunDirectory.create(target, "marked");
        Path mark = runDirectory.resolve(dev.prism.spi.HeldDirectory.RUN_MARK);
        assertThat(mark).hasContent("marked\n");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(mark)))
                .isEqualTo("rw-------");
        Files.writeString(runDirectory.resolve("left-by-a-repetition"), "x");
        assertThat(RunDirectory.prepare(runDirectory, RunDirectory.identity(runDirectory, "marked"), "marked", 1, false)).isNull();
        assertThat(mark).hasContent("marked\n");
        assertThat(runDirectory.resolve("left-by-a-repetition")).doesNotExist();

        Files.delete(runDirectory.resolve("rank-0"));
        Files.delete(runDirectory.resolve("shared"));
        RunDirectory.removeIfEmpty(runDirectory);
        assertThat(runDirectory).doesNotExist();
    }

    @Test
    void theCleanUpEntersOnlyTheDirectoryThisRunMade(@TempDir Path target) throws Exception {
        Path runDirectory = RunDirectory.create(target, "clean");
        Object identity = RunDirectory.identity(runDirectory, "clean");
        Path other = Files.createDirectory(target.resolve("dataset"));
        Files.writeString(other.resolve("sample-0.bin"), "keep me");
        Files.move(runDirectory, target.resolve("moved-aside"));
        Files.move(other, runDirectory);

        RunDirectory.Removal removal = RunDirectory.removalOf(runDirectory).expect(runDirectory, identity);
        RunDirectory.remove(runDirectory, removal);
        assertThat(removal.complete()).isFalse();
        assertThat(removal.summary()).contains(runDirectory.toString()).contains("another directory than the one this run made");
        assertThat(runDirectory.resolve("sample-0.bin")).hasContent("keep me");
    }

    /** What the supervisor removes after a killed run: the run's directory, and never another put in its place. */
    @Test
    void aKilledRunsDirectory_isRemovedOnlyWhenItIsThatRuns(@TempDir Path target) throws Exception {
        Path runDirectory = RunDirectory.create(target, "killed");
        Files.writeString(Files.createDirectories(runDirectory.resolve("rank-0")).resolve("f"), "x");
        Path other = RunDirectory.create(target, "other");
        Files.writeString(other.resolve("result"), "keep me");
        Files.move(runDirectory, target.resolve("moved-aside"));
        Files.move(other, runDirectory);

        dev.prism.DirectoryRemoval refused = dev.prism.DirectoryRemoval.ofRun(runDirectory, "killed");
        assertThat(refused.complete()).isFalse();
        assertThat(refused.summary()).contains(runDirectory.toString()).contains("is marked as run other's, not run killed's");
        assertThat(runDirectory.resolve("result")).hasContent("keep me");

        // the run's own directory, where it is now, goes whole
        dev.prism.DirectoryRemoval removed = dev.prism.DirectoryRemoval.ofRun(target.resolve("moved-aside"), "killed");
        assertThat(removed.complete()).as(removed.summary()).isTrue();
        assertThat(target.resolve("moved-aside")).doesNotExist();
    }

    @Test
    void anotherDirectoryOfOursInTheRunDirectorysPlace_isNeitherEmptiedNorWrittenTo(@TempDir Path target) throws Exception {
        Path runDirectory = RunDirectory.create(target, "prepare");
        Object identity = RunDirectory.identity(runDirectory, "prepare");
        assertThat(RunDirectory.prepare(runDirectory, identity, "prepare", 2, false)).as("what could not be removed").isNull();
        assertThat(runDirectory.resolve("rank-1")).isDirectory();

        // a directory of this user's elsewhere in the target, holding what must survive, moved into the run's place
        Path other = Files.createDirectory(target.resolve("dataset"));
        Files.writeString(other.resolve("sample-0.bin"), "keep me");
        Files.move(runDirectory, target.resolve("moved-aside"));
        Files.move(other, runDirectory);

        assertThatThrownBy(() -> RunDirectory.prepare(runDirectory, identity, "prepare", 2, false)).isInstanceOf(PrismException.class)
                .hasMessageContaining("run directory " + runDirectory + " is no longer the directory this run made");
        assertThat(runDirectory.resolve("sample-0.bin")).hasContent("keep me");
        try (var entries = Files.list(runDirectory)) {
            assertThat(entries).as("nothing made there").containsExactly(runDirectory.resolve("sample-0.bin"));
        }
    }
}
