package dev.prism.examples;

import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.posix.PosixBenchmarks;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.report.Gate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Benchmarks as values, not names: a gate checked as it is written, a result found by its benchmark. */
class TypedLookupsTest {
    @Test
    void aGateAboutABenchmark_checksItsOperationAsItIsWritten() {
        CreateFiles create = PosixBenchmarks.createFiles().files(20);
        assertThatThrownBy(() -> Gate.expect(create).op("crate"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation must be one create_files measures (").hasMessageContaining("create")
                .hasMessageEndingWith("was 'crate'");
        assertThat(Gate.expect(create).op(CreateFiles.OP_CREATE).p99().below(Duration.ofSeconds(1))).isNotNull();
    }

    @Test
    void aGateIsCheckedAgainstTheScenario_andAResultFoundByItsBenchmark(@TempDir Path target) {
        CreateFiles small = PosixBenchmarks.createFiles().files(20);
        CreateFiles large = PosixBenchmarks.createFiles().files(40);
        Scenario scenario = Scenario.builder().target(target).benchmarks(List.of(small, large)).repetitions(1).warmups(0).build();
        Gate onFour = Gate.of(Gate.expect(small).tasks(4).op("create").p99().below(Duration.ofSeconds(1)));
        assertThatThrownBy(() -> onFour.requireMatches(scenario)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names 4 task(s); this run uses 1");
        ScenarioResult result = scenario.execute();
        RunResult run = result.run(large, 1);
        assertThat(run.parameters()).containsEntry("files", "40");
        assertThat(run.measurement(CreateFiles.OP_CREATE).count()).isEqualTo(40);
        assertThat(result.run(small, 1).measurement("create").count()).isEqualTo(20);
        assertThatThrownBy(() -> result.run(small, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no run of create_files");
    }
}
