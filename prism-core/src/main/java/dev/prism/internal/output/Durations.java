package dev.prism.internal.output;

import java.time.Duration;

/** Durations as people type them: {@code 500ms}, {@code 10s}, {@code 5m}. */
public final class Durations {
    private static final String[] NAMES = {"h", "m", "s", "ms", "us"};
    private static final long[] SIZES = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};

    private Durations() {
    }

    /** @return the duration in the largest unit that keeps it whole: {@code 1500ms}, {@code 2s} */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        for (int i = 0; i < NAMES.length; i++) {
            if (nanos % SIZES[i] == 0) {
                return nanos / SIZES[i] + NAMES[i];
            }
        }
        return nanos + "ns";
    }

    /**
     * @return a measured or derived duration, rounded for a person: {@code 850us}, {@code 2.5ms}, {@code 420ms}, {@code 9.9s},
     *         {@code 10m30s} (where {@link #format} would give {@code 9880283212ns})
     */
    public static String approximately(Duration d) {
        long nanos = d.toNanos();
        if (nanos < 1_000_000L) {
            return Math.round(nanos / 1e3) + "us";
        }
        if (nanos < 9_950_000L) {
            return String.format(java.util.Locale.ROOT, "%.1fms", nanos / 1e6);
        }
        if (nanos < 999_500_000L) {
            return Math.round(nanos / 1e6) + "ms";
        }
        if (nanos < 59_950_000_000L) {
            return String.format(java.util.Locale.ROOT, "%.1fs", nanos / 1e9);
        }
        long seconds = Math.round(nanos / 1e9);
        return seconds / 60 + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
    }
}
