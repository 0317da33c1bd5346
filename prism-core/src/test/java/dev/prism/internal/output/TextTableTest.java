package dev.prism.internal.output;

import dev.prism.RepetitionStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table's interval over repetitions is shown as it is: found on the log scale, it is not symmetric about the
 * mean, so a ± of its upper reach misread it (readdir 3.71 ms "±58.78 s"); two repetitions give none worth reading.
 */
class TextTableTest {
    @Test
    void theIntervalOverRepetitions_readsAsItsTwoEnds_nAForTwoRepetitions_andADashForOne() {
        assertThat(TextTable.interval(new RepetitionStats(5, 3_710_000, 2_900_000, 4_700_000, 0, 0, 0))).isEqualTo("[2.90 ms, 4.70 ms]");
        assertThat(TextTable.interval(new RepetitionStats(2, 3_710_000, 1, 58_780_000_000.0, 0, 0, 0))).isEqualTo("n/a");
        assertThat(TextTable.interval(new RepetitionStats(1, 3_710_000, 3_710_000, 3_710_000, 0, 0, 0))).isEqualTo("-");
    }
}
