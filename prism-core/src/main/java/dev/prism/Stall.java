package dev.prism;

import java.time.Instant;

/**
 * One operation that went the scenario's stall threshold without progress, with the file it worked on: one
 * that says nothing of its progress once it has run the threshold, one that does ({@link WorkloadContext#progress},
 * as PRISM's large writes do between their calls) once a spell between two steps, or from its start to its first
 * or from its last to its end, lasts the threshold.
 * A stall is recorded while it is still running; {@code finished} is false when the run ended (or
 * timed out) before the operation returned, and {@code durationNanos} is then how long it had run.
 *
 * <pre>{@code
 * import dev.prism.Stall;
 * import java.time.Instant;
 *
 * var s = new Stall(0, "open", "/mnt/nfs/ckpt/0001.bin", Instant.now(), 5_000_000_000L, true);
 * System.out.println(s);
 * }</pre>
 *
 * @param rank          the rank that ran it
 * @param operation     the operation's name
 * @param path          the file it worked on, or null when the timer named none
 * @param startedAt     when it started
 * @param durationNanos how long it took, or had taken when the run ended
 * @param finished      whether it returned
 */
public record Stall(int rank, String operation, String path, Instant startedAt, long durationNanos,
                    boolean finished) {
    /** @return how long it took, or had taken when the run ended */
    public java.time.Duration duration() {
        return java.time.Duration.ofNanos(durationNanos);
    }

    @Override
    public String toString() {
        return String.format("rank %d %s%s %.3fs%s", rank, operation, path == null ? "" : " " + path,
                durationNanos / 1e9, finished ? "" : " (still running)");
    }
}
