package dev.prism;

/**
 * What one rank of a benchmark does. A new instance is made for every rank of every run, so fields
 * may hold per-rank state. Only {@link #run} is timed as the benchmark's phase; {@link #setup}
 * prepares (populating a directory, say) and {@link #teardown} runs even after a failure. Ranks
 * meet at a barrier before and after {@link #run}.
 *
 * <pre>{@code
 * import dev.prism.Workload;
 * import java.nio.file.Files;
 *
 * Workload touch = ctx -> {
 *     try (var t = ctx.time("create")) {
 *         Files.createFile(ctx.workDirectory().resolve("a"));
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface Workload {
    /** Prepares the rank's files; not timed. */
    default void setup(WorkloadContext ctx) throws Exception {
    }

    /**
     * Runs the timed code path once or many times, untimed, on scratch files of its own, between
     * {@link #setup} and the timed phase, in every rank process: loading bindings, initialising
     * classes, allocating buffers and compiling the hot path (JIT) then happen before the clock
     * starts. Timings, bytes, counters and notes made here are discarded. It must not touch the
     * files the timed phase will use (that would warm their caches) and must remove its scratch
     * files; it must not call {@link WorkloadContext#barrier()}. Default: nothing.
     */
    default void rehearse(WorkloadContext ctx) throws Exception {
    }

    /** The timed phase: do the work and time each operation with {@link WorkloadContext#time}. */
    void run(WorkloadContext ctx) throws Exception;

    /** Checks what {@link #run} produced; throw {@link ValidationException} when it is wrong. */
    default void validate(WorkloadContext ctx) throws Exception {
    }

    /** Releases what {@link #setup} took; runs after failures too. Files need no removal: the run directory is deleted. */
    default void teardown(WorkloadContext ctx) throws Exception {
    }
}
