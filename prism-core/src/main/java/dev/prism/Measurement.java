package dev.prism;

import dev.prism.internal.output.Statistics;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.zip.DataFormatException;

/**
 * The statistics of one operation: count, bytes, min/mean/max/stddev, percentiles, the 95%
 * confidence interval of the mean, ops/s and bytes/s. Count, sum, min, max and variance are exact;
 * percentiles come from an HdrHistogram with 3 significant digits (clamped to the exact min and
 * max). Operations that failed are counted as {@link #errors()}, never as samples. Measurements
 * merge exactly: {@link #combineRanks} for ranks that ran at the same time, {@link #combineRepetitions}
 * for repetitions that ran one after another. Percentiles are never averaged.
 *
 * <pre>{@code
 * import dev.prism.LatencyRecorder;
 *
 * var r = new LatencyRecorder("stat");
 * for (long v : new long[]{100, 200, 300}) r.record(v);
 * var m = r.snapshot(1_000);
 * System.out.println(m);                       // stat: 3 ops, mean 200 ns [ … ], p50 200 ns, p99 300 ns, max 300 ns, …
 * System.out.println(m.p99().toNanos());       // 300: typed as Duration, raw as p99Nanos()
 * System.out.println(m.meanNanos() + " ± " + (m.ci95HighNanos() - m.meanNanos()) + ", " + m.opsPerSecond() + " ops/s");
 * }</pre>
 */
public final class Measurement {
    private final String operation;
    private final long count;
    private final long bytes;
    private final long sumNanos;
    private final long minNanos;
    private final long maxNanos;
    private final double sumSquaredDeviations;
    private final long elapsedNanos;
    /** The histogram of a measurement recorded or merged in this JVM; null for one read from a document */
    private final Histogram histogram;
    /**
     * A measurement read from a document keeps its histogram as the document had it, compressed (a few hundred bytes
     * where the decoded one takes some 270 KB), and decodes it when a percentile is asked for: a year of results then
     * fits in a small heap. The decoded one is kept while memory allows.
     */
    private final byte[] compressed;
    /** p50, p90, p99 and p99.9 of a measurement read from a document, worked out at the first percentile asked for */
    private volatile long[] standardPercentiles;
    private final long errors;

    Measurement(String operation, long count, long bytes, long sumNanos, long minNanos, long maxNanos,
                double sumSquaredDeviations, long elapsedNanos, Histogram histogram, long errors) {
        this(operation, count, bytes, sumNanos, minNanos, maxNanos, sumSquaredDeviations, elapsedNanos, histogram, null,
                errors);
    }

    private Measurement(String operation, long count, long bytes, long sumNanos, long minNanos, long maxNanos,
                        double sumSquaredDeviations, long elapsedNanos, Histogram histogram, byte[] compressed, long errors) {
        this.compressed = compressed;
        this.operation = operation;
        this.errors = errors;
        this.count = count;
        this.bytes = bytes;
        this.sumNanos = sumNanos;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.sumSquaredDeviations = sumSquaredDeviations;
        this.elapsedNanos = elapsedNanos;
        this.histogram = histogram;
    }

    /**
     * Rebuilds a measurement from the fields of a result document, each named: the operation and its encoded histogram
     * (see {@link #encodedHistogram()}), then the exact figures the histogram only approximates.
     *
     * <pre>{@code
     * import dev.prism.LatencyRecorder;
     * import dev.prism.Measurement;
     *
     * LatencyRecorder recorder = new LatencyRecorder("stat");
     * recorder.record(2_000);
     * recorder.record(3_000);
     * Measurement m = recorder.snapshot(5_000);
     * Measurement back = Measurement.decoder("stat", m.encodedHistogram()).count(m.count()).meanNanos(m.meanNanos())
     *         .stddevNanos(m.stddevNanos()).minNanos(m.minNanos()).maxNanos(m.maxNanos()).decode();
     * System.out.println(back);
     * }</pre>
     *
     * @param operation        the operation's name
     * @param encodedHistogram its latencies, as {@link #encodedHistogram()} writes them
     * @return a decoder whose figures are zero until set
     */
    public static Decoder decoder(String operation, String encodedHistogram) {
        return new Decoder(checkOperation(operation), java.util.Objects.requireNonNull(encodedHistogram, "encodedHistogram"));
    }

