package dev.prism;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SuiteTest {
    @AfterEach
    void lackNothing() {
        TestSleepProvider.missing = null;
    }

    @Test
    void aSuitePlansEveryConfiguration_andRunsOnlyWhatThisMachineCanRun() {
        assertThat(Suite.STANDARD.plan()).filteredOn(e -> e.benchmark().name().equals("test_sleep")).hasSize(2)
                .allSatisfy(e -> assertThat(e.runs()).isTrue());
        assertThat(Suite.STANDARD.benchmarks()).extracting(Benchmark::name).contains("test_sleep");
        TestSleepProvider.missing = "sleep is not installed (apt-get install sleep)";
        assertThat(Suite.STANDARD.plan()).filteredOn(e -> e.benchmark().name().equals("test_sleep")).hasSize(2)
                .allSatisfy(e -> assertThat(e.missing()).isEqualTo("sleep is not installed (apt-get install sleep)"));
        assertThat(Suite.STANDARD.benchmarks()).extracting(Benchmark::name).doesNotContain("test_sleep");
        assertThat(Suite.QUICK.plan()).noneMatch(e -> e.benchmark().name().equals("test_sleep"));
    }

    @Test
    void suitesSayWhatTheyNeedAndTake_andAreFoundByName() {
        for (Suite s : Suite.values()) {
            assertThat(s.needs()).isNotBlank();
            assertThat(s.duration()).isNotBlank();
            assertThat(Suite.named(s.label())).isEqualTo(s);
        }
        assertThat(Suite.PAPER.tasks()).containsExactly(8, 16, 32, 64, 128, 256);
        assertThatThrownBy(() -> Suite.named("nightly")).hasMessageContaining("quick").hasMessageContaining("standard")
                .hasMessageContaining("paper");
    }
}
