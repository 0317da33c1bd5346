package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target others may write (mode 0777, not sticky, as a project directory shared by a group often is) lets another
 * user rename the run directory and put a link in its place; root would then write and clean up through it (issue 38,
 * item 2). The scenario says so at its start, and a run directory swapped between repetitions is never written or
 * removed again: the next repetition fails naming what it is now, and the clean-up leaves it alone. The swap is made
 * by the test at the start of the second repetition, before that repetition touches the directory.
 */
class SwappedRunDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void aRunDirectorySwappedForALinkBetweenRepetitions_isNeverWrittenOrCleanedThroughIt_andTheTargetsExposureIsSaid()
            throws Exception {
        Path target = Files.createDirectory(dir.resolve("target"));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path runDirectory = target.resolve("prism-swap");
        List<String> warnings = new CopyOnWriteArrayList<>();
        ScenarioListener swapper = new ScenarioListener() {
            @Override
            public void targetExposed(String description) {
                warnings.add(description);
            }

            @Override
            public void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
                if (!warmup && repetition == 1) {
                    try {
                        // what another user who may write the target does: our directory aside, a link in its place
                        Files.move(runDirectory, target.resolve("moved-aside"));
                        Files.createSymbolicLink(runDirectory, elsewhere);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
        };
        Benchmark touch = Benchmark.builder("touch").run(ctx -> {
            for (int i = 0; i < 20; i++) {
                Path f = ctx.workDirectory().resolve("f" + i);
                try (var t = ctx.time("create", f)) {
                    Files.createFile(f);
                }
            }
        }).build();
        ScenarioResult result = Scenario.builder().target(target).runId("swap").benchmark(touch).tasks(1).repetitions(3)
                .warmups(0).listener(swapper).build().execute();

        assertThat(warnings).singleElement().asString().contains("target " + target)
                .contains("may be written by others (mode rwxrwxrwx, not sticky)").contains("chmod +t");
        RunResult run = result.runs().get(0);
        assertThat(run.repetitions().get(0).status()).isEqualTo(Status.PASS);
        assertThat(run.repetitions().get(1).failure().message())
                .contains("run directory " + runDirectory + " is no longer the directory this run made: it is now a link to "
                        + elsewhere);
        // nothing was written or removed through the link, and the link itself was left for the user to see
        try (Stream<Path> there = Files.list(elsewhere)) {
            assertThat(there).isEmpty();
        }
        assertThat(Files.isSymbolicLink(runDirectory)).isTrue();
        assertThat(result.cleanup()).contains("is no longer the directory this run made");
    }
}
