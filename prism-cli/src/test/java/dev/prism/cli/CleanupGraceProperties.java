package dev.prism.cli;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Under SLURM the clean-up after a signal must end before KillWait's SIGKILL, whatever KillWait a site set. */
class CleanupGraceProperties {
    @Property
    void theGraceEndsASecondBeforeKillWait_andIsNeverMoreThanTenSecondsNorLessThanOne(@ForAll @IntRange(min = 0, max = 65_533) int killWait) {
        Duration grace = ScenarioExecution.cleanupGraceWithin(Duration.ofSeconds(killWait));

        assertThat(grace).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(10));
        if (killWait >= 2) {
            assertThat(grace).isLessThanOrEqualTo(Duration.ofSeconds(killWait - 1));
        }
        if (killWait >= 11) {
            assertThat(grace).isEqualTo(Duration.ofSeconds(10));
        }
    }
}
