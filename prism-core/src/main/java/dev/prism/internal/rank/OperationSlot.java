package dev.prism.internal.rank;

import dev.prism.internal.coordination.RankSync;

import dev.prism.LatencyRecorder;
import dev.prism.Stall;
import dev.prism.WorkloadContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * One operation of one rank: its recorder, and the running timer whose start the stall monitor
 * can see from another thread. Reused for every timing of that operation, so timing allocates
 * nothing.
 */
final class OperationSlot implements WorkloadContext.Timer {
    // The timing thread publishes with release stores (plain stores on x86, no fence inside the timed
    // window); the monitor reads running first, with acquire, so it never pairs a new start with a stale one.
    private static final VarHandle RUNNING;
    private static final VarHandle STARTED;
    private static final VarHandle PATH;
    private static final VarHandle NAME;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUNNING = lookup.findVarHandle(OperationSlot.class, "running", boolean.class);
            STARTED = lookup.findVarHandle(OperationSlot.class, "startedNanos", long.class);
            PATH = lookup.findVarHandle(OperationSlot.class, "path", Path.class);
            NAME = lookup.findVarHandle(OperationSlot.class, "name", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int rank;
    private final String operation;
    private final LatencyRecorder recorder;
    private final long stallThresholdNanos;
    private final List<Stall> stalls;
    private boolean running;
    private boolean failed;
    private long startedNanos;
    private Path path;
    /** The file's name in the directory {@link #path}, joined only for a stall; null: {@code path} is the file */
    private String name;
    /** The wall time the operation's samples ran over, when the workload said so; −1: the timed phase. */
    private long elapsedNanos = -1;
    /** The start of the timing the monitor last reported, so each stall is reported once. */
    volatile long reportedStartNanos = Long.MIN_VALUE;

    private final RankSync sync;
    private final RankContext context;

    OperationSlot(int rank, String operation, long stallThresholdNanos, List<Stall> stalls, RankSync sync, RankContext context) {
        this.sync = sync;
        this.context = context;
        this.rank = rank;
        this.operation = operation;
        this.recorder = new LatencyRecorder(operation);
        this.stallThresholdNanos = stallThresholdNanos;
        this.stalls = stalls;
    }

    /** Made before the clock for an operation the rehearsal timed (see RankContext.prepareSlots); never changes after */
    private volatile boolean prepared;

    /** Marks this slot as made before the clock, reported only once it holds something. */
    void prepared() {
        prepared = true;
    }

    /** @return whether this slot was made before the clock rather than by its operation's first timing */
    boolean isPrepared() {
        return prepared;
    }

    /** @return the bytes its operations moved so far */
    long bytes() {
        return recorder.bytes();
    }

    /** Starts a timing of the operation on {@code path}, or on the file {@code name} in it where that is not null. */
    OperationSlot start(Path path, String name) {
        if (running) {
            throw new IllegalStateException("time(\"" + operation + "\") is already running on rank " + rank
                    + "; close the first timer before timing the operation again");
        }
        failed = false;
        PATH.setRelease(this, path);
        NAME.setRelease(this, name);
        long now = System.nanoTime();
        context.timerStarted(now);
        STARTED.setRelease(this, now);
        RUNNING.setRelease(this, true);
        return this;
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        long end = System.nanoTime();
        long duration = end - startedNanos;
        RUNNING.setRelease(this, false);
        context.timerEnded();
        // a stall is a timing that went the threshold without progress (a large write whose calls kept returning is not)
        if (duration >= stallThresholdNanos && context.quietPastThreshold(startedNanos, end)) {
            stalls.add(stall(duration, true));
        }
        if (sync.stopReason() != null) {
            // the rank was told to stop while this ran: it may have been cut short, so it is no sample
            return;
        }
        if (startedNanos < context.recordingFromNanos()) {
            // started within a time-based run's ramp: untimed by design
            return;
        }
        long intervalNanos = context.intervalNanos();
        // intervals count from the start of recording: nothing before the timed phase (set-up, a rehearsal) has one
        LatencyRecorder interval = intervalNanos == 0 || context.intervalOriginNanos() == Long.MIN_VALUE ? null
                : intervalAt(end, intervalNanos);
        if (failed) {
            recorder.recordError();
            if (interval != null) {
                interval.recordError();
            }
            context.operationFailed(operation);
        } else {
            recorder.record(duration);
            if (interval != null) {
                interval.record(duration);
            }
        }
    }

    /**
     * Records a latency the workload measured itself ({@code ctx.record}), ending now: as a timing would be, it is
     * left out when it started within a ramp, and goes into its interval.
     */
    void recordMeasured(long nanos) {
        long end = System.nanoTime();
        if (end - nanos < context.recordingFromNanos()) {
            return;
        }
        recorder.record(nanos);
        long intervalNanos = context.intervalNanos();
        if (intervalNanos != 0 && context.intervalOriginNanos() != Long.MIN_VALUE) {
            intervalAt(end, intervalNanos).record(nanos);
        }
    }

    /** Interval histograms: the finished ones, in order (empty ones included), and the one filling now. */
    private final List<dev.prism.Measurement> intervals = new java.util.ArrayList<>();
    private LatencyRecorder intervalRecorder;

    /** @return the recorder of the interval that {@code end} falls in, closing the ones before it (once per interval) */
    private LatencyRecorder intervalAt(long end, long intervalNanos) {
        // an operation that ends just after a time-based run's end belongs to its last interval
        int index = (int) Math.max(0, Math.min((end - context.intervalOriginNanos()) / intervalNanos, context.lastIntervalIndex()));
        if (intervalRecorder == null) {
            intervalRecorder = new LatencyRecorder(operation);
        }
        while (intervals.size() < index) {
            dev.prism.Measurement done = intervalRecorder.snapshot(intervalNanos);
            intervals.add(done);
            intervalRecorder = new LatencyRecorder(operation);
            context.intervalCompleted(operation, intervals.size() - 1, done);
        }
        return intervalRecorder;
    }

    /** @return every interval's measurement so far, the last one (still filling) included; empty without intervals */
    List<dev.prism.Measurement> intervals() {
        List<dev.prism.Measurement> all = new java.util.ArrayList<>(intervals);
        if (intervalRecorder != null) {
            all.add(intervalRecorder.snapshot(context.intervalNanos()));
        }
        return all;
    }

    @Override
    public void fail() {
        failed = true;
    }

    void elapsed(long nanos) {
        elapsedNanos = nanos;
    }

    /** @return the wall time this operation ran over: what the workload said, else {@code phaseNanos} */
    long elapsedOr(long phaseNanos) {
        return elapsedNanos >= 0 ? elapsedNanos : phaseNanos;
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

    /** @return whether a timing is running; read it before {@link #startedNanos()} (from another thread) */
    boolean running() {
        return (boolean) RUNNING.getAcquire(this);
    }

    /** @return since when the running timing has made no progress: its start, or its last {@code ctx.progress()} */
    long quietSince(long started) {
        return context.quietSince(started);
    }

    /** @return when the running timing started: that timing's start or a later one's */
    long startedNanos() {
        return (long) STARTED.getAcquire(this);
    }

    /** @return the timing now running as a stall of {@code durationNanos} so far */
    Stall stall(long durationNanos, boolean finished) {
        Path p = (Path) PATH.getAcquire(this);
        String n = (String) NAME.getAcquire(this);
        return new Stall(rank, operation, p == null ? null : n == null ? p.toString() : p.resolve(n).toString(),
                Instant.now().minusNanos(durationNanos), durationNanos, finished);
    }
}
