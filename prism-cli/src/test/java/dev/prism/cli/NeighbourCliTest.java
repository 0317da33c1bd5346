package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.Neighbour;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Root's real {@code prism} commands (as the prism command builds and runs them, in this JVM; rank JVMs of their own
 * under {@code --launcher processes}) while a neighbour — another unprivileged user — races them in a group project
 * directory both may write (issue 55, item 8): the moment inotify reports a name root made there, the neighbour renames
 * a link to a root-only file over it (a link to a root-only directory over a directory, moved aside first), or a FIFO;
 * and it flips the result documents root is asked to read with a FIFO and a link. Each test holds that the root-only
 * file's content, mode and owner are unchanged and nothing was made in the root-only directory, that no root-only byte
 * or digest reached any output, that the command ended, with exit 0, 1 or 2 and no stack trace, and that the neighbour
 * did race it (its swaps of names root made are counted, so a neighbour that lost every race fails the test).
 */
class NeighbourCliTest {
    /** The tests' patience with one command: a failure guard, never a bound PRISM promises. */
    private static final Duration DEADLINE = Duration.ofMinutes(5);

    @TempDir
    Path home;

    /** Runs {@code args} off this thread; a command that does not end within {@link #DEADLINE} fails the test. */
    private static Cli.Outcome bounded(String... args) throws Exception {
        Cli.Outcome o;
        try {
            o = CompletableFuture.supplyAsync(() -> prism(args)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(String.join(" ", args) + " did not end within " + DEADLINE, e);
        }
        // 0 passed, 1 failed, 2 refused, 4 inconclusive (compare, gate)
        assertThat(o.exit()).as("%s\n%s", String.join(" ", args), o.err()).isIn(0, 1, 2, 4);
        assertThat(o.err()).as(String.join(" ", args)).doesNotContain("\tat ").doesNotContain("Exception");
        return o;
    }

    private static void assertEverythingHeld(Neighbour neighbour, List<Cli.Outcome> outcomes) throws IOException {
        neighbour.assertRootOnlyUnchanged();
        neighbour.assertNothingPlantedRan();
        for (Cli.Outcome o : outcomes) {
            neighbour.assertNoRootOnlyByte("stdout", o.out());
            neighbour.assertNoRootOnlyByte("stderr", o.err());
        }
        neighbour.assertNoRootOnlyByteUnder(neighbour.secret().getParent().getParent());
    }

    /** @return how many of the neighbour's swaps so far were of a name in {@code dir} */
    private static long swapsIn(Neighbour neighbour, Path dir) throws IOException {
        return neighbour.swapsSoFar().stream().filter(s -> s.startsWith("link " + dir + "/") || s.startsWith("fifo " + dir + "/")
                || s.startsWith("dir " + dir + "/")).count();
    }

    @Test
    void mergeReportHistoryJunitAndMetrics_writingWhereTheNeighbourRaces_neverWriteThroughItsLinks() throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = Files.createDirectory(home.resolve("target"));
            Path results = home.resolve("results");
            Path project = neighbour.sharedDirectory("project");
            Path gate = Files.writeString(home.resolve("gate.json"), "{\"expectations\": [{\"benchmark\": \"create_files\","
                    + " \"tasks\": 2, \"op\": \"create\", \"stat\": \"p99\", \"below\": \"1h\"}]}");
            // a run that passes, its results private; a copy of them in the project directory, without the run's
            // document, as a colleague would leave it for merge
            Cli.Outcome run = bounded("run", "create_files", "--tasks", "2", "--launcher", "processes", "-p", "files=50",
                    "--target", target.toString(), "--out", results.toString(), "--run-id", "m", "-q");
            assertThat(run.exit()).as(run.err()).isZero();
            Path copy = project.resolve("m");
            copyShared(results.resolve("m"), copy);
            Files.delete(copy.resolve("01-create_files-t2.json"));

            List<Cli.Outcome> outcomes = new ArrayList<>(List.of(run));
            neighbour.race(Neighbour.Mode.LINK, List.of(project, copy), List.of());
            long before = swapsIn(neighbour, copy);
            Cli.Outcome merge = bounded("merge", copy.resolve("01-create_files-t2").toString());
            outcomes.add(merge);
            // inotify reports what root made after it made it: the neighbour swaps it even when it lost every race
            // before, so its swap is a state to wait for
            Await.until("the neighbour raced merge's document (exit " + merge.exit() + ": " + merge.err() + ")",
                    () -> swapsIn(neighbour, copy) > before);

            List<String[]> writers = List.of(
                    new String[]{"report", results.resolve("m").toString(), "-o", project.resolve("report.html").toString()},
                    new String[]{"run", "create_files", "--tasks", "2", "-p", "files=50", "--target", target.toString(),
                            "--out", results.toString(), "--run-id", "g", "-q", "--gate", gate.toString(), "--junit",
                            project.resolve("junit.xml").toString(), "--metrics", project.resolve("metrics.txt").toString()},
                    new String[]{"history", results.toString(), "-o", project.resolve("history.html").toString()});
            for (String[] writer : writers) {
                long swaps = swapsIn(neighbour, project);
                Cli.Outcome o = bounded(writer);
                outcomes.add(o);
                Await.until("the neighbour raced what " + writer[0] + " wrote (exit " + o.exit() + ": " + o.err() + ")",
                        () -> swapsIn(neighbour, project) > swaps);
            }
            neighbour.stop();
            assertEverythingHeld(neighbour, outcomes);
            // root's own results, which the neighbour cannot reach, are whole
            assertThat(bounded("compare", results.resolve("m").toString(), results.resolve("g").toString()).exit()).isIn(0, 1, 4);
        }
    }

    /** Copies {@code from} to {@code to}, every directory of the copy 0777 and not sticky, as a shared project's are. */
    private static void copyShared(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                    Files.setPosixFilePermissions(q, PosixFilePermissions.fromString("rwxrwxrwx"));
                } else {
                    Files.copy(p, q, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @Test
    void aFileCoordinator_inADirectoryTheNeighbourRaces_isNeverReachedThroughItsLinks() throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = Files.createDirectory(home.resolve("target"));
            Path meet = neighbour.sharedDirectory("meet");
            neighbour.race(Neighbour.Mode.LINK, List.of(meet), List.of());
            Cli.Outcome run = bounded("run", "create_files", "--tasks", "2", "--launcher", "processes", "--coordinator",
                    "file:" + meet, "-p", "files=50", "--target", target.toString(), "--out", home.resolve("results").toString(),
                    "--run-id", "c", "-q", "--timeout", "2m");
            // the ranks, reaching the meeting directory by name, find the neighbour's link there and refuse it: the run
            // fails, saying so, rather than meeting in the directory the link names
            assertThat(run.exit()).as(run.err()).isEqualTo(1);
            assertThat(run.err()).contains("the meeting directory " + meet + "/prism-coordination-c-");
            List<String> swaps = neighbour.stop();
            assertThat(swaps).as("the neighbour swapped the meeting directory for a link").anyMatch(s -> s.startsWith("dir " + meet
                    + "/prism-coordination-"));
            assertEverythingHeld(neighbour, List.of(run));
        }
    }

    @Test
    void compare_ofResultDocumentsTheNeighbourFlipsWithAFifoAndALink_endsEveryTime_andNeverReadsTheRootOnlyFile()
            throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = Files.createDirectory(home.resolve("target"));
            Path results = home.resolve("results");
            Cli.Outcome run = bounded("run", "create_files", "-p", "files=20", "--target", target.toString(), "--out",
                    results.toString(), "--run-id", "r", "-q");
            assertThat(run.exit()).as(run.err()).isZero();
            Path a = neighbour.sharedDirectory("a");
            Path b = neighbour.sharedDirectory("b");
            String document = "01-create_files-t1.json";
            Files.copy(results.resolve("r").resolve(document), a.resolve(document));
            Files.copy(results.resolve("r").resolve(document), b.resolve(document));
            neighbour.race(Neighbour.Mode.MIXED, List.of(), List.of(a.resolve(document), b.resolve(document)));
            List<Cli.Outcome> outcomes = new ArrayList<>();
            int[] byExit = new int[3]; // [0]: compared (exit 0, 1 or 4), [2]: refused
            // compare again and again until it has both read the documents and refused one the neighbour had swapped
            Await.until("compare both compared the documents and refused a FIFO or link in their place", () -> {
                Cli.Outcome o = bounded("compare", a.toString(), b.toString());
                outcomes.add(o);
                byExit[o.exit() == 2 ? 2 : 0]++;
                if (o.exit() == 2) {
                    assertThat(o.err()).containsAnyOf("is a FIFO, not a regular file", "is a symbolic link",
                            "does not exist", "no result");
                }
                return byExit[2] > 0 && byExit[0] > 0;
            });
            neighbour.stop();
            assertEverythingHeld(neighbour, outcomes);
        }
    }

    /**
     * {@code prism suite quick} — the README's main job — with its target in a project directory the neighbour races:
     * the moment a run directory appears there, it is moved aside and a link to a root-only directory put in its place.
     * inotify lets the neighbour win at the run directory's creation, so every configuration fails, naming the link
     * (a sticky target or one only root may write prevents that); nothing reaches the root-only directory or file.
     */
    @Test
    void suiteQuick_withItsTargetInADirectoryTheNeighbourRaces_neverWritesThroughItsLinks() throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = neighbour.sharedDirectory("target");
            neighbour.race(Neighbour.Mode.LINK, List.of(target), List.of());
            Cli.Outcome suite = bounded("suite", "quick", "--target", target.toString(), "--out",
                    home.resolve("results").toString(), "--run-id", "s", "-q", "--timeout", "3m");
            List<String> swaps = neighbour.stop();
            assertThat(swaps).as("the neighbour swapped a run directory the suite made (exit %d: %s)", suite.exit(),
                    suite.err()).anyMatch(s -> s.startsWith("dir " + target + "/prism-"));
            if (suite.exit() != 0) {
                assertThat(suite.out() + suite.err()).as("a failed suite names the swap")
                        .contains("is no longer the directory this run made: it is now a link to");
            }
            assertEverythingHeld(neighbour, List.of(suite));
        }
    }

    /**
     * {@code prism qualify} with its target in a project directory the neighbour races and its requirements file in
     * another it flips with a FIFO and a link: the qualification fails or is refused, naming what it found, and nothing
     * reaches the root-only directory or file.
     */
    @Test
    void qualify_withItsTargetAndRequirementsWhereTheNeighbourRaces_neverWritesOrReadsThroughItsLinks() throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = neighbour.sharedDirectory("target");
            Path shared = neighbour.sharedDirectory("requirements");
            Path requirements = Files.writeString(shared.resolve("requirements.json"), "{\"name\": \"small\","
                    + " \"job\": {\"ranks\": 2}, \"checkpoint\": {\"parameters\": 1048576, \"bytesPerParameter\": 2,"
                    + " \"stallSeconds\": 1, \"writeSize\": \"128KiB\"}}");
            neighbour.race(Neighbour.Mode.MIXED, List.of(target), List.of(requirements));
            List<Cli.Outcome> outcomes = new ArrayList<>();
            // again until it has both run against the raced target and been refused a flipped requirements file
            Await.until("qualify ran against the raced target and was refused a flipped requirements file", () -> {
                Cli.Outcome o = bounded("qualify", requirements.toString(), "--target", target.toString(), "--tasks", "2",
                        "--reps", "1", "-q", "--out", home.resolve("results").toString(), "--timeout", "2m");
                outcomes.add(o);
                return outcomes.stream().anyMatch(x -> x.exit() == 2) && outcomes.stream().anyMatch(x -> x.exit() != 2);
            });
            List<String> swaps = neighbour.stop();
            assertThat(swaps).as("the neighbour swapped a run directory qualify made")
                    .anyMatch(x -> x.startsWith("dir " + target + "/prism-"));
            assertEverythingHeld(neighbour, outcomes);
        }
    }
}
