package dev.prism.internal;

import dev.prism.LatencyRecorder;
import dev.prism.Stall;
import dev.prism.WorkloadContext;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * One operation of one rank: its recorder, and the running timer whose start the stall monitor
 * can see from another thread. Reused for every timing of that operation, so timing allocates
 * nothing.
 */
final class OperationSlot implements WorkloadContext.Timer {
    private final int rank;
    private final String operation;
    private final LatencyRecorder recorder;
    private final long stallThresholdNanos;
    private final List<Stall> stalls;
    private volatile boolean running;
    private volatile long startedNanos;
    private volatile Path path;
    /** The start of the timing the monitor last reported, so each stall is reported once. */
    volatile long reportedStartNanos = Long.MIN_VALUE;

    OperationSlot(int rank, String operation, long stallThresholdNanos, List<Stall> stalls) {
        this.rank = rank;
        this.operation = operation;
        this.recorder = new LatencyRecorder(operation);
        this.stallThresholdNanos = stallThresholdNanos;
        this.stalls = stalls;
    }

    OperationSlot start(Path path) {
        if (running) {
            throw new IllegalStateException("time(\"" + operation + "\") is already running on rank " + rank
                    + "; close the first timer before timing the operation again");
        }
        this.path = path;
        this.startedNanos = System.nanoTime();
        this.running = true;
        return this;
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        long duration = System.nanoTime() - startedNanos;
        running = false;
        recorder.record(duration);
        if (duration >= stallThresholdNanos) {
            stalls.add(stall(duration, true));
        }
    }

    LatencyRecorder recorder() {
        return recorder;
    }

    String operation() {
        return operation;
    }

    int rank() {
        return rank;
    }

    boolean running() {
        return running;
    }

    long startedNanos() {
        return startedNanos;
    }

    /** @return the timing now running as a stall of {@code durationNanos} so far */
    Stall stall(long durationNanos, boolean finished) {
        Path p = path;
        return new Stall(rank, operation, p == null ? null : p.toString(),
                Instant.now().minusNanos(durationNanos), durationNanos, finished);
    }
}
