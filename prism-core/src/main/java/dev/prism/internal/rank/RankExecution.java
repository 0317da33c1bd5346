package dev.prism.internal.rank;

import dev.prism.internal.output.Durations;
import dev.prism.spi.Errno;
import dev.prism.internal.coordination.HostProbe;
import dev.prism.internal.coordination.RankAbortedException;
import dev.prism.internal.coordination.RankSync;
import dev.prism.internal.output.ResultJson;
import dev.prism.spi.Verbose;

import dev.prism.Benchmark;
import dev.prism.Failure;
import dev.prism.PrismException;
import dev.prism.RankPhase;
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
    /** The phase this rank is in, for a rank that never finishes: what it was stuck in */
    private volatile RankPhase phase = RankPhase.STARTING;

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
        this.context.runId(plan.runId());
        this.context.continueOnError(plan.continueOnError());
        this.context.pacing(plan.pacing());
        this.context.fixtureConfiguration(benchmark.name() + " " + benchmark.parameters() + " tasks=" + plan.tasks()
                + " seed=" + plan.seed());
        this.context.onInterval((operation, index, interval) -> plan.listener().intervalCompleted(rank, operation, index, interval));
    }

    /** Runs the rank in the calling thread. */
    public RankResult run() {
        Failure failure = null;
        Workload workload = null;
        try {
            enter(RankPhase.SETUP);
            // held for the whole repetition: what the benchmarks reach through these never follows a rename
            context.holdDirectories();
            JitQuiet.Sample compilerAtSetup = JitQuiet.sample();
            JitQuiet.prepare();
            workload = plan.benchmark().newWorkload();
            workload.setup(context);
            // one-time costs and the JIT's compilation of the hot path happen here, before the clock
            enter(RankPhase.REHEARSAL);
            context.alreadyWarm(WarmBenchmarks.isWarm(plan.benchmark()));
            // a rehearsal's rounds wait for an idle queue where it can be read: see awaitCompilerRound
            context.compilerWait(() -> JitQuiet.await(plan.deadline(), compilerAtSetup, true));
            context.rehearse(workload);
            // warm or not: the last timed phase may have set compilations going (a workload with no rehearsal of its
            // own compiles its path there), which must not compete with this one on a busy core
            JitQuiet.await(plan.deadline(), compilerAtSetup);
            context.await("before-run");
            enter(RankPhase.RUN);
            phaseStartNanos = System.nanoTime();
            context.phaseStarts(phaseStartNanos);
            started = true;
            workload.run(context);
            phaseEndNanos = System.nanoTime();
            WarmBenchmarks.ranToTheEnd(plan.benchmark());
            context.await("after-run");
            enter(RankPhase.VALIDATE);
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
                enter(RankPhase.TEARDOWN);
                workload.teardown(context);
            } catch (Throwable t) {
                if (failure == null) {
                    failure = classify(t);
                }
            }
        }
        context.releaseDirectories();
        RankResult result = result(failure);
        boolean interrupted = false;
        Thread writer = writeDocument(result);
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true; // told to stop: the document is still written, the result returned
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        enter(RankPhase.FINISHED);
        return result;
    }

    /**
     * Writes this rank's own result document ({@code rank-<r>.json} in the plan's rank output, when it names one) in a
     * thread of its own: a launcher's interrupt (the deadline, a stop) must not close that file's channel under it, and
     * a failed copy never loses the result itself. A rank that reports without finishing (still in an operation when it
     * was told to stop: srun's SIGTERM to every task) writes what it measured this way too, so a step SLURM then kills
     * loses at most the repetition in flight of the ranks it killed.
     *
     * @return the writing thread, started
     */
    public Thread writeDocument(RankResult result) {
        Thread writer = new Thread(() -> {
            try {
                ResultJson.writeRank(plan, result);
            } catch (PrismException e) {
                System.err.println(dev.prism.spi.TerminalText.escape("prism: " + e.getMessage()));
            }
        }, "prism-rank-" + rank + "-result");
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    /** The phase this rank is in, as a flight-recorder event (committed when the next one begins) */
    private RankPhaseEvent phaseEvent;

    private void enter(RankPhase next) {
        if (phaseEvent != null) {
            phaseEvent.commit();
            phaseEvent = null;
        }
        if (next != RankPhase.FINISHED) {
            phaseEvent = new RankPhaseEvent(rank, next.name());
            phaseEvent.begin();
        }
        phase = next;
        plan.listener().rankEntered(rank, next);
    }

    /** The launcher stopped this rank because the run passed its deadline: whatever it throws now is a timeout. */
    public void markTimedOut() {
        timedOut = true;
    }

    /** @return what this rank measured so far, for a rank that did not finish by the deadline */
    public RankResult unfinished() {
        return result(new Failure(Failure.Kind.TIMEOUT, "did not finish within the timeout of "
                + Durations.format(plan.timeout()) + "; the rank is stuck in " + phase.description()
                + " (still running when the run ended)", rank));
    }

    /**
     * @return what this rank measured so far, for a rank still in an operation when it was told to stop
     *         for {@code reason} (a TIMEOUT when the deadline passed)
     */
    public RankResult unfinished(String reason) {
        if (deadlineReached() || !Instant.now().isBefore(plan.deadline())) {
            return unfinished();
        }
        return result(new Failure(Failure.Kind.ABORTED, "still in " + phase.description() + " when told to stop ("
                + reason + ")", rank));
    }

    /**
     * @return whether the run reached its deadline: the launcher marked this rank, or the coordinator stopped the ranks
     *         for the deadline. The coordinator's clock decides, not this rank's: a rank in another process learns the
     *         deadline as time remaining, so its own deadline falls later by the plan's journey, more on a loaded host
     */
    private boolean deadlineReached() {
        return timedOut || sync.deadlinePassed();
    }

    private RankResult result(Failure failure) {
        // a ramp is no part of the timed phase: rates count from its end
        long from = started ? Math.max(phaseStartNanos, context.intervalOriginNanos()) : 0;
        long phase = !started ? 0 : Math.max(0, (phaseEndNanos != 0 ? phaseEndNanos : System.nanoTime()) - from);
        java.util.Map<String, dev.prism.Measurement> measured = context.measurements(phase);
        java.util.Map<String, String> notes = context.notes();
        if (failure == null && started && plan.tasks() > 1 && measured.values().stream().allMatch(m -> m.count() == 0 && m.errors() == 0)) {
            // a rank with no share of the work (18 files for 32 ranks) passes, but not silently
            notes = new java.util.LinkedHashMap<>(notes);
            notes.put(IDLE, "measured no operation in its timed phase: it had no share of the work");
        }
        return new RankResult(rank, hostname, failure == null ? Status.PASS : Status.FAIL, failure, phase,
                measured, context.counters(), context.stalls(), notes, context.intervals());
    }

    /** The note of a rank that measured nothing: named in the result and the table. */
    public static final String IDLE = "idle";

    private Failure classify(Throwable t) {
        if (deadlineReached() && !(t instanceof RankAbortedException a && !a.midPhase())) {
            // a rank waiting at a barrier when the deadline came did its part: it is ABORTED below
            return timeout(t);
        }
        if (t instanceof dev.prism.RefusedException) {
            return new Failure(Failure.Kind.REFUSED, t.getMessage(), rank);
        }
        if (t instanceof ValidationException) {
            return new Failure(Failure.Kind.VALIDATION, t.getMessage(), rank);
        }
        if (t instanceof RankAbortedException) {
            return new Failure(Failure.Kind.ABORTED, t.getMessage(), rank);
        }
        if (!Instant.now().isBefore(plan.deadline())) {
            return timeout(t);
        }
        return new Failure(Failure.Kind.EXCEPTION, describe(t), rank);
    }

    /** @return the TIMEOUT of this rank, stopped in its current phase with {@code t} */
    private Failure timeout(Throwable t) {
        return new Failure(Failure.Kind.TIMEOUT, "exceeded the timeout of " + Durations.format(plan.timeout()) + " in "
                + phase.description() + " (stopped with " + describe(t) + ")", rank);
    }

    /**
     * @return PRISM's own message as it is; for an I/O failure the path, the reason and errno's name;
     *         for anything else its message. With {@code --verbose} (system property {@code prism.verbose=true})
     *         Java's view follows on the next lines: the exception's class, its stack trace and its causes.
     */
    public static String describe(Throwable t) {
        String plain = plainly(t);
        return Verbose.enabled() ? plain + "\n" + Verbose.stackTrace(t) : plain;
    }

    private static String plainly(Throwable t) {
        if (t instanceof PrismException) {
            // PRISM's own exceptions are written to be read as they are: the call, the path, errno
            return t.getMessage();
        }
        if (t instanceof java.nio.file.FileSystemException f && f.getFile() != null) {
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + Errno.describe(f);
        }
        if (t instanceof java.io.IOException io) {
            return Errno.describe(io);
        }
        String message = t.getMessage();
        return message == null || message.isBlank() ? "an internal error (run with --verbose to see it)" : message;
    }
}
