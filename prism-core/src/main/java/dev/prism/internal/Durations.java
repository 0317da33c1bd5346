package dev.prism.internal;

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
        for (int i = 0; i < NAMES.length; i++) {
            if (nanos != 0 && nanos % SIZES[i] == 0) {
                return nanos / SIZES[i] + NAMES[i];
            }
        }
        return nanos + "ns";
    }
}
