package dev.prism.posix;

import dev.prism.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What can be known before any work is said by {@code Scenario.build()}, naming the parameter, and nothing is written. */
class BuildChecksTest {
    @TempDir
    Path target;

    @Test
    void aTreeTooLargeForItsDepthAndBreadth_failsAtBuild() {
        assertThatThrownBy(() -> Scenario.builder().target(target)
                .benchmarks(List.of(PosixBenchmarks.createFiles(), PosixBenchmarks.folderBench().depth(10).breadth(10))).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("depth=10 and breadth=10 make").hasMessageContaining("lower depth or breadth");
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void aDatasetThatIsNotThere_failsAtBuild() {
        Path missing = target.resolve("no-such-dataset");
        assertThatThrownBy(() -> Scenario.builder().target(target)
                .benchmark(PosixBenchmarks.md5Check().dataset(missing)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dataset " + missing + " is not an existing directory");
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void aTaskCountTwice_isRefusedByTheSetter() {
        assertThatThrownBy(() -> Scenario.builder().tasks(2, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tasks must be distinct task counts, was [2, 2]");
    }

    @Test
    void aTaskCountTheSlurmStepDoesNotHave_failsAtBuild() {
        dev.prism.SlurmEnvironment step = dev.prism.SlurmEnvironment.from(java.util.Map.of("SLURM_PROCID", "0",
                "SLURM_NTASKS", "4", "MASTER_ADDR", "127.0.0.1")).orElseThrow();
        assertThatThrownBy(() -> Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles())
                .launcher(dev.prism.Launcher.slurm(step)).tasks(4, 2).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tasks [4, 2]: under SLURM the task count is the step's (4, from SLURM_NTASKS), not 2");
        assertThat(Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles())
                .launcher(dev.prism.Launcher.slurm(step)).tasks(4).build().tasks()).containsExactly(4);
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void whatFits_builds() {
        assertThat(Scenario.builder().target(target).benchmarks(List.of(PosixBenchmarks.folderBench().depth(3).breadth(3),
                PosixBenchmarks.md5Check())).tasks(1, 2).build().benchmarks()).hasSize(2);
    }
}
