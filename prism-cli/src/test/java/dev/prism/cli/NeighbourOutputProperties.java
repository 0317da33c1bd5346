package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.Neighbour;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the name of the page {@code prism report -o} writes into a group project directory, and however the
 * neighbour — another unprivileged user — races it there (a link to a root-only file or a FIFO over each name the
 * moment it appears, and, when it guesses, the page's own name made first as a link to a root-only directory), root
 * writes nothing through the neighbour's links, no root-only byte or digest reaches an output, and the command ends
 * with exit 0, 1 or 2 (issue 55, item 8). jqwik picks the name, the neighbour's kind of swap and whether it guesses.
 */
class NeighbourOutputProperties {
    private static Path scratch;
    private static Path results;

    @BeforeContainer
    static void aRunsResults() throws Exception {
        Neighbour.require();
        scratch = Files.createTempDirectory("prism-neighbour-output");
        // enterable by the neighbour, down to the project directories of each try (results and target stay root's)
        Files.setPosixFilePermissions(scratch, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = Files.createDirectory(scratch.resolve("target"));
        results = scratch.resolve("results");
        Cli.Outcome run = Cli.prism("run", "create_files", "-p", "files=20", "--target", target.toString(), "--out",
                results.toString(), "--run-id", "r", "-q");
        assertThat(run.exit()).as(run.err()).isZero();
    }

    @AfterContainer
    static void removeScratch() throws IOException {
        if (scratch != null) {
            dev.prism.DirectoryRemoval.of(scratch);
        }
    }

    @Property(tries = 12)
    void aReportWrittenUnderAnyName_whereTheNeighbourRaces_neverReachesWhatItLinks(@ForAll("names") String name,
            @ForAll Neighbour.Mode mode, @ForAll boolean guessesTheName) throws Exception {
        Path home = Files.createTempDirectory(scratch, "try");
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path project = neighbour.sharedDirectory("project");
            neighbour.race(mode, List.of(project), List.of(), guessesTheName ? List.of(name) : List.of());
            String[] args = {"report", results.resolve("r").toString(), "-o", project.resolve(name).toString()};
            Cli.Outcome o;
            try {
                o = CompletableFuture.supplyAsync(() -> Cli.prism(args)).get(5, TimeUnit.MINUTES);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(String.join(" ", args) + " did not end within 5 minutes", e);
            }
            // inotify reports the page's name after root made it: the neighbour swaps it even when it lost every race
            // before (a state to wait for, not a moment)
            Await.until("the neighbour raced the report (exit " + o.exit() + ": " + o.err() + ")",
                    () -> !neighbour.swapsSoFar().isEmpty());
            neighbour.stop();
            assertThat(o.exit()).as(o.err()).isIn(0, 1, 2);
            assertThat(o.err()).doesNotContain("\tat ");
            neighbour.assertRootOnlyUnchanged();
            neighbour.assertNoRootOnlyByte("stdout", o.out());
            neighbour.assertNoRootOnlyByte("stderr", o.err());
            neighbour.assertNoRootOnlyByteUnder(home);
        }
    }

    @Provide
    Arbitrary<String> names() {
        Arbitrary<String> plain = Arbitraries.strings().withChars("abcxyz019._ é☃").ofMinLength(1).ofMaxLength(24)
                .filter(n -> !n.equals(".") && !n.equals("..") && !n.isBlank());
        // names like the temporary ones the write makes, and the report's usual one
        return Arbitraries.oneOf(plain, plain.map(n -> n + ".html"), plain.map(n -> "." + n + ".0123456789abcdef.tmp"),
                Arbitraries.just("report.html"));
    }
}
