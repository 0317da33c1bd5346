package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParameterProperties {
    private static final Parameter<Integer> FILES = Parameter.ofInt("files", 10, 1, 1000, "files", "files per rank");
    private static final Parameter<DataSize> SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(4),
            DataSize.ofBytes(1), DataSize.ofGiB(1), "bytes per file");

    @Property
    void intOutOfRange_alwaysNamesParameterValueAndRange(@ForAll int value) {
        if (value >= 1 && value <= 1000) {
            assertThat(FILES.check(value)).isEqualTo(value);
            return;
        }
        assertThatThrownBy(() -> FILES.check(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("files").hasMessageContaining(String.valueOf(value)).hasMessageContaining("1..1000");
        assertThatThrownBy(() -> Parameters.defaults(List.of(FILES)).withText(Map.of("files", String.valueOf(value))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("files");
    }

    @Property
    void sizeRoundTripsThroughText(@ForAll @LongRange(min = 1, max = 1L << 30) long bytes) {
        DataSize size = DataSize.ofBytes(bytes);
        assertThat(SIZE.parse(SIZE.format(size))).isEqualTo(size);
    }

    @Property
    void aDecimalSizeRoundTripsThroughText(@ForAll @LongRange(min = 1, max = 999_999) long amount,
                                           @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 4) int power) {
        DataSize size = DataSize.ofBytes(amount * (long) Math.pow(1000, power));
        assertThat(DataSize.parse(size.toString())).isEqualTo(size);
    }

    @Property
    void scenarioTasksOutOfRange_alwaysNameTasks(@ForAll int tasks) {
        if (tasks >= 1 && tasks <= 100_000) {
            Scenario.builder().tasks(tasks);
            return;
        }
        assertThatThrownBy(() -> Scenario.builder().tasks(1, tasks)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tasks").hasMessageContaining(String.valueOf(tasks));
    }

    @Property
    void scenarioRepetitionsAndWarmupsOutOfRange_alwaysNameTheParameter(@ForAll @IntRange(min = -1000, max = 0) int bad) {
        assertThatThrownBy(() -> Scenario.builder().repetitions(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("repetitions").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> Scenario.builder().warmups(bad - 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("warmups").hasMessageContaining(String.valueOf(bad - 1));
    }

    @Property
    void scenarioTimeoutOutOfRange_namesTimeout(@ForAll @LongRange(min = -1_000_000, max = 999_999) long nanos) {
        assertThatThrownBy(() -> Scenario.builder().timeout(Duration.ofNanos(nanos)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> Scenario.builder().stallThreshold(Duration.ofNanos(nanos)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stallThreshold");
    }

    @Property
    void unknownParameterNames_listTheKnownOnes(@ForAll("names") String name) {
        assertThatThrownBy(() -> Parameters.defaults(List.of(FILES, SIZE)).withText(Map.of(name, "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(name)
                .hasMessageContaining("files, file_size");
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> names() {
        return net.jqwik.api.Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12)
                .filter(s -> !s.equals("files") && !s.equals("file_size"));
    }
}
