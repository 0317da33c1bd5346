package dev.prism.internal.rank;

import dev.prism.PrismException;
import dev.prism.ScenarioListener;
import dev.prism.internal.coordination.RankBarrier;
import dev.prism.internal.files.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A rank holds the run directory only when it is its run's: another of root's directories moved into its place after
 * the driver's check (another run's directory, a dataset root made in the target) is refused before anything is made
 * there, named, and left as it was.
 */
class RankRunDirectoryTest {
    private static RankContext rankOf(Path runDirectory, String runId, StallMonitor monitor) {
        RankContext ctx = new RankContext(0, 1, runDirectory.resolve("rank-0"), runDirectory.resolve("shared"), 1,
                dev.prism.Parameters.none(), new RankBarrier(1, java.time.Instant.now().plusSeconds(60)), 1_000_000_000L,
                monitor);
        ctx.runId(runId);
        return ctx;
    }

    @Test
    void anotherRunsDirectoryInTheRunDirectorysPlace_isRefusedBeforeAnythingIsMadeThere(@TempDir Path target) throws Exception {
        Path ours = RunDirectory.create(target, "ours");
        Path theirs = RunDirectory.create(target, "theirs");
        try (StallMonitor monitor = new StallMonitor(1_000_000_000L, ScenarioListener.NONE)) {
            RankContext ctx = rankOf(ours, "ours", monitor);
            ctx.holdDirectories();
            assertThat(ctx.heldWorkDirectory()).isNotNull();
            ctx.releaseDirectories();

            // what someone who may write the target does between the driver's check and the rank's open
            Files.move(ours, target.resolve("moved-aside"));
            Files.move(theirs, ours);
            assertThatThrownBy(ctx::holdDirectories).isInstanceOf(PrismException.class)
                    .hasMessageContaining("run directory " + ours)
                    .hasMessageContaining("is marked as run theirs's, not run ours's");
            try (var entries = Files.list(ours)) {
                assertThat(entries).as("nothing made in the other run's directory")
                        .containsExactly(ours.resolve(dev.prism.spi.HeldDirectory.RUN_MARK));
            }
        }
    }
}
