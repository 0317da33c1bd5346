package dev.prism.posix.data;


/**
 * How {@code create_synthetic_workload} draws file sizes (always within {@code min_size..max_size}).
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.SizeDistribution;
 *
 * var b = PosixBenchmarks.createSyntheticWorkload().sizes(SizeDistribution.EXPONENTIAL);
 * }</pre>
 */
public enum SizeDistribution {
    /** Every file {@code file_size}. */
    FIXED,
    /** Uniform over {@code min_size..max_size}. */
    UNIFORM,
    /** Exponential with mean {@code file_size}. */
    EXPONENTIAL,
    /** Log-normal with mean {@code file_size} and shape {@code sigma}. */
    LOGNORMAL
}
