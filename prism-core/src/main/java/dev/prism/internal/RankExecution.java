package dev.prism.internal;

import dev.prism.Benchmark;
import dev.prism.Failure;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.Status;
import dev.prism.ValidationException;
import dev.prism.Workload;

import java.time.Instant;

/**
 * One rank's life in one repetition: setup → rehearsal (untimed, see {@link Workload#rehearse}) →
 * a wait for the JIT to go quiet → barrier → timed run → barrier → validate → barrier → teardown
 * (always). Any launcher runs ranks through this class, so every rank behaves the same
 * whatever started it.
 */
public final class RankExecution {
    private final RunPlan plan;
    private final int rank;
    private final RankSync sync;
    private final RankContext context;
    private final String hostname;
    private volatile long phaseStartNanos;
    private volatile long phaseEndNanos;
    private volatile boolean started;
    private volatile boolean timedOut;

    /**
     * @param plan    what to run
     * @param rank    which rank this is
     * @param sync    how it meets the other ranks
     * @param monitor who watches its timers for stalls
     */
    public RankExecution(RunPlan plan, int rank, RankSync sync, StallMonitor monitor) {
        this.plan = plan;
        this.rank = rank;
        this.sync = sync;
        this.hostname = HostProbe.hostname();
        Benchmark benchmark = plan.benchmark();
        this.context = new RankContext(rank, plan.tasks(), plan.rankDirectory(rank), plan.sharedDirectory(),
                plan.seed(), benchmark.parameters(), sync, plan.stallThreshold().toNanos(), monitor);
    }

    /** Runs the rank in the calling thread. */
    public RankResult run() {
        Failure failure = null;
        Workload workload = null;
        try {
            workload = plan.benchmark().newWorkload();
            workload.setup(context);
            // one-time costs and the JIT's compilation of the hot path happen here, before the clock
            context.rehearse(workload);
            JitQuiet.await(plan.deadline());
            context.await("before-run");
            phaseStartNanos = System.nanoTime();
            started = true;
            workload.run(context);
            phaseEndNanos = System.nanoTime();
            context.await("after-run");
            workload.validate(context);
            // the paper's third barrier: every rank's I/O is done and checked before anyone tears down
            context.await("after-validate");
        } catch (Throwable t) {
            failure = classify(t);
            if (failure.kind() != Failure.Kind.ABORTED) {
                sync.abort("rank " + rank + " failed: " + failure.message());
            }
        }
        if (workload != null) {
            try {
                workload.teardown(context);
            } catch (Throwable t) {
                if (failure == null) {
                    failure = classify(t);
                }
            }
        }
        RankResult result = result(failure);
        // each rank writes its own result document
        ResultJson.writeRank(plan, result);
        return result;
    }

    /** The launcher stopped this rank because the run passed its deadline: whatever it throws now is a timeout. */
    public void markTimedOut() {
        timedOut = true;
    }

    /** @return what this rank measured so far, for a rank that did not finish by the deadline */
    public RankResult unfinished() {
        return result(new Failure(Failure.Kind.TIMEOUT, "did not finish within the timeout of "
                + Durations.format(plan.timeout()) + "; the rank is stuck (still running when the run ended)", rank));
    }

    private RankResult result(Failure failure) {
        long phase = !started ? 0 : (phaseEndNanos != 0 ? phaseEndNanos : System.nanoTime()) - phaseStartNanos;
        return new RankResult(rank, hostname, failure == null ? Status.PASS : Status.FAIL, failure, phase,
                context.measurements(phase), context.counters(), context.stalls(), context.notes());
    }

    private Failure classify(Throwable t) {
        if (t instanceof ValidationException) {
            return new Failure(Failure.Kind.VALIDATION, t.getMessage(), rank);
        }
        if (t instanceof RankAbortedException) {
            return new Failure(Failure.Kind.ABORTED, t.getMessage(), rank);
        }
        if (timedOut || !Instant.now().isBefore(plan.deadline())) {
            return new Failure(Failure.Kind.TIMEOUT, "exceeded the timeout of " + Durations.format(plan.timeout())
                    + " (stopped with " + describe(t) + ")", rank);
        }
        return new Failure(Failure.Kind.EXCEPTION, describe(t), rank);
    }

    /** @return PRISM's own message as it is; for anything else the type, message and where it was thrown */
    static String describe(Throwable t) {
        if (t instanceof PrismException) {
            // PRISM's own exceptions are written to be read as they are: the call, the path, errno
            return t.getMessage();
        }
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            s.append(": ").append(t.getMessage());
        }
        StackTraceElement[] trace = t.getStackTrace();
        if (trace.length > 0) {
            s.append(" (at ").append(trace[0]).append(')');
        }
        if (t.getCause() != null && t.getCause() != t) {
            s.append("; caused by ").append(t.getCause().getClass().getName()).append(": ")
                    .append(t.getCause().getMessage());
        }
        return s.toString();
    }
}