    /** The fields of a measurement in a result document, each set by name, then {@link #decode()}. */
    public static final class Decoder {
        private final String operation;
        private final String encodedHistogram;
        private long count;
        private long bytes;
        private double meanNanos;
        private double stddevNanos;
        private long minNanos;
        private long maxNanos;
        private long elapsedNanos;
        private long errors;

        private Decoder(String operation, String encodedHistogram) {
            this.operation = operation;
            this.encodedHistogram = encodedHistogram;
        }

        private static long notNegative(String name, long value) {
            if (value < 0) {
                throw new IllegalArgumentException(name + " must be at least 0, was " + value);
            }
            return value;
        }

        private static double finiteNotNegative(String name, double value) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(name + " must be a finite number at least 0, was " + value);
            }
            return value;
        }

        /** @param count operations measured: the histogram must hold as many */
        public Decoder count(long count) {
            this.count = notNegative("count", count);
            return this;
        }

        /** @param bytes bytes the operations moved */
        public Decoder bytes(long bytes) {
            this.bytes = notNegative("bytes", bytes);
            return this;
        }

        /** @param meanNanos the exact mean latency, in nanoseconds */
        public Decoder meanNanos(double meanNanos) {
            this.meanNanos = finiteNotNegative("meanNanos", meanNanos);
            return this;
        }

        /** @param stddevNanos the exact standard deviation, in nanoseconds */
        public Decoder stddevNanos(double stddevNanos) {
            this.stddevNanos = finiteNotNegative("stddevNanos", stddevNanos);
            return this;
        }

        /** @param minNanos the exact fastest latency, in nanoseconds */
        public Decoder minNanos(long minNanos) {
            this.minNanos = notNegative("minNanos", minNanos);
            return this;
        }

        /** @param maxNanos the exact slowest latency, in nanoseconds */
        public Decoder maxNanos(long maxNanos) {
            this.maxNanos = notNegative("maxNanos", maxNanos);
            return this;
        }

        /** @param elapsedNanos the timed phase's length, in nanoseconds */
        public Decoder elapsedNanos(long elapsedNanos) {
            this.elapsedNanos = notNegative("elapsedNanos", elapsedNanos);
            return this;
        }

        /** @param errors operations that failed and were passed over */
        public Decoder errors(long errors) {
            this.errors = notNegative("errors", errors);
            return this;
        }

        /**
         * @return the measurement
         * @throws IllegalArgumentException when the histogram does not decode or disagrees with {@code count}
         */
        public Measurement decode() {
            return Measurement.decode(operation, count, bytes, meanNanos, stddevNanos, minNanos, maxNanos, elapsedNanos,
                    encodedHistogram, errors);
        }
    }

    private static Measurement decode(String operation, long count, long bytes, double meanNanos,
                                      double stddevNanos, long minNanos, long maxNanos, long elapsedNanos,
                                      String encodedHistogram, long errors) {
        byte[] compressed;
        Histogram histogram;
        try {
            compressed = Base64.getDecoder().decode(encodedHistogram);
            histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(compressed), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("histogram of '" + operation + "' does not decode: " + e.getMessage(), e);
        }
        if (histogram.getTotalCount() != count) {
            throw new IllegalArgumentException("histogram of '" + operation + "' holds "
                    + histogram.getTotalCount() + " values, count says " + count);
        }
        double m2 = count > 1 ? stddevNanos * stddevNanos * (count - 1) : 0;
        // checked now, kept compressed: decoded again where a figure needs it
        return new Measurement(checkOperation(operation), count, bytes, Math.round(meanNanos * count),
                minNanos, maxNanos, m2, elapsedNanos, null, compressed, errors);
    }

    /**
     * @return the histogram: this measurement's own, or decoded afresh from the document's bytes (nothing decoded is
     *         kept: a year of results would not fit the heap; the four standard percentiles are kept instead)
     */
    private Histogram histogramOf() {
        if (histogram != null) {
            return histogram;
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(compressed), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("histogram of '" + operation + "' no longer decodes", e);
        }
    }

    private static final double[] STANDARD_PERCENTILES = {50, 90, 99, 99.9};

    static String checkOperation(String operation) {
        if (operation == null || operation.isBlank()) {
            throw new IllegalArgumentException("operation must be a non-blank name, was "
                    + (operation == null ? "null" : "'" + operation + "'"));
        }
        return operation;
    }

    /**
     * Merges measurements of ranks that ran at the same time: counts, bytes and histograms add up;
     * the elapsed time is the longest rank's, so ops/s is the aggregate rate.
     */
    public static Measurement combineRanks(Collection<Measurement> concurrent) {
        return combine(concurrent, true);
    }

    /**
     * Merges measurements taken one after another (repetitions): counts, bytes and histograms add
     * up, and so do the elapsed times.
     */
    public static Measurement combineRepetitions(Collection<Measurement> sequential) {
        return combine(sequential, false);
    }

    private static Measurement combine(Collection<Measurement> parts, boolean concurrent) {
        Iterator<Measurement> it = parts.iterator();
        if (!it.hasNext()) {
            throw new IllegalArgumentException("measurements to combine must not be empty");
        }
        Measurement first = it.next();
        if (!it.hasNext()) {
            return first;
        }
        // one histogram of the recorder's range, every part added into it (a merge per part copied the whole histogram
        // each time: some 270 KB per part, which a history of a year of results does hundreds of thousands of times)
        Histogram histogram = LatencyRecorder.newHistogram();
        histogram.add(first.histogramOf());
        Measurement acc = first;
        while (it.hasNext()) {
            Measurement next = it.next();
            histogram.add(next.histogramOf());
            acc = acc.mergeFigures(next, concurrent);
        }
        return new Measurement(acc.operation, acc.count, acc.bytes, acc.sumNanos, acc.minNanos, acc.maxNanos,
                acc.sumSquaredDeviations, acc.elapsedNanos, histogram, acc.errors);
    }

    /** @return this and {@code other} merged in every figure but the histogram (left empty: the caller adds them up) */
    private Measurement mergeFigures(Measurement other, boolean concurrent) {
        if (!operation.equals(other.operation)) {
            throw new IllegalArgumentException("cannot combine '" + operation + "' with '" + other.operation + "'");
        }
        long n = count + other.count;
        // Chan et al.: the pooled sum of squared deviations of two groups
        double delta = other.meanNanos() - meanNanos();
        double m2 = n == 0 ? 0 : sumSquaredDeviations + other.sumSquaredDeviations
                + delta * delta * ((double) count * other.count / n);
        long min = count == 0 ? other.minNanos : other.count == 0 ? minNanos : Math.min(minNanos, other.minNanos);
        long elapsed = concurrent ? Math.max(elapsedNanos, other.elapsedNanos) : elapsedNanos + other.elapsedNanos;
        return new Measurement(operation, n, bytes + other.bytes, sumNanos + other.sumNanos, min,
                Math.max(maxNanos, other.maxNanos), m2, elapsed, EMPTY, errors + other.errors);
    }

    /** The histogram of {@link #mergeFigures}'s intermediate results, never read */
    private static final Histogram EMPTY = new Histogram(1, 2, 0);

    /** @return the operation's name */
    public String operation() {
        return operation;
    }

    /** @return how many operations were recorded: those that completed (an operation that threw is an error, not a sample) */
    public long count() {
        return count;
    }

    /** @return how many of these operations failed (threw): counted apart, never as latency samples */
    public long errors() {
        return errors;
    }

    /** @return bytes transferred by these operations (0 when none were counted) */
    public long bytes() {
        return bytes;
    }

    /** @return the wall time the operations ran over (the timed phase), in nanoseconds */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    /** @return the shortest latency, exact; 0 when nothing was recorded */
    public long minNanos() {
        return minNanos;
    }

    /** @return the longest latency, exact; 0 when nothing was recorded */
    public long maxNanos() {
        return maxNanos;
    }

    /** @return the sum of all latencies, exact */
    public long sumNanos() {
        return sumNanos;
    }

    /** @return the arithmetic mean latency; 0 when nothing was recorded */
    public double meanNanos() {
        return count == 0 ? 0 : (double) sumNanos / count;
    }

    /** @return the sample standard deviation (n − 1); 0 with fewer than two operations */
    public double stddevNanos() {
        return count < 2 ? 0 : Math.sqrt(sumSquaredDeviations / (count - 1));
    }

    /**
     * @param percentile in 0..100
     * @return the latency at that percentile (histogram precision, within [min, max]); 0 when empty
     */
    public long percentileNanos(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be in 0..100, was " + percentile);
        }
        if (count == 0) {
            return 0;
        }
        long value;
        int standard = java.util.Arrays.binarySearch(STANDARD_PERCENTILES, percentile);
        if (histogram == null && standard >= 0) {
            long[] known = standardPercentiles;
            if (known == null) {
                Histogram decoded = histogramOf();
                known = new long[STANDARD_PERCENTILES.length];
                for (int i = 0; i < known.length; i++) {
                    known[i] = decoded.getValueAtPercentile(STANDARD_PERCENTILES[i]);
                }
                standardPercentiles = known;
            }
            value = known[standard];
        } else {
            value = histogramOf().getValueAtPercentile(percentile);
        }
        return Math.min(Math.max(value, minNanos), maxNanos);
    }

    /** @return the median latency */
    public long p50Nanos() {
        return percentileNanos(50);
    }

    /** @return the 90th percentile latency */
    public long p90Nanos() {
        return percentileNanos(90);
    }

    /** @return the 99th percentile latency */
    public long p99Nanos() {
        return percentileNanos(99);
    }

    /** @return the 99.9th percentile latency */
    public long p999Nanos() {
        return percentileNanos(99.9);
    }

    /**
     * @return half the width of the symmetric Student t 95% interval of the mean; 0 with fewer than
     *         two operations. The interval PRISM reports is {@link #ci95LowNanos()}..{@link #ci95HighNanos()}.
     */
    public double ci95HalfWidthNanos() {
        return Statistics.ci95HalfWidth(count, stddevNanos());
    }

    /**
     * @return the lower end of the 95% confidence interval of the mean: Student t on the log scale
     *         ({@code mean × exp(−t·SE/mean)}), so never below zero however skewed the latencies
     */
    public double ci95LowNanos() {
        return Statistics.ci95OfPositiveMean(count, meanNanos(), stddevNanos())[0];
    }

    /** @return the upper end of the 95% confidence interval of the mean ({@code mean × exp(t·SE/mean)}) */
    public double ci95HighNanos() {
        return Statistics.ci95OfPositiveMean(count, meanNanos(), stddevNanos())[1];
    }

    /** @return operations per second over the elapsed time; 0 when no time elapsed */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : count * 1e9 / elapsedNanos;
    }

    /** @return bytes per second over the elapsed time; 0 when no time elapsed */
    public double bytesPerSecond() {
        return elapsedNanos == 0 ? 0 : bytes * 1e9 / elapsedNanos;
    }

    /** @return a copy of the underlying histogram, for HdrHistogram's own tools */
    public Histogram histogram() {
        Histogram copy = LatencyRecorder.newHistogram();
        copy.add(histogramOf());
        return copy;
    }

    /** @return the histogram in HdrHistogram's compressed V2 encoding, Base64 */
    public String encodedHistogram() {
        return Base64.getEncoder().encodeToString(compressed != null ? compressed : compress(histogram));
    }

    private static byte[] compress(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return java.util.Arrays.copyOf(buffer.array(), length);
    }

    /**
     * For keeping many measurements in memory: a measurement recorded or merged in this JVM holds its histogram decoded
     * (some 270 KB over the recorder's range); the one returned holds it compressed (a few hundred bytes, as a result
     * document has it) and decodes it where a percentile is asked for. Every figure is the same.
     *
     * <pre>{@code
     * import dev.prism.LatencyRecorder;
     *
     * var r = new LatencyRecorder("stat");
     * for (long v = 1; v <= 1000; v++) { r.record(v * 1000); }
     * var m = r.snapshot(1_000_000);
     * System.out.println(m.compact().p99Nanos() == m.p99Nanos()); // true
     * }</pre>
     *
     * @return this measurement with its histogram compressed; itself when it already is
     */
    public Measurement compact() {
        if (histogram == null) {
            return this;
        }
        return new Measurement(operation, count, bytes, sumNanos, minNanos, maxNanos, sumSquaredDeviations, elapsedNanos,
                null, compress(histogram), errors);
    }

    /** @return the arithmetic mean latency, to the nearest nanosecond ({@link #meanNanos()} keeps the fraction) */
    public Duration mean() {
        return Duration.ofNanos(Math.round(meanNanos()));
    }

    /** @return the shortest latency, exact; zero when nothing was recorded */
    public Duration min() {
        return Duration.ofNanos(minNanos);
    }

    /** @return the longest latency, exact; zero when nothing was recorded */
    public Duration max() {
        return Duration.ofNanos(maxNanos);
    }

    /** @return the median latency */
    public Duration p50() {
        return Duration.ofNanos(p50Nanos());
    }

    /** @return the 90th percentile latency */
    public Duration p90() {
        return Duration.ofNanos(p90Nanos());
    }

    /** @return the 99th percentile latency, as a {@code Duration} a gate or an assertion compares with */
    public Duration p99() {
        return Duration.ofNanos(p99Nanos());
    }

    /** @return the 99.9th percentile latency */
    public Duration p999() {
        return Duration.ofNanos(p999Nanos());
    }

    /**
     * @param percentile in 0..100
     * @return the latency at that percentile, as {@link #percentileNanos}
     */
    public Duration percentile(double percentile) {
        return Duration.ofNanos(percentileNanos(percentile));
    }

    /** @return the sample standard deviation (n − 1), to the nearest nanosecond */
    public Duration stddev() {
        return Duration.ofNanos(Math.round(stddevNanos()));
    }

    /** @return the lower end of the mean's 95% confidence interval ({@link #ci95LowNanos()}), to the nearest nanosecond */
    public Duration ci95Low() {
        return Duration.ofNanos(Math.round(ci95LowNanos()));
    }

    /** @return the upper end of the mean's 95% confidence interval ({@link #ci95HighNanos()}), to the nearest nanosecond */
    public Duration ci95High() {
        return Duration.ofNanos(Math.round(ci95HighNanos()));
    }

    /** @return the wall time the operations ran over (the timed phase) */
    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos);
    }

    /** @return the bytes these operations transferred, as a size ({@link #bytes()} in bytes) */
    public DataSize data() {
        return DataSize.ofBytes(bytes);
    }

    /** @return operations per second over the elapsed time, as a rate ({@link #opsPerSecond()} as a number); 0 when no time elapsed */
    public Rate operationRate() {
        return Rate.ofOperations(opsPerSecond());
    }

    /** @return bytes per second over the elapsed time, as a rate ({@link #bytesPerSecond()} as a number); 0 when no time elapsed */
    public Rate dataRate() {
        return Rate.ofBytes(bytesPerSecond());
    }

    /**
     * @return the measurement as the table prints it: {@code create: 1,500 ops, mean 2.5 µs [2.5 µs, 2.6 µs], p50 2.4 µs,
     *         p99 2.6 µs, max 76.7 µs, 153,466 ops/s}, then the bytes and their rate, and the errors, where there are any
     */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(String.format(java.util.Locale.ROOT, "%s: %,d ops, mean %s [%s, %s], p50 %s, p99 %s, max %s",
                operation, count, dev.prism.spi.Formats.latency(meanNanos()), dev.prism.spi.Formats.latency(ci95LowNanos()),
                dev.prism.spi.Formats.latency(ci95HighNanos()), dev.prism.spi.Formats.latency(p50Nanos()),
                dev.prism.spi.Formats.latency(p99Nanos()), dev.prism.spi.Formats.latency(maxNanos)));
        if (elapsedNanos > 0) {
            s.append(String.format(java.util.Locale.ROOT, ", %,.0f ops/s", opsPerSecond()));
        }
        if (bytes > 0) {
            s.append(", ").append(dev.prism.spi.Formats.bytes(bytes));
            if (elapsedNanos > 0) {
                s.append(" at ").append(dev.prism.spi.Formats.bytes(bytesPerSecond())).append("/s");
            }
        }
        if (errors > 0) {
            s.append(String.format(java.util.Locale.ROOT, ", %,d error(s)", errors));
        }
        return s.toString();
    }
}
