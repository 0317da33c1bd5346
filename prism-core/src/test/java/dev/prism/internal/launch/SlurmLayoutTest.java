package dev.prism.internal.launch;

import dev.prism.internal.output.TextTable;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class SlurmLayoutTest {
    @Test
    void hostLists_expandRangesAndKeepTheirPadding() {
        assertThat(SlurmLayout.hosts("n[1-3,7],gpu01")).containsExactly("n1", "n2", "n3", "n7", "gpu01");
        assertThat(SlurmLayout.hosts("gpu[007-009]")).containsExactly("gpu007", "gpu008", "gpu009");
        assertThat(SlurmLayout.hosts("login")).containsExactly("login");
        assertThat(SlurmLayout.tasksPerNode("2(x3),1")).containsExactly(2, 2, 2, 1);
    }

    @Test
    void aRanksNode_followsTheBlockOrCyclicLayout_andIsUnknownForAnArbitraryOne() {
        Map<String, String> block = Map.of("SLURM_STEP_NODELIST", "n[1-2]", "SLURM_STEP_TASKS_PER_NODE", "2(x2)");
        assertThat(SlurmLayout.nodeOf(0, block)).contains("n1");
        assertThat(SlurmLayout.nodeOf(1, block)).contains("n1");
        assertThat(SlurmLayout.nodeOf(2, block)).contains("n2");
        assertThat(SlurmLayout.nodeOf(4, block)).isEmpty();
        Map<String, String> cyclic = Map.of("SLURM_STEP_NODELIST", "n[1-2]", "SLURM_STEP_TASKS_PER_NODE", "2,1",
                "SLURM_DISTRIBUTION", "cyclic");
        assertThat(SlurmLayout.nodeOf(0, cyclic)).contains("n1");
        assertThat(SlurmLayout.nodeOf(1, cyclic)).contains("n2");
        assertThat(SlurmLayout.nodeOf(2, cyclic)).contains("n1");
        assertThat(SlurmLayout.nodeOf(0, Map.of("SLURM_STEP_NODELIST", "n[1-2]", "SLURM_STEP_TASKS_PER_NODE", "1(x2)",
                "SLURM_DISTRIBUTION", "arbitrary"))).isEmpty();
        assertThat(SlurmLayout.nodeOf(0, Map.of())).isEmpty();
    }

    @Test
    void ranksAreWrittenAsRanges() {
        assertThat(TextTable.ranks(new TreeSet<>(java.util.List.of(0, 1, 2, 3, 5)))).isEqualTo("ranks 0-3, 5");
        assertThat(TextTable.ranks(new TreeSet<>(java.util.List.of(4)))).isEqualTo("rank 4");
    }
}
