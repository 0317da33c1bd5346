package dev.prism;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * Records the latencies of one operation on one thread, exactly for count, sum, min, max and
 * variance, and in an HdrHistogram (1 ns to 1 day, 3 significant digits) for percentiles.
 * {@link #record(long)} and {@link #addBytes(long)} never allocate. Not thread-safe: one recorder
 * per operation per rank. {@link #snapshot(long)} gives an immutable {@link Measurement}.
 *
 * <pre>{@code
 * var recorder = new dev.prism.LatencyRecorder("open");
 * recorder.record(12_000); recorder.record(15_000); recorder.addBytes(4096);
 * System.out.println(recorder.snapshot(1_000_000).p50Nanos());
 * }</pre>
 */
public final class LatencyRecorder {
    /** Lowest latency the histogram tells apart, in nanoseconds. */
    public static final long LOWEST_DISCERNIBLE_NANOS = 1;
    /** Highest latency the histogram tracks; longer ones are counted at this value (exact stats keep the truth). */
    public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.DAYS.toNanos(1);
    /** Significant decimal digits the histogram keeps. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final String operation;
    private final Histogram histogram = newHistogram();
    private long count;
    private long errors;
    private long bytes;
    private long sumNanos;
    private long minNanos = Long.MAX_VALUE;
    private long maxNanos;
    private double mean;
    private double sumSquaredDeviations;

    /** @param operation the operation's name, e.g. {@code "open"} */
    public LatencyRecorder(String operation) {
        this.operation = Measurement.checkOperation(operation);
    }

    /** @return a histogram with PRISM's range and precision */
    static Histogram newHistogram() {
        return new Histogram(LOWEST_DISCERNIBLE_NANOS, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /** @return the operation this recorder measures */
    public String operation() {
        return operation;
    }

    /**
     * Records one operation that took {@code nanos} nanoseconds (negative values count as 0).
     * Welford's update keeps the variance exact without storing samples.
     */
    public void record(long nanos) {
        long value = Math.max(0, nanos);
        histogram.recordValue(Math.min(Math.max(value, LOWEST_DISCERNIBLE_NANOS), HIGHEST_TRACKABLE_NANOS));
        count++;
        sumNanos += value;
        minNanos = Math.min(minNanos, value);
        maxNanos = Math.max(maxNanos, value);
        double delta = value - mean;
        mean += delta / count;
        sumSquaredDeviations += delta * (value - mean);
    }

    /** Counts one operation that failed (threw): an error of this operation, not a latency sample. */
    public void recordError() {
        errors++;
    }

    /** Adds {@code bytes} transferred by this operation. */
    public void addBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
        this.bytes += bytes;
    }

    /** @return the bytes added so far */
    public long bytes() {
        return bytes;
    }

    /** @return the number of operations recorded so far */
    public long count() {
        return count;
    }

    /**
     * @param elapsedNanos the wall time over which the operations ran, for ops/s and bytes/s
     * @return an immutable copy of what was recorded so far
     */
    public Measurement snapshot(long elapsedNanos) {
        return new Measurement(operation, count, bytes, sumNanos, count == 0 ? 0 : minNanos, maxNanos,
                sumSquaredDeviations, Math.max(0, elapsedNanos), histogram.copy(), errors);
    }
}
