package dev.prism;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarksTest {
    @Test
    void providers_areFoundThroughServiceLoader() {
        assertThat(Benchmarks.names()).contains("test_noop");
        Benchmark b = Benchmarks.create("test_noop", Map.of("loops", "3"));
        assertThat(b.parameters().asText()).containsEntry("loops", "3");
    }

    @Test
    void unknownName_listsTheKnownOnes() {
        assertThatThrownBy(() -> Benchmarks.provider("no_such"))
                .isInstanceOf(UnknownBenchmarkException.class)
                .hasMessageContaining("'no_such'").hasMessageContaining("test_noop");
        assertThatThrownBy(() -> Suite.named("huge")).isInstanceOf(UnknownBenchmarkException.class)
                .hasMessageContaining("quick");
    }

    @Test
    void suite_collectsEachProvidersConfigurations() {
        assertThat(Suite.QUICK.benchmarks()).extracting(Benchmark::name).contains("test_noop");
    }
}
