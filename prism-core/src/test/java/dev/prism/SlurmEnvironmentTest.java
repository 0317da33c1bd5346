package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void from_readsRankSizeAndNode_andLeavesTheCoordinatorToRankZerosOwnPublication() {
        SlurmEnvironment env = SlurmEnvironment.from(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "8", "SLURM_NODEID", "1",
                "SLURM_STEP_NODELIST", "gpu[007-010]", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0")).orElseThrow();
        assertThat(env.rank()).isEqualTo(3);
        assertThat(env.worldSize()).isEqualTo(8);
        assertThat(env.nodeId()).isEqualTo(1);
        assertThat(env.step()).isEqualTo("4242.0");
        assertThat(env.meetingDirectory(java.nio.file.Path.of("/shared/meet")))
                .isEqualTo(java.nio.file.Path.of("/shared/meet/prism-step-4242.0"));
        // no node of the list is assumed to host rank 0, and no port is derived: rank 0 publishes both
        assertThat(env.publishesCoordinator()).isTrue();
        assertThat(env.coordinatorHost()).isEmpty();
        assertThat(env.coordinatorPort()).isZero();
        assertThat(env.endpointFile(java.nio.file.Path.of("/lustre/t")))
                .isEqualTo(java.nio.file.Path.of("/lustre/t/.prism-step-4242.0.coordinator"));
    }

    @Test
    void stepsThatDerivedPortsUsedToShare_nowListenOnPortsTheKernelPicks() throws Exception {
        // job J step 31 and job J+1 step 0 once derived the same port (31·J + 31 = 31·(J+1) + 0)
        SlurmEnvironment a = SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "4242",
                "SLURM_STEP_ID", "31")).orElseThrow();
        SlurmEnvironment b = SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "4243",
                "SLURM_STEP_ID", "0")).orElseThrow();
        try (java.net.ServerSocket first = new java.net.ServerSocket(a.coordinatorPort());
             java.net.ServerSocket second = new java.net.ServerSocket(b.coordinatorPort())) {
            assertThat(first.getLocalPort()).isNotEqualTo(second.getLocalPort()).isPositive();
        }
        assertThat(a.endpointFile(java.nio.file.Path.of("/t"))).isNotEqualTo(b.endpointFile(java.nio.file.Path.of("/t")));
    }

    @Test
    void masterAddrAndPort_win() {
        SlurmEnvironment env = SlurmEnvironment.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_STEP_NODELIST", "n[1-2]", "MASTER_ADDR", "10.1.2.3", "MASTER_PORT", "29500")).orElseThrow();
        assertThat(env.coordinatorHost()).isEqualTo("10.1.2.3");
        assertThat(env.coordinatorPort()).isEqualTo(29500);
        assertThat(env.publishesCoordinator()).isFalse();
    }

    @Test
    void outsideSlurm_isEmpty_andBadValuesNameTheVariable() {
        assertThat(SlurmEnvironment.from(Map.of())).isEmpty();
        assertThatThrownBy(() -> SlurmEnvironment.from(Map.of("SLURM_PROCID", "x", "SLURM_NTASKS", "2")))
                .hasMessageContaining("SLURM_PROCID must be an integer, was 'x'");
        assertThatThrownBy(() -> SlurmEnvironment.from(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "2", "MASTER_ADDR", "h")))
                .hasMessageContaining("SLURM_PROCID must be in 0..1, was 5");
    }

    @Test
    void killWait_isReadFromTheSlurmConfOfSlurmConf_inAnyCase_ignoringComments_elseSlurmsDefault(@TempDir java.nio.file.Path dir)
            throws Exception {
        assertThat(SlurmEnvironment.killWaitIn(java.util.List.of("ClusterName=x", "#KillWait=3", "killwait = 12 # short"))
                .orElseThrow()).isEqualTo(java.time.Duration.ofSeconds(12));
        assertThat(SlurmEnvironment.killWaitIn(java.util.List.of("KillWait=5", "KillWait=7"))).contains(java.time.Duration.ofSeconds(7));
        assertThat(SlurmEnvironment.killWaitIn(java.util.List.of("# KillWait=5", "KillWaitX=2", "KillWait=soon"))).isEmpty();

        java.nio.file.Path conf = java.nio.file.Files.writeString(dir.resolve("slurm.conf"), "SlurmdTimeout=30\nKillWait=5\n");
        assertThat(SlurmEnvironment.killWait(Map.of("SLURM_CONF", conf.toString()))).isEqualTo(java.time.Duration.ofSeconds(5));
        java.nio.file.Path silent = java.nio.file.Files.writeString(dir.resolve("silent.conf"), "ClusterName=x\n");
        assertThat(SlurmEnvironment.killWait(Map.of("SLURM_CONF", silent.toString()))).isEqualTo(SlurmEnvironment.DEFAULT_KILL_WAIT)
                .isEqualTo(java.time.Duration.ofSeconds(30));
    }
}
