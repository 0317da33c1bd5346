package dev.prism.examples;

import dev.prism.report.Gate;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.junit.PrismTarget;
import dev.prism.junit.PrismTargetExtension;
import dev.prism.posix.PosixBenchmarks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An example storage acceptance test: qualify the directory given by {@code -Dprism.target=DIR}
 * (default: a temporary directory) with a metadata workload and a gate, failing with every reason.
 * Run it against a filesystem: {@code mvn test -pl prism-examples -Dtest=StorageAcceptanceTest -Dprism.target=/mnt/nfs/prism}.
 */
@ExtendWith(PrismTargetExtension.class)
class StorageAcceptanceTest {
    @Test
    void metadataOperationsMeetTheGate(@PrismTarget Path target) {
        ScenarioResult result = Scenario.builder().target(target)
                .benchmark(PosixBenchmarks.createFiles().files(200))
                .benchmark(PosixBenchmarks.listFiles().files(200))
                .tasks(1, 2).repetitions(2)
                .build().execute();

        Gate.of(Gate.expect("create_files").op("create").p99().below(Duration.ofSeconds(2)),
                Gate.expect("create_files").op("create").mean().below(Duration.ofMillis(200)),
                Gate.expect("list_files").op("stat").p99().below(Duration.ofMillis(500)),
                Gate.expect("create_files").op("write").bytesPerSecond().above(1_000_000))
                .evaluate(result.runs())
                .assertPassed();
    }

    @Test
    void aFailedGate_listsEveryReason(@PrismTarget Path target) {
        ScenarioResult result = Scenario.builder().target(target).benchmark(PosixBenchmarks.createFiles().files(20))
                .build().execute();
        Gate impossible = Gate.of(Gate.expect("create_files").op("create").p99().below(Duration.ofNanos(1)),
                Gate.expect("create_files").op("close").p50().below(Duration.ofNanos(1)));
        assertThatThrownBy(() -> impossible.evaluate(result.runs()).assertPassed())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("failed 2 of 2").hasMessageContaining("create p99").hasMessageContaining("close p50");
        assertThat(target).isEmptyDirectory();
    }
}
