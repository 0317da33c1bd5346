package dev.prism.report;

import dev.prism.DataSize;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Requirements built in Java are the file's: the same fields, derivation and checks. */
class QualificationBuilderTest {
    @Test
    void aBuiltQualification_equalsTheFileWithTheSameFields() {
        Qualification built = Qualification.builder().name("cluster-a").job(64, 8).headroom(1.5)
                .checkpoint("llama3-8b", Duration.ofSeconds(30)).checkpointEvery(Duration.ofMinutes(30))
                .data(2_000, DataSize.ofKiB(150), 1)
                .environment(10, Duration.ofSeconds(120)).repositoryFiles(2_000)
                .statP99(Duration.ofMillis(5)).listP99(Duration.ofMillis(200), 10_000).gitStatusP99(Duration.ofMillis(1500))
                .build();
        Qualification read = Qualification.fromJson("""
                {"name": "cluster-a", "job": {"nodes": 64, "gpusPerNode": 8}, "headroom": 1.5,
                 "checkpoint": {"model": "llama3-8b", "stallSeconds": 30, "intervalMinutes": 30},
                 "data": {"samplesPerSecondPerGpu": 2000, "bytesPerSample": "150KiB", "filesPerSample": 1},
                 "environment": {"packages": 10, "environmentSeconds": 120, "repositoryFiles": 2000},
                 "interactive": {"statP99": "5ms", "listP99": "200ms", "listDirectoryFiles": 10000, "gitStatusP99": "1500ms"}}""");
        assertThat(built.name()).isEqualTo("cluster-a");
        assertThat(built.jobRanks()).isEqualTo(512);
        assertThat(built.requirements()).isEqualTo(read.requirements());
        assertThat(Qualification.fromJson(Qualification.builder().ranks(8).statP99(Duration.ofMillis(2)).toJson())
                .requirements()).isEqualTo(Qualification.builder().ranks(8).statP99(Duration.ofMillis(2)).build().requirements());
    }

    @Test
    void eachFieldIsCheckedAtOnce_andTheWholeAtBuild_namingTheField() {
        assertThatThrownBy(() -> Qualification.builder().job(0, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job.nodes must be a positive number, was 0");
        assertThatThrownBy(() -> Qualification.builder().statP99(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interactive.statP99 must be a positive duration");
        assertThatThrownBy(() -> Qualification.builder().ranks(8).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name nothing to measure");
        assertThatThrownBy(() -> Qualification.builder().ranks(8).checkpoint("llama9", Duration.ofSeconds(5)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("checkpoint.model must be one of");
        assertThatThrownBy(() -> Qualification.builder().ranks(8).headroom(500).statP99(Duration.ofMillis(1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("headroom");
    }
}
