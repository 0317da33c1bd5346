package dev.prism.posix;

import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.DataSize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 55's finding "the run directory renamed during a repetition: root created 59,551 files elsewhere": another
 * user who may write the target renames the run directory away while create_files creates its files, and puts a link
 * in its place to a directory of their choosing that has a {@code rank-0} of its own. The rank holds the run directory
 * by descriptor and creates relative to it, so nothing lands in the victim's directory and every file lands in the
 * directory the run made, now under its new name. The same through Python ({@code access=python}: the worker starts in
 * the held directory and reaches the files relative to it) and for the programs a benchmark starts: git clones through
 * {@code /proc/<pid>/fd/N/…} of the held run directory.
 */
class RunDirectorySwapTest {
    private static final int FILES = 20_000;

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Access.class, names = {"NATIVE", "PYTHON"})
    void createFiles_runDirectoryRenamedAndLinkedAway_nothingLandsInTheLinkedDirectory(Access access, @TempDir Path scratch)
            throws Exception {
        Path target = Files.createDirectory(scratch.resolve("target"));
        Path victim = Files.createDirectory(scratch.resolve("victim"));
        Path victimRank = Files.createDirectory(victim.resolve("rank-0"));
        Path moved = scratch.resolve("target").resolve("moved-away");
        AtomicReference<Object> swap = new AtomicReference<>();
        Thread neighbour = new Thread(() -> {
            try {
                swap.set(swapOnceFilesAppear(target, moved, victim));
            } catch (Throwable t) {
                swap.set(t);
            }
        }, "neighbour");
        neighbour.setDaemon(true);
        neighbour.start();

        ScenarioResult result = Scenario.builder().target(target)
                .benchmark(PosixBenchmarks.createFiles().files(FILES).fileSize(DataSize.ofBytes(1)).access(access))
                .tasks(1).repetitions(1).build().execute();
        neighbour.join();
        assertThat(swap.get()).as("the neighbour's swap").isInstanceOf(Path.class);
        Path runDirectory = (Path) swap.get();

        try (Stream<Path> inVictim = Files.list(victimRank)) {
            assertThat(inVictim).as("created in the directory the link points to").isEmpty();
        }
        try (Stream<Path> inVictim = Files.list(victim)) {
            assertThat(inVictim).as("made in the directory the link points to").containsExactly(victimRank);
        }
        RunResult run = result.runs().get(0);
        if (run.passed()) {
            try (Stream<Path> made = Files.list(moved.resolve("rank-0"))) {
                assertThat(made.count()).as("files in the run's own directory, renamed").isEqualTo(FILES);
            }
            assertThat(result.cleanup()).as("clean-up").contains(runDirectory.toString()).contains("no longer the directory");
        } else {
            assertThat(String.valueOf(run.failure())).as("a failed run names the swap").contains(runDirectory.toString());
        }
    }

    /**
     * git between two clones: a wrapper (given as {@code git=}) holds the second clone until the neighbour has swapped
     * the run directory for a link, then runs the real git. On the old code the second clone went through the link.
     */
    @Test
    void gitClone_runDirectoryRenamedAndLinkedAwayBetweenClones_noCloneLandsInTheLinkedDirectory(@TempDir Path scratch)
            throws Exception {
        int clones = 3;
        Path target = Files.createDirectory(scratch.resolve("target"));
        Path victim = Files.createDirectory(scratch.resolve("victim"));
        Path victimRank = Files.createDirectory(victim.resolve("rank-0"));
        Path moved = scratch.resolve("target").resolve("moved-away");
        Path waiting = scratch.resolve("second-clone-waiting");
        Path gate = scratch.resolve("second-clone-may-go");
        Path git = dev.prism.testing.GatedSwap.holdingProgram(scratch.resolve("git"), "*clone-1", "/usr/bin/git", waiting,
                gate);
        dev.prism.testing.GatedSwap neighbour = dev.prism.testing.GatedSwap.start(target, moved, victim, waiting, gate);

        ScenarioResult result = Scenario.builder().target(target)
                .benchmark(dev.prism.posix.workflows.DevWorkflows.gitClone()
                        .with(dev.prism.posix.workflows.DevWorkflows.GIT, git.toString())
                        .with(dev.prism.posix.workflows.DevWorkflows.REPO_FILES, 40)
                        .with(dev.prism.posix.workflows.DevWorkflows.COMMITS, 2)
                        .with(dev.prism.posix.workflows.DevWorkflows.CLONES, clones))
                .tasks(1).repetitions(1).build().execute();
        neighbour.swapped();
        try (Stream<Path> inVictim = Files.list(victimRank)) {
            assertThat(inVictim).as("cloned into the directory the link points to").isEmpty();
        }
        try (Stream<Path> inVictim = Files.list(victim)) {
            assertThat(inVictim).as("made in the directory the link points to").containsExactly(victimRank);
        }
        RunResult run = result.runs().get(0);
        assertThat(run.passed()).as("git_clone passed: %s", run.failure()).isTrue();
        try (Stream<Path> made = Files.list(moved.resolve("rank-0"))) {
            assertThat(made.map(p -> p.getFileName().toString())).as("clones in the run's own directory, renamed")
                    .containsExactlyInAnyOrder("clone-0", "clone-1", "clone-2");
        }
    }

    /**
     * env_create between two environments: a wrapper (given as {@code python=}) holds the second environment's
     * {@code python -m venv} until the neighbour has swapped the run directory for a link, then runs the real Python.
     * On the old code the second environment was made, and its packages installed, through the link.
     */
    @Test
    void envCreate_runDirectoryRenamedAndLinkedAwayBetweenEnvironments_noEnvironmentLandsInTheLinkedDirectory(
            @TempDir Path scratch) throws Exception {
        Path target = Files.createDirectory(scratch.resolve("target"));
        Path victim = Files.createDirectory(scratch.resolve("victim"));
        Path victimRank = Files.createDirectory(victim.resolve("rank-0"));
        Files.createDirectories(victim.resolve("shared").resolve("wheels"));
        Path moved = scratch.resolve("target").resolve("moved-away");
        Path waiting = scratch.resolve("second-environment-waiting");
        Path gate = scratch.resolve("second-environment-may-go");
        Path python = dev.prism.testing.GatedSwap.holdingProgram(scratch.resolve("python3"), "*' venv '*env-1",
                "/usr/bin/python3", waiting, gate);
        dev.prism.testing.GatedSwap neighbour = dev.prism.testing.GatedSwap.start(target, moved, victim, waiting, gate);

        ScenarioResult result = Scenario.builder().target(target)
                .benchmark(dev.prism.posix.workflows.DevWorkflows.envCreate()
                        .with(dev.prism.posix.workflows.DevWorkflows.TOOL, dev.prism.posix.workflows.DevWorkflows.EnvTool.VENV)
                        .with(dev.prism.posix.workflows.DevWorkflows.PYTHON, python.toString())
                        .with(dev.prism.posix.workflows.DevWorkflows.PACKAGES, 2)
                        .with(dev.prism.posix.workflows.DevWorkflows.MODULES, 3)
                        .with(dev.prism.posix.workflows.DevWorkflows.ENVIRONMENTS, 2))
                .tasks(1).repetitions(1).build().execute();
        neighbour.swapped();
        try (Stream<Path> inVictim = Files.list(victimRank)) {
            assertThat(inVictim).as("made in the directory the link points to").isEmpty();
        }
        RunResult run = result.runs().get(0);
        assertThat(run.passed()).as("env_create passed: %s", run.failure()).isTrue();
        assertThat(run.measurement("install").count()).isEqualTo(2);
        assertThat(moved.resolve("rank-0").resolve("env-1").resolve("pyvenv.cfg")).as("the second environment, in the"
                + " run's own directory, renamed").isRegularFile();
    }

    /**
     * Waits until the run directory's {@code rank-0} holds the timed phase's {@code file-1000.dat} (the rehearsal's
     * scratch files came and went before it; a swap then would only fail the repetition), then renames the run
     * directory to {@code moved} and puts a link to {@code victim} in its place.
     *
     * @return the run directory's path, now the link
     */
    private static Path swapOnceFilesAppear(Path target, Path moved, Path victim) throws IOException {
        while (true) {
            for (Path runDirectory : list(target)) {
                if (!runDirectory.getFileName().toString().startsWith("prism-")) {
                    continue;
                }
                if (Files.exists(runDirectory.resolve("rank-0").resolve("file-1000.dat"),
                        java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(runDirectory, moved);
                    Files.createSymbolicLink(runDirectory, victim);
                    return runDirectory;
                }
            }
            Thread.onSpinWait();
        }
    }

    private static List<Path> list(Path directory) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            List<Path> all = new java.util.ArrayList<>();
            for (Path entry : entries) {
                all.add(entry);
                break; // one is enough to know it is not empty
            }
            return all;
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }
}
