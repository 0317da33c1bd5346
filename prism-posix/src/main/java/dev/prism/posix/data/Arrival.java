package dev.prism.posix.data;


/**
 * When {@code create_synthetic_workload} starts each file.
 *
 * <pre>{@code
 * var b = dev.prism.posix.PosixBenchmarks.createSyntheticWorkload().arrival(dev.prism.posix.data.Arrival.BURSTS);
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
