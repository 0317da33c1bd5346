package dev.prism.internal.output;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class DurationsTest {
    @Test
    void measuredDurationsAreRoundedForAPerson_typedOnesKeepTheirExactForm() {
        assertThat(Durations.approximately(Duration.ofNanos(9_880_283_212L))).isEqualTo("9.9s");
        assertThat(Durations.approximately(Duration.ofNanos(15_123_000_000L))).isEqualTo("15.1s");
        assertThat(Durations.approximately(Duration.ofMillis(420))).isEqualTo("420ms");
        assertThat(Durations.approximately(Duration.ofNanos(850_400))).isEqualTo("850us");
        assertThat(Durations.approximately(Duration.ofSeconds(630))).isEqualTo("10m30s");
        assertThat(Durations.approximately(Duration.ofMillis(59_990))).isEqualTo("1m");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }

    @Property
    void anApproximationIsNeverInNanoseconds_andWithin5PercentOrHalfAUnit(@ForAll @LongRange(min = 1, max = 86_400_000_000_000L) long nanos) {
        String text = Durations.approximately(Duration.ofNanos(nanos));

        assertThat(text).doesNotContain("ns").matches("\\d+(\\.\\d)?(us|ms|s)|\\d+m(\\d+s)?");
        assertThat(Math.abs(parse(text) - nanos)).isLessThanOrEqualTo(Math.max(nanos / 20, 500L));
    }

    private static double parse(String text) {
        if (text.contains("m") && !text.endsWith("ms")) {
            String[] parts = text.split("m");
            return (Long.parseLong(parts[0]) * 60 + (parts.length > 1 ? Double.parseDouble(parts[1].replace("s", "")) : 0)) * 1e9;
        }
        if (text.endsWith("us")) {
            return Double.parseDouble(text.replace("us", "")) * 1e3;
        }
        if (text.endsWith("ms")) {
            return Double.parseDouble(text.replace("ms", "")) * 1e6;
        }
        return Double.parseDouble(text.replace("s", "")) * 1e9;
    }
}
