package dev.prism.posix.data;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.data.internal.SyntheticWorkload;

import java.time.Duration;
import java.util.List;

/**
 * {@code create_synthetic_workload}: each rank writes {@code files} files whose start times follow
 * an arrival process (none, fixed rate, Poisson, on/off bursts) and whose sizes follow a
 * distribution (fixed, uniform, exponential, log-normal, within bounds), with zeros, random or
 * compressible data; seeded and reproducible. Each file is timed twice: {@code service} (open to
 * close) and {@code response} (from its intended start to close), so queueing behind a slow
 * operation is not hidden (coordinated omission).
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.Arrival;
 * import dev.prism.posix.data.SizeDistribution;
 *
 * var b = (PosixBenchmarks.createSyntheticWorkload().arrival(Arrival.POISSON)
 *         .rate(500).sizes(SizeDistribution.LOGNORMAL).fileSize(DataSize.ofKiB(256)));
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class CreateSyntheticWorkload extends PosixBenchmark<CreateSyntheticWorkload> {
    /** The operation one request's service time: {@value}, for gates and look-ups ({@code run.measurement(CreateSyntheticWorkload.OP_SERVICE)}). */
    public static final String OP_SERVICE = "service";
    /** The operation one request's response time, queueing included: {@value}, for gates and look-ups ({@code run.measurement(CreateSyntheticWorkload.OP_RESPONSE)}). */
    public static final String OP_RESPONSE = "response";

    /** Files per rank. */
    public static final Parameter<Integer> SYNTHETIC_FILES =
            Parameter.ofInt("files", 200, 1, 100_000_000, "files", "files each rank writes");
    /** The arrival process. */
    public static final Parameter<Arrival> ARRIVAL = Parameter.ofEnum("arrival", Arrival.class, Arrival.POISSON,
            "none (back to back), fixed, poisson or bursts");
    /** Arrivals per second per rank. */
    public static final Parameter<Double> RATE = Parameter.ofDouble("rate", 200, 0.001, 10_000_000, "files/s",
            "arrivals per second per rank (during bursts for arrival=bursts)");
    /** Burst length. */
    public static final Parameter<Duration> BURST_ON = Parameter.ofDuration("burst_on", Duration.ofMillis(500),
            Duration.ofMillis(1), Duration.ofHours(1), "how long each burst lasts");
    /** Pause between bursts. */
    public static final Parameter<Duration> BURST_OFF = Parameter.ofDuration("burst_off", Duration.ofMillis(500),
            Duration.ofMillis(1), Duration.ofHours(1), "the quiet between bursts");
    /** The size distribution. */
    public static final Parameter<SizeDistribution> SIZES = Parameter.ofEnum("size_distribution", SizeDistribution.class,
            SizeDistribution.LOGNORMAL, "fixed, uniform, exponential or lognormal");
    /** Mean (or fixed) size. */
    public static final Parameter<DataSize> MEAN_SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(64),
            DataSize.ofBytes(1), DataSize.ofGiB(64), "the fixed size, or the mean of exponential and lognormal");
    /** Smallest size. */
    public static final Parameter<DataSize> MIN_SIZE = Parameter.ofSize("min_size", DataSize.ofBytes(1),
            DataSize.ofBytes(1), DataSize.ofGiB(64), "no file is smaller");
    /** Largest size. */
    public static final Parameter<DataSize> MAX_SIZE = Parameter.ofSize("max_size", DataSize.ofMiB(16),
            DataSize.ofBytes(1), DataSize.ofGiB(64), "no file is larger");
    /** Log-normal shape. */
    public static final Parameter<Double> SIGMA = Parameter.ofDouble("sigma", 1.0, 0.01, 10, null,
            "shape of the lognormal (standard deviation of the log of the size)");
    /** The data written. */
    public static final Parameter<DataPattern> PATTERN = Parameter.ofEnum("pattern", DataPattern.class, DataPattern.RANDOM,
            "zeros, random or compressible");
    /** How well compressible data compresses. */
    public static final Parameter<Double> COMPRESS_RATIO = Parameter.ofDouble("compress_ratio", 2.0, 1, 4096, null,
            "compressible data shrinks about this much");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ACCESS, SYNTHETIC_FILES, ARRIVAL, RATE, BURST_ON, BURST_OFF,
            SIZES, MEAN_SIZE, MIN_SIZE, MAX_SIZE, SIGMA, PATTERN, COMPRESS_RATIO);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private CreateSyntheticWorkload(Parameters parameters) {
        super("create_synthetic_workload", "write files with an arrival process and a size distribution;"
                + " latency as service time and from the intended start", parameters);
    }

    /** @return create_synthetic_workload with these parameter values (missing ones at their defaults), checked */
    public static CreateSyntheticWorkload of(Parameters parameters) {
        return new CreateSyntheticWorkload(Parameters.defaults(PARAMETERS).withText(parameters.asText())).checked();
    }

    /** @return true: with a duration it goes on until the time is up ({@link dev.prism.Pacing}) */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected CreateSyntheticWorkload with(Parameters parameters) {
        return new CreateSyntheticWorkload(parameters);
    }

    /** @param files files per rank, 1..100000000 */
    public CreateSyntheticWorkload files(int files) {
        return set(SYNTHETIC_FILES, files);
    }

    /** @param arrival the arrival process */
    public CreateSyntheticWorkload arrival(Arrival arrival) {
        return set(ARRIVAL, arrival);
    }

    /** @param rate arrivals per second per rank */
    public CreateSyntheticWorkload rate(double rate) {
        return set(RATE, rate);
    }

    /** @param on burst length @param off pause between bursts */
    public CreateSyntheticWorkload bursts(Duration on, Duration off) {
        return set(BURST_ON, on).set(BURST_OFF, off);
    }

    /** @param sizes the size distribution */
    public CreateSyntheticWorkload sizes(SizeDistribution sizes) {
        return set(SIZES, sizes);
    }

    /** @param fileSize the fixed size, or the mean */
    public CreateSyntheticWorkload fileSize(DataSize fileSize) {
        return set(MEAN_SIZE, fileSize);
    }

    /** @param min smallest size @param max largest size */
    public CreateSyntheticWorkload sizeBounds(DataSize min, DataSize max) {
        return set(MIN_SIZE, min).set(MAX_SIZE, max);
    }

    /** @param sigma lognormal shape */
    public CreateSyntheticWorkload sigma(double sigma) {
        return set(SIGMA, sigma);
    }

    /** @param pattern the data written */
    public CreateSyntheticWorkload pattern(DataPattern pattern) {
        return set(PATTERN, pattern);
    }

    /** @param ratio how well compressible data compresses */
    public CreateSyntheticWorkload compressRatio(double ratio) {
        return set(COMPRESS_RATIO, ratio);
    }

    @Override
    protected void checkTogether() {
        checked();
    }

    /**
     * @return this benchmark when min_size ≤ file_size ≤ max_size
     * @throws IllegalArgumentException naming the sizes otherwise
     */
    public CreateSyntheticWorkload checked() {
        Parameters p = parameters();
        DataSize min = p.get(MIN_SIZE);
        DataSize mean = p.get(MEAN_SIZE);
        DataSize max = p.get(MAX_SIZE);
        if (min.compareTo(max) > 0 || mean.compareTo(min) < 0 || mean.compareTo(max) > 0) {
            throw new IllegalArgumentException("min_size ≤ file_size ≤ max_size must hold, was min_size=" + min
                    + " file_size=" + mean + " max_size=" + max);
        }
        return this;
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_SERVICE, OP_RESPONSE);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot write");
    }

    @Override
    public Workload newWorkload() {
        checked();
        Parameters p = parameters();
        return new SyntheticWorkload(p.get(ACCESS), p.get(SYNTHETIC_FILES), p.get(ARRIVAL), p.get(RATE),
                p.get(BURST_ON).toNanos(), p.get(BURST_OFF).toNanos(), p.get(SIZES), p.get(MEAN_SIZE).bytes(),
                p.get(MIN_SIZE).bytes(), p.get(MAX_SIZE).bytes(), p.get(SIGMA), p.get(PATTERN), p.get(COMPRESS_RATIO));
    }
}
