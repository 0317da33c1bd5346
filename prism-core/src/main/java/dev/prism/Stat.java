package dev.prism;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A statistic of a {@link Measurement} that gates and comparisons judge: a latency (lower is
 * better) or a rate (higher is better). Each has the name PRISM writes and reads ({@code p99},
 * {@code ops/s}), and says how many operations one repetition needs before it is estimated at all:
 * a percentile needs at least one operation beyond it ({@code p99}: 100, {@code p99.9}: 1,000).
 *
 * <pre>{@code
 * import dev.prism.LatencyRecorder;
 * import dev.prism.Stat;
 *
 * var r = new LatencyRecorder("stat");
 * for (long v = 1; v <= 1000; v++) r.record(v * 1000);
 * var m = r.snapshot(1_000_000_000L);
 * System.out.println(Stat.parse("p99").of(m) + " ns, " + Stat.OPS_PER_SECOND.of(m) + " ops/s");
 * }</pre>
 */
public enum Stat {
    /** Mean latency. */
    MEAN("mean", Double.NaN),
    /** Median latency. */
    P50("p50", 50),
    /** 90th percentile latency. */
    P90("p90", 90),
    /** 99th percentile latency. */
    P99("p99", 99),
    /** 99.9th percentile latency. */
    P999("p99.9", 99.9),
    /** Longest latency. */
    MAX("max", Double.NaN),
    /** Operations per second over the timed phase. */
    OPS_PER_SECOND("ops/s", Double.NaN),
    /** Bytes per second over the timed phase. */
    BYTES_PER_SECOND("bytes/s", Double.NaN);

    private final String label;
    private final double percentile;

    Stat(String label, double percentile) {
        this.label = label;
        this.percentile = percentile;
    }

    /**
     * @return the statistic named {@code label} ({@code mean}, {@code p50}, {@code p90}, {@code p99},
     *         {@code p99.9}, {@code max}, {@code ops/s}, {@code bytes/s}; {@code p999} is read as {@code p99.9})
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Stat parse(String label) {
        String wanted = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals("p999")) {
            return P999;
        }
        for (Stat s : values()) {
            if (s.label.equals(wanted)) {
                return s;
            }
        }
        throw new IllegalArgumentException("stat must be one of " + names() + ", was '" + label + "'");
    }

    /** @return every name, comma-separated */
    public static String names() {
        return Arrays.stream(values()).map(Stat::label).collect(Collectors.joining(", "));
    }

    /** @return the name PRISM writes and reads: {@code p99.9}, {@code ops/s} */
    public String label() {
        return label;
    }

    /** @return true for a rate (higher is better), false for a latency (lower is better) */
    public boolean isRate() {
        return this == OPS_PER_SECOND || this == BYTES_PER_SECOND;
    }

    /** @return true for a percentile (p50 … p99.9) */
    public boolean isPercentile() {
        return !Double.isNaN(percentile);
    }

    /** @return how many operations one repetition needs for this statistic to be estimated: 1/(1 − q) for percentile q, else 1 */
    public long minimumCount() {
        return isPercentile() ? Math.round(100 / (100 - percentile)) : 1;
    }

    /** @return this statistic of {@code m}: nanoseconds for a latency, per second for a rate */
    public double of(Measurement m) {
        return switch (this) {
            case MEAN -> m.meanNanos();
            case MAX -> m.maxNanos();
            case OPS_PER_SECOND -> m.opsPerSecond();
            case BYTES_PER_SECOND -> m.bytesPerSecond();
            default -> m.percentileNanos(percentile);
        };
    }

    /**
     * @return how much slower {@code candidate} is than {@code baseline}, as a factor: candidate/baseline for a
     *         latency, baseline/candidate for a rate (so above 1 always means worse)
     */
    public double slowdown(double baseline, double candidate) {
        return isRate() ? baseline / candidate : candidate / baseline;
    }

    @Override
    public String toString() {
        return label;
    }
}
