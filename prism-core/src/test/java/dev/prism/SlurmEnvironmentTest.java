package dev.prism;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlurmEnvironmentTest {
    @Test
    void firstHost_expandsTheFirstRangeOfAHostList() {
        assertThat(SlurmEnvironment.firstHost("node1")).isEqualTo("node1");
        assertThat(SlurmEnvironment.firstHost("gpu[007-010,012],cpu1")).isEqualTo("gpu007");
        assertThat(SlurmEnvironment.firstHost("rack1-n[3,5]")).isEqualTo("rack1-n3");
        assertThat(SlurmEnvironment.firstHost("a,b[1-2]")).isEqualTo("a");
        assertThat(SlurmEnvironment.firstHost("pre[01-02]post")).isEqualTo("pre01post");
    }

    @Test
    void from_readsRankSizeNodeAndTheCoordinator() {
        SlurmEnvironment env = SlurmEnvironment.from(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "8", "SLURM_NODEID", "1",
                "SLURM_STEP_NODELIST", "gpu[007-010]", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0")).orElseThrow();
        assertThat(env.rank()).isEqualTo(3);
        assertThat(env.worldSize()).isEqualTo(8);
        assertThat(env.nodeId()).isEqualTo(1);
        assertThat(env.coordinatorHost()).isEqualTo("gpu007");
        assertThat(env.coordinatorPort()).isBetween(20_000, 39_999);
        assertThat(env.step()).isEqualTo("4242.0");
        assertThat(env.meetingDirectory(java.nio.file.Path.of("/shared/meet")))
                .isEqualTo(java.nio.file.Path.of("/shared/meet/prism-step-4242.0"));
        // every rank of the step computes the same port
        assertThat(SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "8", "SLURM_STEP_NODELIST",
                "gpu[007-010]", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0")).orElseThrow().coordinatorPort())
                .isEqualTo(env.coordinatorPort());
    }

    @Test
    void masterAddrAndPort_win() {
        SlurmEnvironment env = SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_STEP_NODELIST", "n[1-2]", "MASTER_ADDR", "10.1.2.3", "MASTER_PORT", "29500")).orElseThrow();
        assertThat(env.coordinatorHost()).isEqualTo("10.1.2.3");
        assertThat(env.coordinatorPort()).isEqualTo(29500);
    }

    @Test
    void outsideSlurm_isEmpty_andBadValuesNameTheVariable() {
        assertThat(SlurmEnvironment.from(Map.of())).isEmpty();
        assertThatThrownBy(() -> SlurmEnvironment.from(Map.of("SLURM_PROCID", "x", "SLURM_NTASKS", "2")))
                .hasMessageContaining("SLURM_PROCID must be an integer, was 'x'");
        assertThatThrownBy(() -> SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2")))
                .hasMessageContaining("MASTER_ADDR").hasMessageContaining("SLURM_STEP_NODELIST");
        assertThatThrownBy(() -> SlurmEnvironment.from(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "2", "MASTER_ADDR", "h")))
                .hasMessageContaining("SLURM_PROCID must be in 0..1, was 5");
    }
}
