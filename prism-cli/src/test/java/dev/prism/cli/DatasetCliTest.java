package dev.prism.cli;

import dev.prism.Results;
import dev.prism.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code prism dataset create|verify}, and md5_check reading a kept dataset without writing it again. */
class DatasetCliTest {
    @TempDir
    Path work;

    /** @return every file under {@code dir} with its inode and modification time: what a rewrite would change */
    private static Map<String, String> identities(Path dir) throws IOException {
        Map<String, String> ids = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                ids.put(dir.relativize(p).toString(), a.fileKey() + "@" + a.lastModifiedTime().toMillis() + "/" + a.size());
            }
        }
        return ids;
    }

    /** Timing-dependent in its time-based part: its bounds are relative to observers measured beside it. */
    @Test
    @org.junit.jupiter.api.Tag("timing")
    void aKeptDataset_isWrittenOnce_verified_andReadTwiceWithoutRegeneration() throws IOException {
        Path dataset = work.resolve("ds");
        Cli.Outcome created = prism("dataset", "create", dataset.toString(), "-p", "size_classes=8KiB,32KiB",
                "-p", "files_per_class=40", "-p", "total_size=10MiB", "-p", "layout=flat");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("80 files").contains("layout flat").contains("-p dataset=" + dataset);
        assertThat(prism("dataset", "verify", dataset.toString()).out()).contains("80 files").contains("every file matches");
        Map<String, String> before = identities(dataset);
        assertThat(before).hasSize(81);   // 80 files and manifest.json

        Path target = Files.createDirectories(work.resolve("target"));
        for (String id : new String[]{"first", "second"}) {
            Cli.Outcome read = prism("run", "md5_check", "--target", target.toString(), "-p", "dataset=" + dataset,
                    "-p", "order=random", "-q", "--out", work.resolve("out").toString(), "--run-id", id);
            assertThat(read.exit()).as(read.err()).isZero();
            RunResult run = Results.load(work.resolve("out").resolve(id)).get(0);
            assertThat(run.counters()).containsEntry("files_read", 80L);
            // the layout found, not the generator's defaults
            assertThat(run.notes().get("dataset_found")).isEqualTo("80 files in 1 directory, 1.6 MiB (8KiB×40 32KiB×40), manifest");
            assertThat(run.parameters()).containsEntry("dataset", dataset.toString()).doesNotContainKeys("size_classes",
                    "files_per_class", "total_size", "layout", "shards", "content_seed");
        }
        // by time: epoch after epoch for 2 s, two ranks agreeing on each next epoch through rank 0
        Cli.Outcome timed;
        long late;
        try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
            timed = prism("run", "md5_check", "--target", target.toString(), "-p", "dataset=" + dataset,
                    "--duration", "2s", "--tasks", "2", "-q", "--out", work.resolve("out").toString(), "--run-id", "timed");
            late = delay.longest().toNanos();
        }
        assertThat(timed.exit()).as(timed.err()).isZero();
        RunResult byTime = Results.load(work.resolve("out").resolve("timed")).get(0);
        // the bounds are relative to the observers: each file's time by the run's own clock (open, read, digest,
        // close), and the host's longest delay in running a ready thread (SchedulingDelay), over the same 2 s
        long longestFile = byTime.measurement(dev.prism.posix.data.Md5Check.OP_FILE).maxNanos();
        // more than an epoch, or as many files as fit in the ranks' phases when each is as slow as the slowest
        long fit = byTime.repetitions().get(0).ranks().stream().mapToLong(r -> r.phaseNanos() / (longestFile + late)).sum();
        assertThat(byTime.counters().get("files_read")).as("files read, %d fitting at worst", fit)
                .isGreaterThanOrEqualTo(Math.min(81L, fit));
        // each rank ends within its file under way, the other rank's (the next epoch is agreed between them), and the
        // host's delays around them
        assertThat(byTime.repetitions().get(0).ranks()).allSatisfy(r -> assertThat(r.phaseNanos() / 1e9)
                .as("rank %d's phase (longest file %d µs, longest delay %d µs)", r.rank(), longestFile / 1000, late / 1000)
                .isBetween(1.99, 2.0 + (2 * longestFile + 4 * late) / 1e9 + 0.02));
        // read three times, written once: no file was replaced or touched
        assertThat(identities(dataset)).isEqualTo(before);

        Files.writeString(dataset.resolve("file-000001.bin"), "changed");
        Cli.Outcome bad = prism("dataset", "verify", dataset.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("file-000001.bin: 7 bytes, the manifest says").contains("1 problem(s)");
        assertThat(prism("dataset", "create", dataset.toString()).err()).contains("is not empty");
        assertThat(prism("dataset", "create", work.resolve("x").toString(), "-p", "files=3").err())
                .contains("'files' is not a dataset parameter");
        assertThat(prism("dataset", "verify", target.toString()).err()).contains("holds no manifest.json");
    }
    @Test
    void aDatasetInAFormat_isWrittenOnce_verified_andReadWithItsOwnParameters() throws IOException {
        java.util.Optional<String> missing = dev.prism.torch.TorchRun.builder().build().torchMissing();
        dev.prism.testing.Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
        Path dataset = work.resolve("ds-st");
        Cli.Outcome created = prism("dataset", "create", dataset.toString(), "--format", "safetensors", "-p", "samples=300",
                "-p", "sample_size=4KiB", "-p", "shard_size=256KiB", "-p", "seed=7");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("safetensors: 300 samples of 4KiB in shards of 256KiB, seed 7")
                .contains("-p dataset=" + dataset);
        assertThat(prism("dataset", "verify", dataset.toString()).out()).contains("300 samples, 1.2 MiB: every sample is its seed's");
        Map<String, String> before = identities(dataset);

        Path target = Files.createDirectories(work.resolve("target"));
        Cli.Outcome read = prism("run", "dataloader", "--target", target.toString(), "-p", "dataset=" + dataset, "--tasks", "2",
                "--reps", "1", "-q", "--out", work.resolve("out").toString(), "--run-id", "st");
        assertThat(read.exit()).as(read.err()).isZero();
        RunResult run = Results.load(work.resolve("out").resolve("st")).get(0);
        // the dataset's own format and sizes, not the benchmark's defaults, are what the result records
        assertThat(run.parameters()).containsEntry("format", "safetensors").containsEntry("samples", "300")
                .containsEntry("sample_size", "4KiB").doesNotContainKeys("files", "file_size");
        assertThat(run.counters()).containsEntry("samples", 300L);
        assertThat(identities(dataset)).isEqualTo(before);

        assertThat(prism("run", "dataloader", "--target", target.toString(), "-p", "dataset=" + dataset, "-p", "format=parquet")
                .err()).contains("is a safetensors dataset, not format parquet");
        assertThat(prism("dataset", "create", work.resolve("y").toString(), "--format", "csv").err())
                .contains("'csv' is not one of files|parquet|arrow|tar-shards|indexed|image-folder|safetensors");
        assertThat(prism("dataset", "create", dataset.toString(), "--format", "indexed").err()).contains("is not empty");
        assertThat(prism("dataset", "create", work.resolve("z").toString(), "--format", "parquet", "-p", "files=3").err())
                .contains("'files' is not a parameter of a parquet dataset");
    }
}
