package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.DataSize;
import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.posix.data.DatasetLayout;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.internal.PythonFileCalls;
import dev.prism.spi.PythonInterpreter;
import dev.prism.spi.ChildProcess;
import dev.prism.testing.FaultFs;
import dev.prism.testing.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The paper's interfaces (§4.4): create, list, move, delete and md5 through Python's open and os.* and through fsspec,
 * each call timed in a Python worker per rank, against the same benchmarks through libc. Skipped without a Python that
 * has fsspec unless PRISM_REQUIRE_TORCH=1 (scripts/python-venv.sh installs it with torch).
 */
class PythonAccessTest {
    /** 8 KiB to 4 MiB files, 12 MiB in all, a few of each size: every read path, quickly */
    private static final DatasetSpec SMALL_DATASET = new DatasetSpec(List.of(DataSize.ofKiB(8), DataSize.ofKiB(100),
            DataSize.ofMiB(4)), 4, DataSize.ofMiB(12), DatasetLayout.FLAT, 1, 42);

    @TempDir
    Path target;

    @BeforeAll
    static void fsspecIsThere() throws IOException {
        ChildProcess.Result r = ChildProcess.of(List.of(PythonInterpreter.defaultPath().toString(), "-c", "import fsspec"))
                .timeout(Duration.ofMinutes(1)).run();
        Required.require(r.exitCode() == 0, "PRISM_REQUIRE_TORCH", "no fsspec in " + PythonInterpreter.defaultPath());
    }

    private static List<Benchmark> fiveBenchmarks(Access access) {
        return List.of(PosixBenchmarks.createFiles().files(120).fsync(true).access(access),
                PosixBenchmarks.listFiles().files(120).access(access),
                PosixBenchmarks.moveFiles().files(120).access(access),
                PosixBenchmarks.deleteFiles().files(120).access(access),
                PosixBenchmarks.md5Check().chunkSize(DataSize.ofKiB(64)).access(access).generate(SMALL_DATASET));
    }

    /** @return per benchmark, each operation's count (and errors, which must be none) */
    private Map<String, Map<String, Long>> counts(Access access) {
        Scenario.Builder s = Scenario.builder().target(target).tasks(2).timeout(Duration.ofMinutes(5));
        fiveBenchmarks(access).forEach(s::benchmark);
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (RunResult r : s.build().execute().runs()) {
            assertThat(r.passed()).as(access + " " + r.benchmark() + ": " + r.failure()).isTrue();
            Map<String, Long> ops = new TreeMap<>();
            r.measurements().forEach((op, m) -> {
                assertThat(m.errors()).as(access + " " + r.benchmark() + " " + op).isZero();
                ops.put(op, m.count());
            });
            counts.put(r.benchmark(), ops);
        }
        return counts;
    }

    @Test
    void pythonAndFsspec_runAllFiveBenchmarksAtTwoRanks_withTheNativeRunsCounts() {
        Map<String, Map<String, Long>> nativeCounts = counts(Access.NATIVE);
        assertThat(nativeCounts.get("create_files")).containsEntry("create", 240L).containsEntry("fsync", 240L);
        assertThat(nativeCounts.get("list_files")).containsEntry("stat", 240L);
        for (Access access : List.of(Access.PYTHON, Access.FSSPEC)) {
            assertThat(counts(access)).as(access.name()).isEqualTo(nativeCounts);
        }
    }

    @Test
    void md5CheckWithoutHashing_readsEveryByteInPythonToo() {
        RunResult r = Scenario.builder().target(target).benchmark(PosixBenchmarks.md5Check().chunkSize(DataSize.ofKiB(64))
                .access(Access.PYTHON).hash(false).generate(SMALL_DATASET)).timeout(Duration.ofMinutes(5)).build()
                .execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("file").bytes()).isEqualTo(SMALL_DATASET.bytes());
        assertThat(r.measurement("read").bytes()).isEqualTo(SMALL_DATASET.bytes());
        assertThat(r.notes().get("hash")).contains("none hashed");
    }

    /** faultfs adds 3 ms to every rename: each call Python timed holds it, so no sample is IPC or a guess */
    @Test
    void aCallsSample_isThatCall_asTheFilesystemDelayedIt() throws Exception {
        try (FaultFs fs = FaultFs.mount(Files.createDirectories(target.resolve("fs")))) {
            fs.rule("rename", "*", Duration.ofMillis(3), null);
            for (Access access : List.of(Access.PYTHON, Access.FSSPEC)) {
                Path where = Files.createDirectories(fs.mountPoint().resolve(access.name()));
                RunResult r = Scenario.builder().target(where).benchmark(PosixBenchmarks.moveFiles().files(40).access(access))
                        .timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);
                assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
                Measurement rename = r.measurement("rename");
                assertThat(rename.count()).isEqualTo(40);
                assertThat(rename.minNanos()).as(access + " rename").isGreaterThanOrEqualTo(Duration.ofMillis(3).toNanos());
                // the rehearsal's renames ran on the same storage, before the clock: none is a sample
                assertThat(fs.log().stream().filter(l -> l.startsWith("rename ")).count()).isGreaterThan(40);
                assertThat(r.notes()).containsKey("python");
            }
        }
    }

    /**
     * faultfs adds 20 ms to every write the filesystem serves: under fsspec, whose files buffer, the bytes must reach it
     * within the timed write (fsspec's flush is part of it), not in close, as through Python's unbuffered open.
     */
    @Test
    void underFsspec_theWriteRowHoldsTheFilesystemsWrite_notABufferCopy() throws Exception {
        try (FaultFs fs = FaultFs.mount(Files.createDirectories(target.resolve("fs")))) {
            fs.rule("write", "*/rank-*", Duration.ofMillis(20), null);
            for (Access access : List.of(Access.PYTHON, Access.FSSPEC)) {
                Path where = Files.createDirectories(fs.mountPoint().resolve(access.name()));
                RunResult r = Scenario.builder().target(where).benchmark(PosixBenchmarks.createFiles().files(5).access(access))
                        .timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);
                assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
                assertThat(r.measurement("write").minNanos()).as(access + " write").isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
                assertThat(r.measurement("close").maxNanos()).as(access + " close").isLessThan(Duration.ofMillis(20).toNanos());
            }
        }
    }

    @Test
    void aFailedCall_failsTheRank_namingCallPathAndErrno() throws Exception {
        try (FaultFs fs = FaultFs.mount(Files.createDirectories(target.resolve("fs")))) {
            fs.rule("unlink", "*/doomed/file-7.dat", Duration.ZERO, "EIO");
            RunResult r = Scenario.builder().target(fs.mountPoint()).benchmark(PosixBenchmarks.deleteFiles().files(20)
                    .access(Access.PYTHON)).timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);
            assertThat(r.passed()).isFalse();
            assertThat(r.failure().message()).contains("unlink ").contains("doomed/file-7.dat").contains("(EIO)");
            // the seven calls before it were timed
            assertThat(r.measurement("unlink").count()).isEqualTo(7);
        }
    }

    @Test
    void whatAPythonWorkerCannotDo_isRefusedNamingWhy() throws IOException {
        assertThatThrownBy(() -> PosixBenchmarks.folderBench().access(Access.FSSPEC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("access").hasMessageContaining("native");
        assertThatThrownBy(() -> PosixBenchmarks.md5Check().direct(true).access(Access.PYTHON).checked())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("direct=true").hasMessageContaining("access=python");
        assertThat(PythonFileCalls.REHEARSAL_FILES).isPositive();
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }
}
