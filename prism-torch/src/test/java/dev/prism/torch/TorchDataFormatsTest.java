package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.SyscallTracing;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The same 600 samples in every training format, written by {@code TorchDataset.create} and read by two ranks through
 * a DataLoader with two workers each, the page cache dropped first. The observers: the files on disk (an image folder's
 * files are its samples, so their sizes are the bytes delivered), the kernel's {@code read_bytes} of the ranks and their
 * workers (the whole dataset came from the disk once, give or take readahead), a byte changed by the test (the run
 * fails naming the file and the sample), and Python's own calls made in the workers (syscalls=python counts one open
 * per sample of an image folder). Skipped without torch unless PRISM_REQUIRE_TORCH=1.
 */
class TorchDataFormatsTest {
    private static final int SAMPLES = 600;

    @TempDir
    Path dir;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    private static TorchDataset dataset(TorchDataFormat format) {
        return TorchDataset.builder().format(format).samples(SAMPLES).sampleSize(DataSize.ofKiB(16)).sizeJitter(0.25)
                .shardSize(DataSize.ofMiB(2)).rowGroup(DataSize.ofKiB(256)).classes(8).build();
    }

    private static long sizeOfFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("prism-dataset")
                    && !p.getFileName().toString().equals("samples.crc32")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @ParameterizedTest
    @EnumSource(value = TorchDataFormat.class, names = "FILES", mode = EnumSource.Mode.EXCLUDE)
    void everyFormat_deliversEverySampleOnce_andTakesItFromTheDisk(TorchDataFormat format) throws IOException {
        Path kept = dir.resolve("dataset");
        TorchDataset.Created created = dataset(format).create(kept, TorchRun.builder().build());
        long onDisk = sizeOfFiles(kept);
        assertThat(created.fileBytes()).isEqualTo(onDisk);
        if (format == TorchDataFormat.IMAGE_FOLDER) {
            assertThat(created.sampleBytes()).isEqualTo(onDisk); // a file is a sample
        }
        Path target = Files.createDirectories(dir.resolve("target"));
        RunResult r = TorchPresent.passedOnTwoRanks(target, TorchBenchmarks.dataloader().dataset(kept).dropCache(true)
                .numWorkers(2).batchSize(16));
        assertThat(r.parameters()).containsEntry("format", format.text()).containsEntry("samples", "600");
        assertThat(r.counters()).containsEntry("samples", (long) SAMPLES).containsEntry("resident_pages_before_read", 0L);
        assertThat(r.measurements().get("sample").count()).isEqualTo(SAMPLES);
        assertThat(r.measurements().get("sample").bytes()).isEqualTo(created.sampleBytes());
        // Hugging Face's and Megatron's dataset objects are built by each rank in its epoch, timed apart
        if (format == TorchDataFormat.ARROW || format == TorchDataFormat.INDEXED) {
            assertThat(r.measurements().get("open_dataset").count()).isEqualTo(2);
        } else {
            assertThat(r.measurements()).doesNotContainKey("open_dataset");
        }
        // cold, one epoch: the ranks and their workers took the dataset's files from the disk, about once (readahead
        // may bring a little past what was asked; the two ranks share one page cache, so nothing is read twice)
        long read = r.counters().get("storage_read_bytes");
        assertThat(read).as(format + ": read_bytes against %d bytes of files", onDisk)
                .isBetween((long) (created.sampleBytes() * 0.95), (long) (onDisk * 1.25) + (1 << 20));
    }

    @Test
    void safetensorsByPread_deliversTheSameSamples() throws IOException {
        Path kept = dir.resolve("dataset");
        TorchDataset.Created created = dataset(TorchDataFormat.SAFETENSORS).create(kept, TorchRun.builder().build());
        RunResult r = TorchPresent.passedOnTwoRanks(Files.createDirectories(dir.resolve("target")),
                TorchBenchmarks.dataloader().dataset(kept).mmap(false).dropCache(true));
        assertThat(r.parameters()).containsEntry("mmap", "false");
        assertThat(r.measurements().get("sample").bytes()).isEqualTo(created.sampleBytes());
        assertThat(r.counters().get("storage_read_bytes")).isGreaterThanOrEqualTo((long) (created.sampleBytes() * 0.95));
    }

