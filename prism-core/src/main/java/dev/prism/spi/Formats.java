package dev.prism.spi;

import dev.prism.internal.output.Durations;
import dev.prism.internal.output.TextTable;

import java.time.Duration;
import java.util.Map;
import java.util.SortedSet;

/**
 * Figures written the way PRISM's own output writes them, for plugins and tools whose messages sit beside
 * PRISM's: byte counts in binary units, latencies in the unit that suits them, durations as people type them,
 * rank sets as ranges and parameters as {@code k=v}.
 *
 * <pre>{@code
 * import dev.prism.spi.Formats;
 * import java.time.Duration;
 * import java.util.List;
 * import java.util.TreeSet;
 *
 * System.out.println(Formats.bytes(3 * 1024 * 1024)            // 3.0 MiB
 *         + ", " + Formats.latency(12_345)                     // 12.3 µs
 *         + ", " + Formats.duration(Duration.ofMillis(9_880))  // 9.9s
 *         + ", " + Formats.ranks(new TreeSet<>(List.of(0, 1, 2, 5))));  // ranks 0-2, 5
 * }</pre>
 */
public final class Formats {
    private Formats() {
    }

    /** @return {@code bytes} in the binary unit that suits it: {@code 512 B}, {@code 4.0 KiB}, {@code 79.8 GiB} */
    public static String bytes(double bytes) {
        return TextTable.bytes(bytes);
    }

    /** @return a latency in the unit that suits it: {@code 850 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 1.23 s} */
    public static String latency(double nanos) {
        return TextTable.duration(nanos);
    }

    /** @return a measured or derived duration rounded for a person: {@code 850us}, {@code 2.5ms}, {@code 9.9s}, {@code 10m30s} */
    public static String duration(Duration duration) {
        return Durations.approximately(duration);
    }

    /** @return a duration someone gave, exactly, in the largest unit that keeps it whole: {@code 1500ms}, {@code 2s}, {@code 5m} */
    public static String exactDuration(Duration duration) {
        return Durations.format(duration);
    }

    /** @return ranks as ranges: {@code [0, 1, 2, 3, 5]} → {@code ranks 0-3, 5}, {@code [4]} → {@code rank 4} */
    public static String ranks(SortedSet<Integer> ranks) {
        return TextTable.ranks(ranks);
    }

    /** @return parameters as {@code k=v k=v}, leaving out those without a value */
    public static String parameters(Map<String, String> parameters) {
        return TextTable.parameters(parameters);
    }
}
