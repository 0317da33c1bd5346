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
 * import dev.prism.LatencyRecorder;
 *
 * var recorder = new LatencyRecorder("open");
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

    /**
     * Records {@code count} operations summarised where they ran (a kernel trace's counters, say): their count, sum,
     * minimum and maximum exactly, their latencies for percentiles and spread as {@code latencies} — each a latency
     * (a bucket's middle, say) with how many operations took it, adding up to {@code count}.
     *
     * @throws IllegalArgumentException when the latencies' counts do not add up to {@code count}, or min exceeds max
     */
    public void recordAll(long count, long sumNanos, long minNanos, long maxNanos, java.util.Map<Long, Long> latencies) {
        long counted = latencies.values().stream().mapToLong(Long::longValue).sum();
        if (count < 0 || counted != count) {
            throw new IllegalArgumentException("latencies must count the " + count + " operations, counted " + counted);
        }
        if (count == 0) {
            return;
        }
        if (minNanos < 0 || minNanos > maxNanos) {
            throw new IllegalArgumentException("minNanos must be in 0.." + maxNanos + ", was " + minNanos);
        }
        double groupMean = (double) sumNanos / count;
        double groupSquares = 0;
        for (var e : latencies.entrySet()) {
            long value = Math.min(Math.max(e.getKey(), minNanos), maxNanos);
            histogram.recordValueWithCount(Math.min(Math.max(value, LOWEST_DISCERNIBLE_NANOS), HIGHEST_TRACKABLE_NANOS),
                    e.getValue());
            groupSquares += e.getValue() * (value - groupMean) * (value - groupMean);
        }
        pool(count, groupMean, groupSquares, sumNanos, minNanos, maxNanos);
    }

    /**
     * Adds a group of {@code count} operations, with its mean, sum of squared deviations, sum and extremes, to this
     * recorder's exact figures (Chan et al.'s pooled variance); the histogram is the caller's.
     */
    private void pool(long count, double groupMean, double groupSquares, long sumNanos, long minNanos, long maxNanos) {
        long n = this.count + count;
        double delta = groupMean - mean;
        sumSquaredDeviations += groupSquares + delta * delta * ((double) this.count * count / n);
        mean += delta * count / n;
        this.count = n;
        this.sumNanos += sumNanos;
        this.minNanos = Math.min(this.minNanos, minNanos);
        this.maxNanos = Math.max(this.maxNanos, maxNanos);
    }

    /** Adds everything {@code other} recorded (another recorder's snapshot of the same operation) to this recorder. */
    public void add(Measurement other) {
        if (!other.operation().equals(operation)) {
            throw new IllegalArgumentException("cannot add '" + other.operation() + "' to '" + operation + "'");
        }
        if (other.count() > 0) {
            histogram.add(other.histogram());
            pool(other.count(), other.meanNanos(), other.stddevNanos() * other.stddevNanos() * (other.count() - 1),
                    other.sumNanos(), other.minNanos(), other.maxNanos());
        }
        errors += other.errors();
        bytes += other.bytes();
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
