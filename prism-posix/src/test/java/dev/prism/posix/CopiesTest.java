package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.DataSize;
import dev.prism.Sweep;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.posix.workflows.DevWorkflows;
import dev.prism.posix.workflows.WorkflowBenchmark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every benchmark type is copied with new parameter values one way ({@code Benchmark.withText}, which typed setters
 * and sweeps share): the copy keeps its type and what was set before, checks each value by the benchmark's own
 * declaration, and is the configuration its provider makes from the same values.
 */
class CopiesTest {
    @Test
    void aPosixBenchmark_copiedByText_keepsItsTypeAndWhatWasSet_andIsWhatItsProviderMakes() {
        CreateFiles copy = PosixBenchmarks.createFiles().fileSize(DataSize.ofKiB(8)).withText(Map.of("files", "7"));
        assertThat(copy.parameters().get(PosixBenchmark.FILES)).isEqualTo(7);
        assertThat(copy.parameters().get(PosixBenchmark.FILE_SIZE)).isEqualTo(DataSize.ofKiB(8));
        assertThat(copy).isEqualTo(Benchmarks.create("create_files", Map.of("files", "7", "file_size", "8KiB")));
        assertThatThrownBy(() -> copy.withText(Map.of("files", "0"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("files").hasMessageContaining("was 0");
    }

    @Test
    void aWorkflow_sweptByText_isTheSameProgramWithEachValue() {
        WorkflowBenchmark status = DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, 50);
        List<Benchmark> swept = Sweep.of(status).param("scans", "1", "2").benchmarks();
        assertThat(swept).allSatisfy(b -> assertThat(b).isInstanceOf(WorkflowBenchmark.class))
                .extracting(b -> b.parameters().get(DevWorkflows.SCANS)).containsExactly(1, 2);
        assertThat(swept).allSatisfy(b -> assertThat(b.parameters().get(DevWorkflows.REPO_FILES)).isEqualTo(50));
        assertThat(swept.get(1)).isEqualTo(Benchmarks.create("git_status", Map.of("files", "50", "scans", "2")));
    }
}
