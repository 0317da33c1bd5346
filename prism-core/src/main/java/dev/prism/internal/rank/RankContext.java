package dev.prism.internal.rank;

import dev.prism.spi.SplitMix;
import dev.prism.internal.files.RunDirectory;

import dev.prism.spi.Errno;
import dev.prism.internal.coordination.RankAbortedException;
import dev.prism.internal.coordination.RankSync;

import dev.prism.Measurement;
import dev.prism.Parameters;
import dev.prism.PrismException;
import dev.prism.Stall;
import dev.prism.WorkloadContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The {@link WorkloadContext} of one rank. */
final class RankContext implements WorkloadContext {
    private final int rank;
    private final int worldSize;
    private final Path workDirectory;
    private final Path sharedDirectory;
    private final Random random;
    private final Parameters parameters;
    private final RankSync sync;
    private final long stallThresholdNanos;
    private final StallMonitor monitor;
    private final Map<String, OperationSlot> measuredSlots = new HashMap<>();
    private final List<OperationSlot> slotOrder = new ArrayList<>();
    private final List<Stall> stalls = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Long> measuredCounters = new LinkedHashMap<>();
    private final Map<String, String> measuredNotes = new LinkedHashMap<>();
    // During a rehearsal these point at throwaway maps, so the timed code path is the very same
    // code (no branch on "rehearsing" for the JIT to specialise) and nothing of it is kept.
    private Map<String, OperationSlot> slots = measuredSlots;
    private Map<String, Long> counters = measuredCounters;
    private Map<String, String> notes = measuredNotes;
    private int userBarriers;
    private boolean continueOnError;
    private dev.prism.Pacing pacing = dev.prism.Pacing.NONE;
    /** Where the intervals count from: the end of the ramp; Long.MIN_VALUE before the timed phase. */
    private long intervalOriginNanos = Long.MIN_VALUE;
    /** When a time-based run's timed phase ends. */
    private long endNanos = Long.MAX_VALUE;
    /** Whether {@link #keepGoing} asks the clock: in a time-based run's timed phase only, never in its rehearsal */
    private boolean pacedByTime;
    /** The operation whose timing failed last, for {@link #attempt} to charge its error to. */
    private String lastFailedOperation;
    private final java.util.Set<Path> failedItems = new java.util.HashSet<>();

    RankContext(int rank, int worldSize, Path workDirectory, Path sharedDirectory, long seed, Parameters parameters,
                RankSync sync, long stallThresholdNanos, StallMonitor monitor) {
        this.rank = rank;
        this.worldSize = worldSize;
        this.workDirectory = workDirectory;
        this.sharedDirectory = sharedDirectory;
        this.random = new Random(rankSeed(seed, rank));
        this.parameters = parameters;
        this.sync = sync;
        this.stallThresholdNanos = stallThresholdNanos;
        this.monitor = monitor;
    }

    /** Who hears each interval a timer of this rank closes. */
    interface IntervalSink {
        void completed(String operation, int index, dev.prism.Measurement interval);
    }

    private volatile IntervalSink intervalSink = (operation, index, interval) -> { };

    /** @param sink hears each interval this rank's timers close, as they close */
    void onInterval(IntervalSink sink) {
        this.intervalSink = sink;
    }

    /** Says that a timer closed an interval: outside the clock, the operation's timer has stopped. */
    void intervalCompleted(String operation, int index, dev.prism.Measurement interval) {
        try {
            intervalSink.completed(operation, index, interval);
        } catch (RuntimeException e) {
            // a listener's problem is never the measurement's
        }
    }