    @Test
    void aChangedByte_failsTheRun_namingTheFileAndTheSample() throws IOException {
        Path kept = dir.resolve("dataset");
        dataset(TorchDataFormat.PARQUET).create(kept, TorchRun.builder().build());
        // sample 123's header (PRSM, its size, its index) is in one shard's row group: change a byte of its body
        ByteBuffer header = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(123);
        Path changed = null;
        try (Stream<Path> shards = Files.list(kept)) {
            for (Path shard : shards.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                byte[] bytes = Files.readAllBytes(shard);
                int at = -1;
                do {
                    at = indexOf(bytes, header.array(), at + 1);
                } while (at >= 0 && !(at >= 8 && bytes[at - 8] == 'P' && bytes[at - 7] == 'R'));
                if (at >= 0) {
                    bytes[at + 500] ^= 1;
                    Files.write(shard, bytes);
                    changed = shard;
                    break;
                }
            }
        }
        assertThat(changed).as("sample 123's header in a shard").isNotNull();
        RunResult r = Scenario.builder().target(Files.createDirectories(dir.resolve("target")))
                .benchmark(TorchBenchmarks.dataloader().dataset(kept)).tasks(2).timeout(Duration.ofMinutes(5))
                .build().execute().runs().get(0);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().message()).contains(changed.toString()).contains("sample 123:").contains("a changed byte");
        TorchDataset.Verification v = TorchDataset.verify(kept, TorchRun.builder().build());
        assertThat(v.passed()).isFalse();
        assertThat(v.problems().get(0)).contains(changed.toString()).contains("sample 123:");
    }

    /**
     * Another user who may write a dataset's directory plants a module named as one Python imports first: verify ran
     * Python with the dataset as its working directory, and the module ran as root. Python now runs isolated, from a
     * private directory of its own.
     */
    @Test
    void verify_neverImportsAModulePlantedInTheDataset() throws IOException {
        Path kept = dir.resolve("dataset");
        dataset(TorchDataFormat.PARQUET).create(kept, TorchRun.builder().build());
        Path marker = dir.resolve("planted-module-ran");
        for (String module : new String[]{"argparse.py", "json.py", "numpy.py", "pyarrow.py"}) {
            Files.writeString(kept.resolve(module), "open('" + marker + "', 'w').write('" + module + "')\n");
        }
        TorchDataset.Verification v = TorchDataset.verify(kept, TorchRun.builder().build());
        assertThat(marker).doesNotExist();
        assertThat(v.passed()).isTrue();
        assertThat(v.samples()).isEqualTo(SAMPLES);
    }

    @Test
    void theWorkersCalls_reachTheRank_withSyscallsPython() throws IOException {
        Path kept = dir.resolve("dataset");
        dataset(TorchDataFormat.IMAGE_FOLDER).create(kept, TorchRun.builder().build());
        RunResult r = TorchPresent.passedOnTwoRanks(Files.createDirectories(dir.resolve("target")),
                TorchBenchmarks.dataloader().dataset(kept).syscalls(SyscallTracing.PYTHON));
        // each sample is one os.open of its file, made in a worker: the workers' calls came with their samples
        assertThat(r.measurements().get("syscall:open").count()).isGreaterThanOrEqualTo(SAMPLES);
        assertThat(r.measurements().get("syscall:read").bytes()).isGreaterThanOrEqualTo(
                r.measurements().get("sample").bytes());
        // the kernel's count of read calls (the rank's and its workers', pipes included) bounds Python's from above
        assertThat(r.counters().get("read_calls_upper_bound"))
                .isGreaterThanOrEqualTo(r.measurements().get("syscall:read").count());
    }

    @Test
    void theDatasetsArguments_areCheckedAtOnce() {
        assertThatThrownBy(() -> TorchDataset.builder().samples(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("samples must be in 1..100000000, was 0");
        assertThatThrownBy(() -> TorchDataset.builder().sampleSize(DataSize.ofBytes(8)))
                .hasMessageContaining("sample_size must be in 16B..1GiB, was 8B");
        assertThatThrownBy(() -> TorchDataset.builder().sizeJitter(1.5)).hasMessageContaining("size_jitter");
        assertThatThrownBy(() -> TorchDataset.builder().format(TorchDataFormat.FILES).build())
                .hasMessageContaining("format files is md5_check's dataset");
        assertThatThrownBy(() -> TorchBenchmarks.dataloader().format(TorchDataFormat.ARROW).dataset(dir))
                .hasMessageContaining("holds no prism-dataset.json, so it is a dataset of files, not format arrow");
        assertThat(dataset(TorchDataFormat.TAR_SHARDS).toString())
                .isEqualTo("tar-shards: 600 samples of 16KiB ± 25% in shards of 2MiB, seed 42");
        // a format's own settings only are recorded, so results of files pair with those from before formats
        assertThat(TorchBenchmarks.dataloader().recordedParameters()).doesNotContainKeys("format", "samples", "row_group");
        assertThat(TorchBenchmarks.dataloader().format(TorchDataFormat.PARQUET).recordedParameters())
                .containsKeys("format", "samples", "row_group").doesNotContainKeys("files", "mmap", "classes");
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
