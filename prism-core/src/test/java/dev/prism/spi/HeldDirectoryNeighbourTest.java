package dev.prism.spi;

import dev.prism.testing.Await;
import dev.prism.testing.Neighbour;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@link HeldDirectory} against a real neighbour (issue 55, item 8): another unprivileged user who renames a link to a
 * root-only file over every name root makes in a directory both may write, the moment inotify reports it, and flips an
 * input with a FIFO and a link. The first test is the neighbour's own proof that it wins such races: the write the fix
 * replaced (the temporary file reopened by name) is broken by it; the others hold that the held directory's writes and
 * reads are not.
 */
class HeldDirectoryNeighbourTest {
    private static final Duration BOUND = Duration.ofMinutes(4);

    @Test
    void theNeighbour_winsTheRace_againstAWriteThatReopensItsTemporaryFileByName(@TempDir Path home) throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path project = neighbour.sharedDirectory("project");
            neighbour.race(Neighbour.Mode.LINK, List.of(project), List.of());
            byte[] document = "{\"status\":\"PASS\"}".getBytes(StandardCharsets.UTF_8);
            AtomicInteger tries = new AtomicInteger();
            // what AtomicFiles did before 3a66830: an exclusive create, then by name a reopen with truncation and a chmod
            Await.until("root writes through the neighbour's link into the root-only file", () -> {
                Path temporary = project.resolve(".result.json." + tries.incrementAndGet() + ".tmp");
                Files.createFile(temporary);
                try {
                    Files.write(temporary, document, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
                } catch (IOException lostTheFileItMade) {
                    // the neighbour's FIFO or a vanished name: try again
                }
                return Files.readString(neighbour.secret()).contains("PASS");
            });
            neighbour.stop();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(neighbour.secret())))
                    .as("the chmod by name went through the link too").isEqualTo("rw-r--r--");
        }
    }

    @Test
    void atomicWritesAndInputs_inADirectoryTheNeighbourRaces_neverReachTheRootOnlyFile(@TempDir Path home) throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path project = neighbour.sharedDirectory("project");
            Path inputs = neighbour.sharedDirectory("inputs");
            Path input = Files.writeString(inputs.resolve("input.json"), "{\"status\":\"PASS\"}");
            neighbour.race(Neighbour.Mode.MIXED, List.of(project), List.of(input));
            AtomicInteger writes = new AtomicInteger();
            AtomicInteger read = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            assertTimeoutPreemptively(BOUND, () -> {
                try (HeldDirectory held = HeldDirectory.open(project); HeldDirectory in = HeldDirectory.open(inputs)) {
                    // until the neighbour has put its link or FIFO over one of root's temporary names, writing on
                    Await.until("the neighbour swaps a temporary name root made, and root's input was both read and"
                            + " refused", () -> {
                        try {
                            held.writeAtomically("result-" + writes.incrementAndGet() % 7 + ".json",
                                    "{\"status\":\"PASS\"}".getBytes(StandardCharsets.UTF_8), 0644);
                        } catch (IOException lost) {
                            // the neighbour's swap made the rename fail (its FIFO gone): a failed write, reported
                        }
                        try (InputStream stream = in.openInput("input.json", 1 << 10, "result document")) {
                            assertThat(new String(stream.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"PASS\"}");
                            read.incrementAndGet();
                        } catch (IllegalArgumentException linkOrFifo) {
                            assertThat(linkOrFifo.getMessage()).doesNotContain(neighbour.token());
                            refused.incrementAndGet();
                        }
                        return neighbour.swapsSoFar().stream().anyMatch(HeldDirectoryNeighbourTest::temporary) && read.get() > 0 && refused.get() > 0;
                    });
                }
            });
            List<String> swaps = neighbour.stop();
            assertThat(swaps).anyMatch(HeldDirectoryNeighbourTest::temporary);
            neighbour.assertRootOnlyUnchanged();
            // what root wrote where the neighbour's link did not take its place is root's, whole, and 0644
            try (var files = Files.list(project)) {
                for (Path f : files.filter(f -> f.getFileName().toString().matches("result-\\d\\.json")
                        && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).toList()) {
                    assertThat(f).hasContent("{\"status\":\"PASS\"}");
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-r--r--");
                }
            }
            neighbour.assertNoRootOnlyByteUnder(project);
        }
    }

    /** @return whether a swap was of a temporary name of writeAtomically's */
    private static boolean temporary(String swap) {
        return swap.matches("(link|fifo) .*/\\.result-\\d\\.json\\.[0-9a-f]+\\.tmp");
    }
}
