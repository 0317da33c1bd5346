package dev.prism;

import java.nio.file.Path;
import java.util.Random;

/**
 * What a running {@link Workload} sees: its rank, the world size, its own directory, a seeded
 * random source, timers for sub-operations and a barrier with the other ranks.
 *
 * <pre>{@code
 * dev.prism.Workload w = ctx -> {
 *     var file = ctx.workDirectory().resolve("f-" + ctx.random().nextInt(1000));
 *     try (var t = ctx.time("create", file)) {
 *         java.nio.file.Files.write(file, new byte[4096]);
 *     }
 *     ctx.addBytes("create", 4096);
 * };
 * }</pre>
 */
public interface WorkloadContext {
    /** @return this rank, 0 ≤ rank &lt; {@link #worldSize()} */
    int rank();

    /** @return how many ranks run this benchmark together */
    int worldSize();

    /** @return this rank's own directory, {@code <target>/prism-<runId>/rank-<rank>}, empty at setup */
    Path workDirectory();

    /** @return a directory all ranks share, {@code <target>/prism-<runId>/shared} */
    Path sharedDirectory();

    /** @return a random source seeded from the scenario's seed and this rank: the same every run */
    Random random();

    /** @return the benchmark's parameter values */
    Parameters parameters();

    /**
     * Starts timing one {@code operation}; closing the timer records its latency. Timing the same
     * operation again before closing the first timer is an error. Allocates nothing once the
     * operation has been seen.
     */
    Timer time(String operation);

    /**
     * As {@link #time(String)}, naming the file the operation works on, so a stall (an operation
     * slower than the scenario's stall threshold) is reported with its path.
     */
    Timer time(String operation, Path path);

    /** Times {@code action} as one {@code operation}. */
    default void measure(String operation, Action action) throws Exception {
        try (Timer timer = time(operation)) {
            action.run();
        }
    }

    /** Counts {@code bytes} transferred by {@code operation}, for bytes/s. */
    void addBytes(String operation, long bytes);

    /**
     * Records one {@code operation} that took {@code nanos}, measured by the workload itself: for
     * latencies that do not start now, such as the time from an operation's intended start
     * (coordinated omission). Allocates nothing once the operation has been seen.
     */
    void record(String operation, long nanos);

    /**
     * Adds {@code delta} to a named counter of this rank (bytes found in the page cache, files
     * skipped…). Counters are summed over ranks and repetitions and reported beside the measurements.
     */
    void addCounter(String counter, long delta);

    /**
     * Records a fact about this rank's run as text, e.g. the version of a program it ran
     * ({@code git=git version 2.39.5}) or the tool it chose. Reported beside the measurements.
     */
    void note(String key, String value);

    /**
     * Waits until every rank has reached this barrier, or fails when a rank failed or the run's
     * deadline passed.
     */
    void barrier();

    /** A running timer; {@link #close()} records the latency. */
    interface Timer extends AutoCloseable {
        /** Stops timing and records the latency. */
        @Override
        void close();
    }

    /** Work that may throw, for {@link #measure}. */
    @FunctionalInterface
    interface Action {
        /** Does the work. */
        void run() throws Exception;
    }
}
