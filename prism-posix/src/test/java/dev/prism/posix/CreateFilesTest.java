package dev.prism.posix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.DataSize;
import dev.prism.Failure;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.Suite;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.posix.metadata.DirectoryLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CreateFilesTest {
    @TempDir
    Path target;
    @TempDir
    Path out;

    @Test
    void twoThreads_createEveryFileAndWriteTheDocument() throws IOException {
        Benchmark createFiles = PosixBenchmarks.createFiles().files(50).fileSize(DataSize.ofKiB(8));
        ScenarioResult result = Scenario.builder().target(target).benchmark(createFiles).tasks(2)
                .runId("e2e").output(out).build().execute();

        assertThat(result.passed()).as(result.failures().toString()).isTrue();
        RunResult run = result.runs().get(0);
        assertThat(run.measurements().keySet()).containsExactly("create", "open", "write", "close");
        assertThat(run.measurement("open").count()).isEqualTo(100);
        assertThat(run.measurement("write").bytes()).isEqualTo(100L * 8192);
        assertThat(run.measurement("write").bytesPerSecond()).isPositive();
        assertThat(run.measurement("create").meanNanos())
                .isGreaterThanOrEqualTo(run.measurement("open").meanNanos());
        assertThat(target.resolve("prism-e2e")).doesNotExist();

        JsonNode doc = new ObjectMapper().readTree(out.resolve("01-create_files-t2.json").toFile());
        assertThat(doc.get("schema").asText()).isEqualTo("prism.run/1");
        assertThat(doc.get("benchmark").asText()).isEqualTo("create_files");
        assertThat(doc.get("status").asText()).isEqualTo("PASS");
        assertThat(doc.get("tasks").asInt()).isEqualTo(2);
        assertThat(doc.at("/parameters/files").asText()).isEqualTo("50");
        assertThat(doc.at("/parameters/file_size").asText()).isEqualTo("8KiB");
        assertThat(doc.at("/measurements/open/count").asLong()).isEqualTo(100);
        assertThat(doc.at("/measurements/write/bytes").asLong()).isEqualTo(100L * 8192);
        assertThat(doc.at("/measurements/open/p99Nanos").asLong()).isPositive();
        assertThat(doc.at("/measurements/open/histogram").asText()).isNotBlank();
        assertThat(doc.at("/repetitions/0/ranks")).hasSize(2);
        assertThat(doc.at("/repetitions/0/ranks/1/measurements/open/count").asLong()).isEqualTo(50);
        assertThat(doc.at("/target/filesystemType").asText()).isNotBlank();
        assertThat(doc.at("/target/mountPoint").asText()).isNotBlank();
        assertThat(doc.at("/host/cpus").asInt()).isPositive();
    }

    @Test
    void sharedDirectory_putsEveryRanksFilesInOneDirectory() {
        List<Long> counts = new CopyOnWriteArrayList<>();
        Benchmark shared = PosixBenchmarks.createFiles().files(20).fileSize(DataSize.ofBytes(100))
                .directory(DirectoryLayout.SHARED);
        Benchmark spy = countingAfterRun(shared, counts);
        RunResult run = Scenario.builder().target(target).benchmark(spy).tasks(3).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(counts).containsOnly(60L);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(DirectoryLayout.class)
    void fourRanksAsProcesses_createEveryFile(DirectoryLayout layout) throws IOException {
        RunResult run = Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles().files(25)
                .directory(layout)).tasks(4).launcher(dev.prism.Launcher.processes()).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.measurement("open").count()).isEqualTo(100);
        assertThat(run.repetitions().get(0).ranks()).hasSize(4)
                .allSatisfy(r -> assertThat(r.measurements().get("open").count()).isEqualTo(25));
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void fsync_isTimedAsItsOwnOperation() {
        RunResult run = Scenario.builder().target(target)
                .benchmark(PosixBenchmarks.createFiles().files(5).fsync(true)).build().execute().runs().get(0);
        assertThat(run.measurement("fsync").count()).isEqualTo(5);
    }

    @Test
    void filesLargerThanOneBlock_areWrittenInFull() {
        RunResult run = Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles().files(2)
                .fileSize(DataSize.parse("10000")).blockSize(DataSize.ofKiB(4))).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.measurement("write").bytes()).isEqualTo(20000);
    }

    @Test
    void moreThanTheTargetHoldsIsRefusedBeforeAnyFileIsWritten() throws IOException {
        RunResult run = Scenario.builder().target(target).runId("full").benchmark(PosixBenchmarks.createFiles()
                .files(100_000_000).fileSize(DataSize.ofGiB(64))).build().execute().runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.REFUSED);
        assertThat(run.failure().message()).contains("files × file_size × tasks").contains("free");
        assertThat(run.measurements()).isEmpty();
    }

    @Test
    void badParameters_nameTheParameter() {
        assertThatThrownBy(() -> PosixBenchmarks.createFiles().files(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("files must be in 1..100000000, was 0");
        assertThatThrownBy(() -> PosixBenchmarks.createFiles().fileSize(DataSize.ofBytes(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file_size");
        assertThatThrownBy(() -> Benchmarks.create("create_files", Map.of("directory", "flat")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("directory").hasMessageContaining("per-rank|shared");
        assertThatThrownBy(() -> Benchmarks.create("create_files", Map.of("filez", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'filez'").hasMessageContaining("files");
    }

    @Test
    void provider_isFoundAndJoinsTheQuickSuite() {
        assertThat(Benchmarks.create("create_files", Map.of("files", "7")).parameters().asText())
                .containsEntry("files", "7");
        assertThat(Suite.QUICK.benchmarks()).extracting(Benchmark::name).contains("create_files");
    }

    @Test
    void typedFactory_isImmutable() {
        CreateFiles base = PosixBenchmarks.createFiles();
        CreateFiles changed = base.files(5);
        assertThat(base.parameters().get(CreateFiles.FILES)).isEqualTo(1000);
        assertThat(changed.parameters().get(CreateFiles.FILES)).isEqualTo(5);
    }

    /** Wraps a benchmark so that, after the timed phase, each rank counts the files in the shared directory. */
    private static Benchmark countingAfterRun(Benchmark inner, List<Long> counts) {
        return Benchmark.builder(inner.name()).parameters(inner.parameters()).workload(() -> {
            Workload w = inner.newWorkload();
            return new Workload() {
                @Override
                public void setup(WorkloadContext ctx) throws Exception {
                    w.setup(ctx);
                }

                @Override
                public void run(WorkloadContext ctx) throws Exception {
                    w.run(ctx);
                }

                @Override
                public void validate(WorkloadContext ctx) throws Exception {
                    w.validate(ctx);
                    try (Stream<Path> files = Files.list(ctx.sharedDirectory())) {
                        counts.add(files.count());
                    }
                }
            };
        }).build();
    }
}
