package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.Failure;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.posix.workflows.DevWorkflows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real git, python, tar and fio, at 1 and 2 ranks. */
class DevWorkflowsTest {
    @TempDir
    Path target;

    record Case(String label, Benchmark benchmark, String operation, int perRank, String program) {
        @Override
        public String toString() {
            return label;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> cases = List.of(
                new Case("git_clone", DevWorkflows.gitClone().with(DevWorkflows.REPO_FILES, 60).with(DevWorkflows.COMMITS, 4)
                        .with(DevWorkflows.CLONES, 2), "clone", 2, "git"),
                new Case("git_status", DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, 60).with(DevWorkflows.COMMITS, 3)
                        .with(DevWorkflows.SCANS, 3), "status_warm", 3, "git"),
                new Case("env_create", DevWorkflows.envCreate().with(DevWorkflows.PACKAGES, 2).with(DevWorkflows.MODULES, 5),
                        "install", 1, "python"),
                new Case("env_activate", DevWorkflows.envActivate().with(DevWorkflows.ACTIVATIONS, 4), "activate", 4, "python"),
                new Case("tar_extract", DevWorkflows.tarExtract().with(DevWorkflows.TAR_FILES, 80).with(DevWorkflows.REPEATS, 2),
                        "extract", 2, "tar"),
                new Case("tar_create", DevWorkflows.tarCreate().with(DevWorkflows.TAR_FILES, 80).with(DevWorkflows.REPEATS, 2),
                        "create", 2, "tar"),
                new Case("fio", DevWorkflows.fio().with(DevWorkflows.SIZE, dev.prism.DataSize.ofMiB(4)), "fio_read", 1024, "fio"));
        List<Arguments> all = new ArrayList<>();
        for (Case c : cases) {
            for (int tasks : new int[]{1, 2}) {
                all.add(Arguments.of(c, tasks));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} with {1} rank(s)")
    @MethodSource("cases")
    void everyWorkflow_runsTheRealProgram(Case c, int tasks) throws IOException {
        RunResult r = Scenario.builder().target(target).benchmark(c.benchmark()).tasks(tasks)
                .timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement(c.operation()).count()).isEqualTo((long) c.perRank() * tasks);
        assertThat(r.notes()).containsKey(c.program());
        assertThat(r.notes().get(c.program())).isNotBlank().doesNotStartWith("unknown");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void fio_mapsItsFiguresIntoMeasurementsAndCounters() {
        RunResult r = Scenario.builder().target(target).benchmark(DevWorkflows.fio().with(DevWorkflows.RW, DevWorkflows.FioPattern.RANDRW)
                .with(DevWorkflows.SIZE, dev.prism.DataSize.ofMiB(4))).repetitions(2).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        // counters are per repetition: two repetitions do not double fio's figures
        assertThat(r.repetitions()).allSatisfy(rep -> assertThat(rep.counters().get("fio_read_ios")
                + rep.counters().get("fio_write_ios")).isEqualTo(1024));
        // ops/s is fio's IOPS (its I/Os over fio's own runtime), not samples over PRISM's process time
        for (var rep : r.repetitions()) {
            assertThat(rep.measurements().get("fio_read").opsPerSecond())
                    .isCloseTo(rep.counters().get("fio_read_iops"), org.assertj.core.data.Percentage.withPercentage(1));
        }
        assertThat(r.measurement("fio_read").bytes() + r.measurement("fio_write").bytes()).isEqualTo(2 * (4L << 20));
        assertThat(r.measurement("fio_read").p50Nanos()).isPositive();
        assertThat(r.counters().get("fio_read_iops")).isPositive();
    }

    @Test
    void fioWithSeveralJobs_isReadWhole() {
        // four jobs make fio's JSON far longer than an error message's tail: all of stdout must be kept
        RunResult r = Scenario.builder().target(target).benchmark(DevWorkflows.fio().with(DevWorkflows.NUMJOBS, 4)
                .with(DevWorkflows.SIZE, dev.prism.DataSize.ofMiB(1))).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.counters()).containsEntry("fio_read_ios", 4L * 256);
        assertThat(r.measurement("fio_read").count()).isEqualTo(4L * 256);
    }

    @Test
    void aMissingProgram_isAClearError() {
        RunResult r = Scenario.builder().target(target).benchmark(DevWorkflows.fio().with(DevWorkflows.FIO, "/no/such/fio"))
                .build().execute().runs().get(0);
        assertThat(r.failure().message()).contains("fio executable /no/such/fio does not exist");
        assertThat(Benchmarks.create("git_clone", Map.of("git", "/usr/bin/git")).parameters().asText())
                .containsEntry("git", "/usr/bin/git");
    }

    @Test
    void aFailingProgram_failsTheRunWithTheEndOfItsStderr() {
        RunResult r = Scenario.builder().target(target).benchmark(DevWorkflows.gitClone()
                .with(DevWorkflows.SOURCE, target.resolve("no-such-repository").toString())).build().execute().runs().get(0);
        assertThat(r.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(r.failure().message()).contains("git clone").contains("exited with code 128")
                .contains("does not exist");
    }

    @Test
    void badParameters_nameTheParameter() {
        assertThatThrownBy(() -> Benchmarks.create("fio", Map.of("rw", "sideways")))
                .hasMessageContaining("rw").hasMessageContaining("randread");
        assertThatThrownBy(() -> Benchmarks.create("git_clone", Map.of("clones", "0")))
                .hasMessageContaining("clones must be in 1..10000, was 0");
        assertThatThrownBy(() -> Benchmarks.create("env_create", Map.of("tool", "conda")))
                .hasMessageContaining("tool").hasMessageContaining("auto|venv|uv");
    }
}
