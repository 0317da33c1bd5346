package dev.prism.posix.data;


/**
 * When {@code create_synthetic_workload} starts each file.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.Arrival;
 *
 * var b = PosixBenchmarks.createSyntheticWorkload().arrival(Arrival.BURSTS);
 * }</pre>
 */
public enum Arrival {
    /** Back to back, as fast as the filesystem allows (no intended schedule). */
    NONE,
    /** Every 1/rate seconds. */
    FIXED,
    /** A Poisson process at {@code rate}: exponential gaps. */
    POISSON,
    /** Poisson at {@code rate} during {@code burst_on}, nothing during {@code burst_off}, repeating. */
    BURSTS
}