    /** Mixes the scenario seed with the rank (SplitMix64's finaliser) so ranks get unrelated streams. */
    static long rankSeed(long seed, int rank) {
        return SplitMix.mix(seed + 0x9E3779B97F4A7C15L * (rank + 1));
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int worldSize() {
        return worldSize;
    }

    @Override
    public Path workDirectory() {
        return workDirectory;
    }

    @Override
    public Path rehearsalDirectory() {
        return RunDirectory.rehearsalDirectory(workDirectory.getParent(), rank);
    }

    @Override
    public Path sharedDirectory() {
        return sharedDirectory;
    }

    /** The run, work and shared directories held for this repetition ({@link #holdDirectories}); null until then */
    private dev.prism.spi.HeldDirectory heldRun;
    private dev.prism.spi.HeldDirectory heldWork;
    private dev.prism.spi.HeldDirectory heldShared;

    /**
     * Opens the run directory once, by descriptor, without following a link ({@code O_NOFOLLOW} on its own name, below
     * its target), checks that this user owns it and that its mark names this run, and opens this rank's directory and
     * {@code shared} below it (made when missing). Everything the benchmarks reach relative to these descriptors stays in the directory this run made
     * for the whole repetition, whatever another user renames. A rank of a run (its run id set) fails, naming it, when
     * the run directory is missing (renamed away at that moment: the rank would reach everything by name), replaced by
     * a link, another user's, or not marked as its run's; a context a test made by hand, with no run id, holds nothing
     * when there is no run directory.
     */
    void holdDirectories() throws java.io.IOException {
        releaseDirectories();
        Path runDirectory = workDirectory.toAbsolutePath().normalize().getParent();
        if (runDirectory == null || runDirectory.getParent() == null
                || runId == null && !java.nio.file.Files.exists(runDirectory, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            heldRun = runId == null ? dev.prism.spi.HeldDirectory.openOwned(runDirectory)
                    : dev.prism.spi.HeldDirectory.openRun(runDirectory, runId);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new PrismException("run directory " + runDirectory + " " + e.getReason() + "; nothing is written there");
        } catch (java.io.IOException e) {
            throw new PrismException("run directory " + runDirectory + " cannot be opened as the directory this run made"
                    + " (a link put in its place is never followed): " + Errno.describe(e));
        }
        heldWork = heldRun.makeOrKeepDirectory(workDirectory.getFileName().toString(), 0755);
        heldShared = heldRun.makeOrKeepDirectory(sharedDirectory.getFileName().toString(), 0755);
    }

    /** Closes the directories {@link #holdDirectories} opened (at the end of the repetition, after teardown). */
    void releaseDirectories() {
        for (dev.prism.spi.HeldDirectory held : new dev.prism.spi.HeldDirectory[]{heldShared, heldWork, heldRun}) {
            if (held != null) {
                held.close();
            }
        }
        heldRun = heldWork = heldShared = null;
    }

    @Override
    public dev.prism.spi.HeldDirectory heldRunDirectory() {
        return heldRun;
    }

    @Override
    public dev.prism.spi.HeldDirectory heldWorkDirectory() {
        return heldWork;
    }

    @Override
    public dev.prism.spi.HeldDirectory heldSharedDirectory() {
        return heldShared;
    }

    /** The run whose mark the run directory must hold ({@link dev.prism.spi.HeldDirectory#openRun}); null: any of ours */
    private String runId;

    /** Sets the run this rank belongs to: the run directory it holds must be that run's. */
    void runId(String runId) {
        this.runId = runId;
    }

    /** What this rank's fixtures are made for: a stamp naming anything else is not reused */
    private String fixtureConfiguration = "";

    /** The counter of fixtures a repetition's set-up took as an earlier one of its configuration made them */
    public static final String FIXTURES_REUSED = "fixtures_reused";

    /** Sets what this rank's fixtures are made for: the benchmark, its parameters, the task count and the seed. */
    void fixtureConfiguration(String configuration) {
        this.fixtureConfiguration = configuration;
    }

    @Override
    public Path fixture(String name, dev.prism.Fixture build) throws Exception {
        return keep(dev.prism.internal.files.Fixtures.rankFixtures(workDirectory.getParent(), rank), name, build);
    }

    @Override
    public Path sharedFixture(String name, dev.prism.Fixture build) throws Exception {
        Path parent = dev.prism.internal.files.Fixtures.sharedFixtures(workDirectory.getParent());
        if (rank != 0) {
            return parent.resolve(dev.prism.internal.files.Fixtures.requirePlainName(name));
        }
        return keep(parent, name, build);
    }

    /**
     * Makes or reuses the fixture {@code name} in {@code parent} (a directory of the run directory), reaching it through
     * the run directory this rank holds ({@code /proc/<pid>/fd/N/…}, which {@code build} is given too, for itself and
     * the programs it starts), so a run directory renamed meanwhile gets nothing made, read or removed elsewhere.
     *
     * @return the fixture by its name, as {@link #workDirectory()} is given: PRISM's own workloads reach what lies
     *         beneath the run directory's name through the held descriptor
     */
    private Path keep(Path parent, String name, dev.prism.Fixture build) throws Exception {
        Path through = heldRun == null ? parent : heldRun.childPath().resolve(parent.getFileName().toString());
        if (!dev.prism.internal.files.Fixtures.ensure(through, name, fixtureConfiguration, build)) {
            addCounter(FIXTURES_REUSED, 1);
        }
        return parent.resolve(name);
    }

    @Override
    public Random random() {
        return random;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public Timer time(String operation) {
        stopIfTold();
        return slot(operation).start(null, null);
    }

    @Override
    public Timer time(String operation, Path path) {
        stopIfTold();
        return slot(operation).start(path, null);
    }

    @Override
    public Timer time(String operation, Path directory, String name) {
        stopIfTold();
        return slot(operation).start(directory, name);
    }

    /** Between operations, a rank stops at once when another rank failed or died, or the run was interrupted. */
    private void stopIfTold() {
        String reason = sync.stopReason();
        if (reason != null) {
            throw new RankAbortedException("stopped: " + reason, true);
        }
    }

    /** Paces this rank: time-based with a ramp, intervals. */
    void pacing(dev.prism.Pacing pacing) {
        this.pacing = pacing;
    }

    /** The timed phase starts now: a ramp, if any, runs first, and a time-based run ends after ramp and duration. */
    void phaseStarts(long nowNanos) {
        intervalOriginNanos = nowNanos + pacing.ramp().toNanos();
        if (pacing.timeBased()) {
            endNanos = intervalOriginNanos + pacing.duration().toNanos();
            pacedByTime = true;
        }
    }

    /** @return when recording starts: the end of the ramp; Long.MIN_VALUE without a ramp or before the phase */
    long recordingFromNanos() {
        // without a ramp everything is recorded, a latency the workload measured from before the phase (its intended start) too
        return pacing.ramp().isZero() ? Long.MIN_VALUE : intervalOriginNanos;
    }

    /** @return where intervals count from: the end of the ramp; Long.MIN_VALUE before the timed phase */
    long intervalOriginNanos() {
        return intervalOriginNanos;
    }

    /** @return the index of a time-based run's last interval (the duration over the interval, rounded up, less one); else unbounded */
    long lastIntervalIndex() {
        if (!pacing.timeBased() || pacing.interval().isZero()) {
            return Long.MAX_VALUE;
        }
        long d = pacing.duration().toNanos();
        long i = pacing.interval().toNanos();
        return Math.max(0, (d + i - 1) / i - 1);
    }

    /** @return the interval length in nanoseconds, 0 without intervals */
    long intervalNanos() {
        return pacing.interval().toNanos();
    }

    @Override
    public boolean timeBased() {
        return pacing.timeBased();
    }

    @Override
    public boolean keepGoing(long done, long amount) {
        return pacedByTime ? System.nanoTime() < endNanos : done < amount;
    }

    /** @return per operation, its interval measurements (only operations that kept any) */
    Map<String, List<Measurement>> intervals() {
        Map<String, List<Measurement>> result = new LinkedHashMap<>();
        if (pacing.interval().isZero()) {
            return result;
        }
        synchronized (slotOrder) {
            for (OperationSlot slot : slotOrder) {
                List<Measurement> intervals = slot.intervals();
                if (!intervals.isEmpty()) {
                    result.put(slot.operation(), intervals);
                }
            }
        }
        return result;
    }

    /** Continue past failed items ({@link WorkloadContext#attempt}) in this rank. */
    void continueOnError(boolean on) {
        this.continueOnError = on;
    }

    @Override
    public boolean continueOnError() {
        return continueOnError;
    }

    /** Told by an operation slot when its timing ended in failure. */
    void operationFailed(String operation) {
        lastFailedOperation = operation;
    }

    @Override
    public <E extends Exception> boolean attempt(String what, Path item, Action<E> action) throws E {
        lastFailedOperation = null;
        try {
            action.run();
            return true;
        } catch (Exception e) {
            String errno = continueOnError ? errnoOf(e) : null;
            if (errno == null) {
                throw e;
            }
            String operation = lastFailedOperation != null ? lastFailedOperation : what;
            addCounter("errors:" + operation + ":" + errno, 1);
            if (item != null) {
                failedItems.add(item);
            }
            return false;
        }
    }

    @Override
    public boolean failed(Path item) {
        return failedItems.contains(item);
    }

    /** @return the symbolic errno of an I/O failure ({@code EIO}), {@code EIO?} for an I/O error that names none, or null for anything else */
    static String errnoOf(Throwable e) {
        if (e instanceof RankAbortedException || e instanceof dev.prism.ValidationException || e instanceof InterruptedException) {
            return null;
        }
        Throwable cause = e instanceof java.io.UncheckedIOException u ? u.getCause() : e;
        if (cause instanceof java.io.IOException io) {
            String name = Errno.nameOf(io);
            return name != null ? name : errnoInText(io.getMessage(), "EIO?");
        }
        return errnoInText(cause.getMessage(), null);
    }

    /** An errno name as PRISM's messages write it: {@code (EIO)} after glibc's text, or {@code : EIO (5)} from the binding. */
    private static final java.util.regex.Pattern ERRNO = java.util.regex.Pattern.compile("(?:\\(|: )(E[A-Z0-9]+)(?:\\)| \\(\\d+\\))");

    private static String errnoInText(String message, String otherwise) {
        java.util.regex.Matcher m = message == null ? null : ERRNO.matcher(message);
        return m != null && m.find() ? m.group(1) : otherwise;
    }

    @Override
    public void addBytes(String operation, long bytes) {
        long recordingFrom = recordingFromNanos();
        if (recordingFrom != Long.MIN_VALUE && System.nanoTime() < recordingFrom) {
            return;   // within a ramp: its operations are not recorded, nor their bytes
        }
        slot(operation).recorder().addBytes(bytes);
    }

    @Override
    public void record(String operation, long nanos) {
        slot(operation).recordMeasured(nanos);
    }

    @Override
    public void record(Measurement observed) {
        slot(observed.operation()).recorder().add(observed);
    }

    @Override
    public void recordError(String operation) {
        slot(operation).recorder().recordError();
    }

    /** When a running operation of this rank last said it moved on ({@link #progress}); read by the stall monitor */
    private volatile long lastProgressNanos = Long.MIN_VALUE;
    /** The latest spell without progress as long as the stall threshold, within running timers (rank thread only) */
    private long quietFromNanos = Long.MIN_VALUE;
    private long quietToNanos = Long.MIN_VALUE;
    /** How many timers run now, and when the outermost started (rank thread only) */
    private int runningTimers;
    private long outerStartNanos = Long.MIN_VALUE;

    @Override
    public void progress() {
        long now = System.nanoTime();
        long since = Math.max(lastProgressNanos, outerStartNanos);
        if (runningTimers > 0 && now - since >= stallThresholdNanos) {
            quietFromNanos = since;
            quietToNanos = now;
        }
        lastProgressNanos = now;
    }

    /** A timer started at {@code nanos} (on the rank's thread). */
    void timerStarted(long nanos) {
        if (runningTimers++ == 0) {
            outerStartNanos = nanos;
        }
    }

    /** A running timer ended. */
    void timerEnded() {
        if (runningTimers > 0) {
            runningTimers--;
        }
    }

    /** @return since when the timing that started at {@code started} has made no progress: its start or its last progress */
    long quietSince(long started) {
        return Math.max(started, lastProgressNanos);
    }

    /**
     * @return whether the timing from {@code started} to {@code end} went the stall threshold without progress: with no
     *         progress in it, its whole duration; else the spell from its start or a progress to the next progress or
     *         its end
     */
    boolean quietPastThreshold(long started, long end) {
        long last = lastProgressNanos;
        if (last < started) {
            return end - started >= stallThresholdNanos;
        }
        if (end - last >= stallThresholdNanos) {
            return true;
        }
        return quietToNanos > started
                && Math.min(end, quietToNanos) - Math.max(started, quietFromNanos) >= stallThresholdNanos;
    }

    @Override
    public void callReturned(String operation, String path, long nanos) {
        if (nanos >= stallThresholdNanos && !rehearsing()) {
            Stall stall = new Stall(rank, operation, path, java.time.Instant.now().minusNanos(nanos), nanos, true);
            stalls.add(stall);
            monitor.report(stall);
        }
    }

    @Override
    public void elapsed(String operation, long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("elapsed nanos of '" + operation + "' must be >= 0, was " + nanos);
        }
        slot(operation).elapsed(nanos);
    }

    private boolean alreadyWarm;

    /** Says whether this JVM already ran the benchmark's timed phase to its end ({@link #alreadyWarm()}). */
    void alreadyWarm(boolean warm) {
        this.alreadyWarm = warm;
    }

    @Override
    public boolean alreadyWarm() {
        return alreadyWarm;
    }

    /** The counter of the bytes a rank's rehearsals moved. */
    static final String REHEARSAL_BYTES = "rehearsal_bytes";

    /** How many timings the timer machinery is exercised with before a rehearsal (a few milliseconds). */
    private static final int TIMER_WARMUP_TIMINGS = 20_000;
    /** The operation those timings time (thrown away with the rehearsal's) */
    private static final String TIMER_WARM_UP = "prism.timer-warm-up";

    /**
     * Runs {@code workload}'s rehearsal with everything it records thrown away, after exercising
     * the timers themselves (time, close, record) so that their code is compiled before the clock.
     */
    void rehearse(dev.prism.Workload workload) throws Exception {
        slots = new HashMap<>();   // the measured slots' map class: the JIT sees one type behind slots.get
        counters = new LinkedHashMap<>();
        notes = new LinkedHashMap<>();
        try {
            // alone and nested (a create timing holds its open, write and close): compiled from a profile of one
            // shape only, the timer's code was thrown out at the other's first use (an uncommon trap at the first
            // nested timing) and ran profiled, about twice as slow, until compiled again
            for (int i = 0; i < (alreadyWarm ? 1 : TIMER_WARMUP_TIMINGS); i++) {
                Timer t = time(TIMER_WARM_UP, workDirectory);
                if ((i & 1) == 0) {
                    t.fail();
                } else {
                    time(TIMER_WARM_UP + "-nested", workDirectory).close();
                }
                t.close();
            }
            rehearsedOperations.clear();   // the timer's own warm-up is no operation of the workload's
            compilerMillisSeen = JitQuiet.compilationMillis(); // a first round that compiles nothing is steady
            roundsWaited = 0;
            workload.rehearse(this);
        } finally {
            retireRehearsalSlots();
            long moved = rehearsalBytes;
            rehearsalBytes = 0;
            if (moved > 0) {
                // what the rehearsal wrote or read, beside the timed bytes (its timings are thrown away)
                synchronized (measuredCounters) {
                    measuredCounters.merge(REHEARSAL_BYTES, moved, Long::sum);
                }
            }
            slots = measuredSlots;
            counters = measuredCounters;
            notes = measuredNotes;
            prepareSlots(rehearsedOperations);
        }
    }

    /** Waits for the JIT compiler to go quiet (set by the rank's execution); null: nothing to wait for */
    private JitWait compilerWait;

    /** A bounded wait for the JIT compiler to go quiet. */
    @FunctionalInterface
    interface JitWait {
        void await() throws InterruptedException;
    }

    /** @param wait how {@link #awaitCompiler} waits for the compiler, in this rank's rehearsals */
    void compilerWait(JitWait wait) {
        this.compilerWait = wait;
    }

    /** Bytes the rehearsal's throwaway slots counted before a round's wait replaced them */
    private long rehearsalBytes;

    /** The compiler's total compilation time (ms) at the last wait or the rehearsal's start; -1 where unknown */
    private long compilerMillisSeen = -1;
    /** The rounds this rehearsal waited for so far: where the JVM does not say what it compiled, only the first says yes */
    private int roundsWaited;

    /** Adds what the rehearsal's throwaway slots moved to {@link #rehearsalBytes}, and drops them */
    private void retireRehearsalSlots() {
        rehearsalBytes += slots.values().stream().mapToLong(OperationSlot::bytes).sum();
        slots.clear();
    }

    @Override
    public void awaitCompiler() {
        awaitCompilerRound();
    }

    @Override
    public boolean awaitCompilerRound() {
        if (!rehearsing() || compilerWait == null) {
            return false;   // only a rehearsal waits: never inside the timed phase
        }
        try {
            compilerWait.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrismException("rank " + rank + " was interrupted while the JIT compiler caught up", e);
        }
        // fresh throwaway slots for the next round: a first recording into an empty histogram (a new maximum, a new
        // minimum) is then part of every round's profile, as it is of the timed phase's first operation, instead of a
        // branch the compiler saw untaken and drops, so that the timed phase's first timing deoptimised the timer
        retireRehearsalSlots();
        long now = JitQuiet.compilationMillis();
        boolean compiled = now < 0 ? roundsWaited == 0 : now - compilerMillisSeen >= JitQuiet.ROUND_COMPILE_MILLIS;
        compilerMillisSeen = now;
        roundsWaited++;
        return compiled;
    }

    /** The operations the rehearsal timed, in the order it first timed them (rank thread only) */
    private final List<String> rehearsedOperations = new ArrayList<>();

    /**
     * Makes the measured slots of the operations a rehearsal timed, in the order it first timed them, before the
     * clock: compiled from a rehearsal in which every slot already existed, the JIT's code for a timing had no path
     * for a missing one, and the first timing of each operation after the clock threw that code out (an uncommon
     * trap, in -Xlog:deoptimization at the first timed create of a tmpfs create_files), leaving the timed phase to run
     * less optimised code until it was compiled again. A prepared slot that the timed phase never uses is not
     * reported ({@link #measurements}).
     */
    private void prepareSlots(java.util.Collection<String> operations) {
        for (String operation : operations) {
            if (!measuredSlots.containsKey(operation)) {
                newSlot(operation).prepared();
            }
        }
    }

    @Override
    public void addCounter(String counter, long delta) {
        synchronized (counters) {
            counters.merge(counter, delta, Long::sum);
        }
    }

    @Override
    public void note(String key, String value) {
        synchronized (notes) {
            notes.put(key, value);
        }
    }

    @Override
    public void noteProgram(String name, String version) {
        synchronized (notes) {
            notes.put(name, version);
            String listed = notes.get(PROGRAMS_NOTE);
            if (listed == null || listed.isEmpty()) {
                notes.put(PROGRAMS_NOTE, name);
            } else if (!java.util.List.of(listed.split(", ")).contains(name)) {
                notes.put(PROGRAMS_NOTE, listed + ", " + name);
            }
        }
    }

    /** How many untimed steps failed (see {@link #untimedProblem}), and the first: kept across the rehearsal's swap */
    private long untimedProblems;
    private String firstUntimedProblem;

    @Override
    public synchronized void untimedProblem(String step, Exception problem) {
        if (untimedProblems++ == 0) {
            firstUntimedProblem = step + ": " + RankExecution.describe(problem);
        }
    }

    /** @return this rank's notes, with what untimed steps failed */
    Map<String, String> notes() {
        Map<String, String> copy;
        synchronized (notes) {
            copy = new LinkedHashMap<>(notes);
        }
        synchronized (this) {
            if (untimedProblems > 0) {
                copy.put("untimed_problems", untimedProblems + " untimed step" + (untimedProblems == 1 ? "" : "s")
                        + " failed (the measurement is kept); the first: " + firstUntimedProblem);
            }
        }
        return copy;
    }

    /** @return this rank's counters, in the order first added */
    Map<String, Long> counters() {
        synchronized (counters) {
            return new LinkedHashMap<>(counters);
        }
    }

    @Override
    public void barrier() {
        if (rehearsing()) {
            throw new IllegalStateException("a rehearsal must not wait at a barrier: other ranks may not rehearse");
        }
        await("workload-" + (++userBarriers));
    }

    void await(String name) {
        try {
            sync.await(rank, name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrismException("rank " + rank + " was interrupted at barrier '" + name + "'", e);
        }
    }

    private OperationSlot slot(String operation) {
        OperationSlot slot = slots.get(operation);
        if (slot == null) {
            slot = newSlot(operation);
        }
        return slot;
    }

    /** @return whether a rehearsal is running: its timings go to throwaway slots */
    private boolean rehearsing() {
        return slots != measuredSlots;
    }

    private OperationSlot newSlot(String operation) {
        if (rehearsing()) {
            // never a stall, never watched, never reported
            OperationSlot slot = new OperationSlot(rank, operation, Long.MAX_VALUE, new ArrayList<>(), sync, this);
            slots.put(operation, slot);
            if (!rehearsedOperations.contains(operation)) {   // again after a round's wait made fresh slots
                rehearsedOperations.add(operation);
            }
            return slot;
        }
        OperationSlot slot = new OperationSlot(rank, operation, stallThresholdNanos, stalls, sync, this);
        slots.put(operation, slot);
        synchronized (slotOrder) {
            slotOrder.add(slot);
        }
        monitor.watch(slot);
        return slot;
    }

    /** @return what each operation measured so far, with {@code elapsedNanos} as the timed phase */
    Map<String, Measurement> measurements(long elapsedNanos) {
        Map<String, Measurement> result = new LinkedHashMap<>();
        synchronized (slotOrder) {
            for (OperationSlot slot : slotOrder) {
                Measurement m = slot.recorder().snapshot(slot.elapsedOr(elapsedNanos));
                if (!slot.isPrepared() || m.count() > 0 || m.errors() > 0 || m.bytes() > 0 || slot.running()) {
                    result.put(slot.operation(), m);
                }
            }
        }
        return result;
    }

    /** @return finished stalls, and operations still running past the threshold as unfinished stalls */
    List<Stall> stalls() {
        List<Stall> all;
        synchronized (stalls) {
            all = new ArrayList<>(stalls);
        }
        long now = System.nanoTime();
        synchronized (slotOrder) {
            for (OperationSlot slot : slotOrder) {
                if (slot.running()) {
                    long running = now - slot.startedNanos();
                    if (running >= stallThresholdNanos) {
                        all.add(slot.stall(running, false));
                    }
                }
            }
        }
        return all;
    }
}
