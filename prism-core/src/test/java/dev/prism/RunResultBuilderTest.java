package dev.prism;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A run's result is made by a builder, its constructor no API: a copy changes what it names and keeps the rest. */
class RunResultBuilderTest {
    private static RunResult.Builder passing() {
        return RunResult.builder().runId("r1").benchmark("touch").parameters(Map.of("files", "10")).tasks(2)
                .launcher("threads").timeout(Duration.ofMinutes(1)).stallThreshold(Duration.ofSeconds(1))
                .status(Status.PASS).provenance(Provenance.UNKNOWN).conditions(HostConditions.UNKNOWN);
    }

    @Test
    void aCopy_isEqualToItsOriginal_untilAComponentChanges() {
        RunResult run = passing().build();
        assertThat(run.toBuilder().build()).isEqualTo(run).hasSameHashCodeAs(run);
        RunResult relabelled = run.toBuilder().runId("r2").build();
        assertThat(relabelled).isNotEqualTo(run);
        assertThat(relabelled.runId()).isEqualTo("r2");
        assertThat(relabelled.parameters()).isEqualTo(run.parameters());
        assertThat(relabelled.tasks()).isEqualTo(2);
    }

    @Test
    void statusAndFailure_mustAgree_andWhatIsRequiredIsSaid() {
        assertThatThrownBy(() -> passing().failure(new Failure(Failure.Kind.EXCEPTION, "boom", 0)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status PASS does not agree with failure");
        assertThatThrownBy(() -> passing().status(Status.FAIL).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status FAIL does not agree");
        assertThatThrownBy(() -> RunResult.builder().status(Status.PASS).build()).isInstanceOf(NullPointerException.class)
                .hasMessage("provenance");
        assertThatThrownBy(() -> passing().warmups(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("warmups must be at least 0, was -1");
    }

    @Test
    void theCollections_areCopies() {
        java.util.Map<String, String> parameters = new java.util.HashMap<>(Map.of("files", "10"));
        RunResult run = passing().parameters(parameters).build();
        parameters.put("files", "20");
        assertThat(run.parameters()).containsEntry("files", "10");
        assertThatThrownBy(() -> run.parameters().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }
}
