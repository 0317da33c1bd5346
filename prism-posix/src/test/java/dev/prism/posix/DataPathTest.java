package dev.prism.posix;

import dev.prism.DataSize;
import dev.prism.Failure;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.TargetInfo;
import dev.prism.posix.data.Arrival;
import dev.prism.posix.data.ContentPattern;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.DataPattern;
import dev.prism.posix.data.DatasetContent;
import dev.prism.posix.data.DatasetLayout;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.Datasets;
import dev.prism.posix.data.FileOrder;
import dev.prism.posix.data.SizeDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataPathTest {
    private static final DatasetSpec SMALL = new DatasetSpec(List.of(DataSize.ofKiB(8), DataSize.ofKiB(100),
            DataSize.ofMiB(1)), 3, DataSize.ofMiB(4), DatasetLayout.SHARDED, 3, 7);

    @TempDir
    Path target;
    @TempDir
    Path data;

    private RunResult run(dev.prism.Benchmark b, int tasks) {
        return Scenario.builder().target(target).benchmark(b).tasks(tasks).build().execute().runs().get(0);
    }

    @Test
    void ranksWithNoShareOfTheFiles_passButAreNamedIdle_inTheirResultsAndTheTable() {
        // 9 files for 12 ranks: ranks 9–11 have nothing to read
        Scenario scenario = Scenario.builder().target(target).benchmark(PosixBenchmarks.md5Check().generate(SMALL)).tasks(12)
                .build();
        dev.prism.ScenarioResult result = scenario.execute();
        RunResult r = result.runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        List<dev.prism.RankResult> ranks = r.repetitions().get(0).ranks();
        assertThat(ranks.subList(9, 12)).allSatisfy(rank -> assertThat(rank.notes()).containsKey("idle"));
        assertThat(ranks.subList(0, 9)).allSatisfy(rank -> assertThat(rank.notes()).doesNotContainKey("idle"));
        assertThat(result.table()).contains("tasks 12 rep 1: 3 idle rank(s), ranks 9-11: measured nothing");
    }

    @Test
    void readOthers_onOneNode_readsTheNextRanksFiles_andSaysAllRanksShareTheNode() {
        RunResult r = run(PosixBenchmarks.md5Check().generate(SMALL).readOthers(true), 3);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        String host = r.repetitions().get(0).ranks().get(0).hostname();
        assertThat(r.repetitions().get(0).ranks().get(2).notes().get("read_others"))
                .isEqualTo("reads the files rank 0 wrote, on " + host + " (the same node: every rank runs on " + host + ")");
    }

    @Test
    void content_isPinned_soDatasetsFromEveryVersionStayVerifiable() throws Exception {
        java.nio.ByteBuffer file = java.nio.ByteBuffer.allocate(100_000);
        new DatasetContent(42).fillFrom("shard-001/file-000001.bin", 0, file);
        byte[] md5 = java.security.MessageDigest.getInstance("MD5").digest(file.array());
        assertThat(java.util.HexFormat.of().formatHex(md5)).isEqualTo("ed66a6f2ddcaf0632d0a4966866f5536");
    }

    @ParameterizedTest
    @EnumSource(DatasetLayout.class)
    void createDataset_writesEveryFileWithItsSizeClassAndAManifest(DatasetLayout layout) {
        CreateDataset b = PosixBenchmarks.createDataset().sizeClasses(SMALL.sizeClasses()).filesPerClass(3)
                .totalSize(DataSize.ofMiB(4)).layout(layout).shards(3);
        for (int tasks : new int[]{1, 2}) {
            RunResult r = run(b, tasks);
            assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
            assertThat(r.measurement("file_8KiB").count()).isEqualTo(3);
            assertThat(r.measurement("file_100KiB").count()).isEqualTo(3);
            assertThat(r.measurement("file_1MiB").count()).isEqualTo(3);
            assertThat(r.measurement("write").bytes()).isEqualTo(SMALL.bytes());
            assertThat(r.measurement("generate").count()).isPositive();
        }
        assertThat(SMALL.files()).hasSize(9);
    }

    @Test
    void createDatasetDefaults_coverEverySizeClass_theGibibyteOneIncluded() {
        DatasetSpec defaults = PosixBenchmarks.createDataset().spec();
        assertThat(defaults.files()).extracting(DatasetSpec.File::sizeBytes).containsAll(
                defaults.sizeClasses().stream().map(DataSize::bytes).toList());
        assertThat(defaults.bytes()).isLessThanOrEqualTo(defaults.totalSize().bytes());
        // rounds: each class once (8 KiB … 1 GiB), then the classes that still fit, up to 4 each
        assertThat(defaults.files().stream().filter(f -> f.sizeBytes() == DataSize.ofGiB(1).bytes())).hasSize(1);
        assertThat(defaults.files().stream().filter(f -> f.sizeBytes() == DataSize.ofKiB(8).bytes())).hasSize(4);
    }

    @Test
    void createDataset_zerosSkipsGeneration() {
        RunResult r = run(PosixBenchmarks.createDataset().sizeClasses(List.of(DataSize.ofKiB(64))).filesPerClass(3)
                .totalSize(DataSize.ofMiB(1)).pattern(ContentPattern.ZEROS), 1);
        assertThat(r.passed()).isTrue();
        assertThat(r.measurements()).doesNotContainKey("generate");
    }

    static Stream<Arguments> readMatrix() {
        List<Arguments> all = new ArrayList<>();
        for (FileOrder order : FileOrder.values()) {
            for (PageCache cache : PageCache.values()) {
                for (int tasks : new int[]{1, 2}) {
                    all.add(Arguments.of(order, cache, tasks));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, cache {1}, {2} rank(s)")
    @MethodSource("readMatrix")
    void md5Check_verifiesADatasetFromCreateDatasetInEveryOrder(FileOrder order, PageCache cache, int tasks)
            throws IOException {
        Datasets.write(data, SMALL);
        RunResult r = run(PosixBenchmarks.md5Check().dataset(data).order(order).cache(cache).epochs(2)
                .chunkSize(DataSize.ofKiB(32)).readOthers(tasks > 1), tasks);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.counters()).containsEntry("files_read", 9L * 2);
        assertThat(r.measurement("file").count()).isEqualTo(18);
        assertThat(r.measurement("read").bytes()).isEqualTo(2 * SMALL.bytes());
        // only reads that returned data are samples: 32 KiB chunks of 8 KiB, 100 KiB and 1 MiB files,
        // 3 of each, 2 epochs: (1 + 4 + 32) × 3 × 2 — the end-of-file reads (18 more) are not
        assertThat(r.measurement("read").count()).isEqualTo((1 + 4 + 32) * 3 * 2);
        // the drops happen in a pass before the timed one, never as the timed path's own operation
        assertThat(r.measurements()).doesNotContainKey("drop");
        if (cache == PageCache.DROP) {
            assertThat(r.notes()).containsKey("dentries_dropped");
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void md5Check_generatesItsOwnDatasetWhenGivenNone() {
        RunResult r = run(PosixBenchmarks.md5Check().generate(SMALL).order(FileOrder.RANDOM), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.counters()).containsEntry("files_read", 9L);
    }

    @Test
    void md5Check_readsAnyDirectoryWithoutAManifest() throws IOException {
        Files.writeString(Files.createDirectories(data.resolve("a/b")).resolve("x.txt"), "hello");
        Files.write(data.resolve("y.bin"), new byte[100_000]);
        RunResult r = run(PosixBenchmarks.md5Check().dataset(data), 1);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("read").bytes()).isEqualTo(100_005);
    }

    @Test
    void flippedByte_failsWithValidationNamingTheFile() throws IOException {
        DatasetManifest manifest = Datasets.write(data, SMALL);
        Path victim = data.resolve(manifest.entries().get(4).path());
        try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
            f.seek(5000);
            int b = f.read();
            f.seek(5000);
            f.write(b ^ 0x01);
        }
        RunResult r = run(PosixBenchmarks.md5Check().dataset(data), 2);
        assertThat(r.failure().kind()).isEqualTo(Failure.Kind.VALIDATION);
        assertThat(r.failure().message()).contains(victim.toString()).contains("manifest says");

        // hash=false reads every byte and hashes none: the flipped byte goes unseen, and the result says why
        RunResult readOnly = run(PosixBenchmarks.md5Check().dataset(data).hash(false), 2);
        assertThat(readOnly.passed()).as(String.valueOf(readOnly.failure())).isTrue();
        assertThat(readOnly.measurement("read").bytes()).isEqualTo(SMALL.bytes());
        assertThat(readOnly.measurement("file").bytes()).isEqualTo(SMALL.bytes());
        assertThat(readOnly.notes().get("hash")).contains("none hashed");
    }

    @Test
    void shrunkOrVanishedFile_failsWithThePathInsteadOfHanging() throws IOException {
        DatasetManifest manifest = Datasets.write(data, SMALL);
        Path shrunk = data.resolve(manifest.entries().get(8).path());
        try (RandomAccessFile f = new RandomAccessFile(shrunk.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        RunResult r = run(PosixBenchmarks.md5Check().dataset(data), 1);
        assertThat(r.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(r.failure().message()).contains(shrunk + " shrank while being read");

        Path vanished = data.resolve(manifest.entries().get(2).path());
        Files.delete(vanished);
        RunResult gone = run(PosixBenchmarks.md5Check().dataset(data), 1);
        assertThat(gone.failure().message()).contains(vanished.toString()).contains("ENOENT");
    }

    @Test
    void badInput_namesTheParameter() throws IOException {
        assertThatThrownBy(() -> PosixBenchmarks.md5Check().dataset(data.resolve("missing")).checked())
                .hasMessageContaining("dataset").hasMessageContaining("not an existing directory");
        RunResult empty = run(PosixBenchmarks.md5Check().dataset(data), 1);
        assertThat(empty.failure().message()).contains("dataset " + data + " has no files");
        assertThatThrownBy(() -> PosixBenchmarks.createDataset().sizeClasses(List.of(DataSize.ofMiB(2)))
                .totalSize(DataSize.ofMiB(1)).spec().files())
                .hasMessageContaining("total_size 1MiB is smaller than one file");
        assertThatThrownBy(() -> dev.prism.Benchmarks.create("md5_check", java.util.Map.of("order", "backwards")))
                .hasMessageContaining("order").hasMessageContaining("sequential|random|strided");
        assertThatThrownBy(() -> dev.prism.Benchmarks.create("md5_check", java.util.Map.of("direct", "true", "chunk_size", "1000")))
                .hasMessageContaining("chunk_size must be a multiple of 4KiB");
        assertThatThrownBy(() -> dev.prism.Benchmarks.create("create_synthetic_workload", java.util.Map.of("pattern", "lumpy")))
                .hasMessageContaining("pattern").hasMessageContaining("zeros|random|compressible");
        assertThatThrownBy(() -> dev.prism.Benchmarks.create("create_synthetic_workload",
                java.util.Map.of("file_size", "0"))).hasMessageContaining("file_size");
        assertThatThrownBy(() -> PosixBenchmarks.createSyntheticWorkload().sizeBounds(DataSize.ofMiB(2), DataSize.ofMiB(1)).checked())
                .hasMessageContaining("min_size ≤ file_size ≤ max_size");
    }

    @Test
    void onTheDiskFilesystem_dropBypassesThePageCacheAndKeepDoesNot() throws IOException {
        assertThat(TargetInfo.of(data).filesystemType()).isNotEqualTo("tmpfs");
        Datasets.write(data, SMALL);
        RunResult kept = run(PosixBenchmarks.md5Check().dataset(data).epochs(2), 1);
        RunResult dropped = run(PosixBenchmarks.md5Check().dataset(data).cache(PageCache.DROP), 1);
        // second epoch of keep: everything was just read, so it is cached
        assertThat(kept.counters().get("resident_pages_before_read")).isGreaterThan(kept.counters().get("pages_before_read") / 2);
        assertThat(dropped.counters().get("resident_pages_before_read"))
                .isLessThan(dropped.counters().get("pages_before_read") / 20);
        assertThat(dropped.counters()).doesNotContainKey("files_over_5pct_resident");
    }

    @Test
    void syntheticWorkload_recordsServiceAndResponseForEveryFile() {
        RunResult r = run(PosixBenchmarks.createSyntheticWorkload().files(50).rate(2000).arrival(Arrival.POISSON)
                .fileSize(DataSize.ofKiB(8)).sizeBounds(DataSize.ofKiB(1), DataSize.ofKiB(64)), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("service").count()).isEqualTo(100);
        assertThat(r.measurement("response").count()).isEqualTo(100);
        // the response clock starts at the intended start, never after the operation began
        assertThat(r.measurement("response").meanNanos()).isGreaterThanOrEqualTo(r.measurement("service").meanNanos());
        assertThat(r.measurement("service").bytes()).isBetween(100L * 1024, 100L * 64 * 1024);
    }

    @ParameterizedTest
    @EnumSource(value = Arrival.class, names = {"NONE", "FIXED", "BURSTS"})
    void syntheticWorkload_runsWithEveryArrivalProcess(Arrival arrival) {
        RunResult r = run(PosixBenchmarks.createSyntheticWorkload().files(20).rate(5000).arrival(arrival)
                .bursts(java.time.Duration.ofMillis(2), java.time.Duration.ofMillis(2)).pattern(DataPattern.ZEROS)
                .sizes(SizeDistribution.UNIFORM).fileSize(DataSize.ofKiB(4)).sizeBounds(DataSize.ofKiB(1), DataSize.ofKiB(8)), 1);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("response").count()).isEqualTo(20);
    }
}
