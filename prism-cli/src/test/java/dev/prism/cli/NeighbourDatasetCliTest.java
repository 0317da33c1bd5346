package dev.prism.cli;

import dev.prism.testing.Neighbour;
import dev.prism.testing.Required;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code prism dataset create} into an empty directory of a group project, which the neighbour — another unprivileged
 * user — may write (issue 55, item 8): the moment a file or directory of the dataset appears, the neighbour renames a
 * link to a root-only file over it, or moves the directory aside and puts a link to a root-only directory in its place,
 * and it makes the names create is about to make (its shard and class directories, arrow's staging and output
 * directories) as links to the root-only directory. Whatever create then does, it must not write, remove or change
 * anything root-only through those links, nor put a root-only byte or digest into the dataset or its output; and it
 * ends. Each format writes its own way (Java for files; Python for the others: shards, a staging directory for arrow,
 * a directory per class for image-folder), so each is tried, in a directory others may write (not sticky: they may
 * rename root's entries, and create refuses it, as --out does) and in a sticky one (they may only add names).
 *
 * <p>Before the refusal, in the directory that is not sticky, root wrote a sharded files dataset's 40 files and an
 * image folder's 40 samples into the root-only directory, and arrow's clean-up of its staging directory, following the
 * neighbour's link, removed the root-only file in it.
 */
class NeighbourDatasetCliTest {
    private static final Duration DEADLINE = Duration.ofMinutes(5);

    @TempDir
    Path home;

    /** What create is about to make, in each format: the neighbour makes them first, as links to the root-only directory. */
    private static final List<String> PREDICTED = List.of("shard-000", "shard-001", "shard-002", "shard-003", "class-0000",
            "class-0001", "class-0002", "class-0003", ".staging", "arrow", ".staging-hf", "manifest.json", "prism-dataset.json",
            "samples.crc32");

    @ParameterizedTest(name = "{0} in a directory others may write, sticky: {1}")
    @CsvSource({"files, false", "image-folder, false", "arrow, false", "safetensors, false", "parquet, false",
            "tar-shards, false", "indexed, false", "files, true", "image-folder, true", "arrow, true", "safetensors, true",
            "parquet, true", "tar-shards, true", "indexed, true"})
    void datasetCreate_intoADirectoryTheNeighbourRaces_neverWritesThroughItsLinks(String format, boolean sticky)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("dataset", "create"));
        if (format.equals("files")) {
            args.addAll(List.of("-p", "size_classes=4KiB", "-p", "files_per_class=40", "-p", "total_size=1MiB",
                    "-p", "layout=sharded", "-p", "shards=4"));
        } else {
            java.util.Optional<String> missing = dev.prism.torch.TorchRun.builder().build().torchMissing();
            Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
            args.addAll(List.of("--format", format, "-p", "samples=40", "-p", "sample_size=4KiB", "-p", "shard_size=32KiB"));
            if (format.equals("image-folder")) {
                args.addAll(List.of("-p", "classes=4"));
            }
        }
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path dataset = neighbour.sharedDirectory("project/ds");
            if (sticky) {
                Files.setPosixFilePermissions(dataset, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
                Files.setAttribute(dataset, "unix:mode", 01777);
            }
            args.add(2, dataset.toString());
            neighbour.race(Neighbour.Mode.LINK, List.of(dataset), List.of(), PREDICTED);
            Cli.Outcome created;
            try {
                created = CompletableFuture.supplyAsync(() -> Cli.prism(args.toArray(String[]::new)))
                        .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(String.join(" ", args) + " did not end within " + DEADLINE, e);
            }
            if (sticky) {
                // its plants follow root's first name: a state to wait for, once create has ended
                dev.prism.testing.Await.until("the neighbour raced what create made (exit " + created.exit() + ": "
                        + created.err() + ")", () -> !neighbour.swapsSoFar().isEmpty());
            }
            List<String> swaps = neighbour.stop();
            if (sticky) {
                assertThat(created.exit()).as(created.err()).isIn(0, 1, 2);
            } else {
                // refused before anything is made: the neighbour, who could rename root's entries, had nothing to race
                assertThat(created.exit()).as(created.out() + created.err()).isEqualTo(2);
                assertThat(created.err()).contains("dataset directory " + dataset + " is refused: " + dataset
                        + " on its path may be written by others");
                assertThat(swaps).isEmpty();
            }
            assertThat(created.err()).doesNotContain("\tat ");
            neighbour.assertRootOnlyUnchanged();
            neighbour.assertNoRootOnlyByte("stdout", created.out());
            neighbour.assertNoRootOnlyByte("stderr", created.err());
            neighbour.assertNoRootOnlyByteUnder(home);
            neighbour.assertNothingPlantedRan();
        }
    }
}
