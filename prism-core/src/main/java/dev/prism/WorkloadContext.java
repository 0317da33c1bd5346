package dev.prism;

import dev.prism.spi.HeldDirectory;

import java.nio.file.Path;
import java.util.Random;

/**
 * What a running {@link Workload} sees: its rank, the world size, its own directory, a seeded
 * random source, timers for sub-operations and a barrier with the other ranks.
 *
 * <pre>{@code
 * import dev.prism.Workload;
 * import java.nio.file.Files;
 *
 * Workload w = ctx -> {
 *     var file = ctx.workDirectory().resolve("f-" + ctx.random().nextInt(1000));
 *     ctx.measure("create", file, () -> Files.write(file, new byte[4096]));
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

    /**
     * @return where this rank may warm its code before the clock starts, {@code <target>/prism-<runId>/rehearsal-<rank>}:
     *         not created, and removed with the run directory when the benchmark leaves anything there
     */
    Path rehearsalDirectory();

    /**
     * @return the run directory ({@code <target>/prism-<runId>}, the parent of {@link #workDirectory()}) held by its
     *         descriptor for this repetition: opened once when the rank starts, without following a link, and checked to
     *         be this user's. Whatever is reached relative to it ({@code openat}, {@code statx}, {@code renameat},
     *         {@code unlinkat} with its descriptor, a child's working directory through {@link HeldDirectory#procPath})
     *         stays in the directory this run made, even when another user renames it, or a directory above it, and
     *         puts a link in its place. Null where the context holds none (one made by hand, or a run directory that did
     *         not exist when the rank started): then only paths reach it.
     */
    default HeldDirectory heldRunDirectory() {
        return null;
    }

    /** @return {@link #workDirectory()} held by its descriptor for this repetition (see {@link #heldRunDirectory()}), or null */
    default HeldDirectory heldWorkDirectory() {
        return null;
    }

    /** @return {@link #sharedDirectory()} held by its descriptor for this repetition (see {@link #heldRunDirectory()}), or null */
    default HeldDirectory heldSharedDirectory() {
        return null;
    }

    /**
     * This rank's read-only fixture {@code name}: made by {@code build} in an empty directory the first time this rank
     * asks for it in a configuration (one benchmark with its parameters and task count), and the same directory, as
     * it was made, for the configuration's later warm-ups and repetitions. Call it in {@link Workload#setup}; the
     * timed phase may read the fixture but must not change it. It lives in the run directory
     * ({@code <target>/prism-<runId>/fixtures-<rank>/<name>}, as deep as the rank's own directory) and goes with it.
     * Default (a context that keeps nothing): built afresh in {@link #workDirectory()} every time.
     *
     * @param name  a plain name: letters, digits, {@code _ . -}, not starting with a dot
     * @param build makes the fixture
     * @return the fixture's directory
     * @throws IllegalArgumentException when {@code name} is not a plain name
     */
    default Path fixture(String name, Fixture build) throws Exception {
        String plain = dev.prism.internal.files.Fixtures.requirePlainName(name);
        Path directory = java.nio.file.Files.createDirectory(workDirectory().resolve(plain));
        build.build(directory);
        return directory;
    }

    /**
     * As {@link #fixture}, one for all ranks: rank 0 makes it (the others get its path and must not read it before
     * a {@link #barrier()} that follows rank 0's call, the one ending set-up at the latest), in
     * {@code <target>/prism-<runId>/fixtures-shared/<name>}. Default: rank 0 builds it afresh in
     * {@link #sharedDirectory()} every time.
     */
    default Path sharedFixture(String name, Fixture build) throws Exception {
        Path directory = sharedDirectory().resolve(dev.prism.internal.files.Fixtures.requirePlainName(name));
        if (rank() == 0) {
            java.nio.file.Files.createDirectory(directory);
            build.build(directory);
        }
        return directory;
    }

    /**
     * @return true when this JVM has already run this benchmark's timed phase, with these parameters, to its end (an
     *         earlier repetition under the threads launcher, say): its code is compiled and loaded, and a
     *         {@link Workload#rehearse rehearsal} need only do what is new to this rank, one step, not thousands
     */
    default boolean alreadyWarm() {
        return false;
    }

    /**
     * In a {@link Workload#rehearse rehearsal}, returns once the JIT compiler has compiled what the steps so far set
     * going (bounded, as the wait that follows every rehearsal is); elsewhere, at once. The compiler of a JVM just
     * started has a long queue, so it compiles a rehearsal's hot path only part-way (its first tiers), and more of it
     * would otherwise reach its final tier inside the timed phase; the steps after the wait run with the compiler
     * idle. {@link #awaitCompilerRound()} also says whether more steps are needed. Default: returns at once.
     *
     * <pre>{@code
     * import dev.prism.Workload;
     * import dev.prism.WorkloadContext;
     *
     * Workload w = new Workload() {
     *     @Override
     *     public void rehearse(WorkloadContext ctx) {
     *         for (int step = 0; step < 2_000; step++) {
     *             if (step == 1_000) {
     *                 ctx.awaitCompiler();
     *             }
     *             // one step of the timed path, on scratch files
     *         }
     *     }
     *
     *     @Override
     *     public void run(WorkloadContext ctx) {
     *     }
     * };
     * }</pre>
     */
    default void awaitCompiler() {
        awaitCompilerRound();
    }

    /**
     * Ends a round of a {@link Workload#rehearse rehearsal}'s steps: waits as {@link #awaitCompiler()} does, then says
     * whether the JIT compiler compiled more than a trace (10 ms of compilation, in all its threads) since the
     * rehearsal began or since the last wait. A rehearsal that repeats its steps in rounds stops once some rounds in a
     * row (PRISM's own: three) compiled nothing: its hot path then runs at the tier the timed phase will run it at, where one round of a JVM
     * just started leaves part of it at a profiled tier (about twice as slow) that reaches its last tier only inside
     * the timed phase. One quiet round is not enough: a profiled tier counts calls for a round before it asks for the
     * last. Where the JVM does not say how long it spent compiling, only the first wait returns true. Outside a
     * rehearsal returns false at once. Default: false.
     *
     * <pre>{@code
     * import dev.prism.Workload;
     * import dev.prism.WorkloadContext;
     *
     * Workload w = new Workload() {
     *     @Override
     *     public void rehearse(WorkloadContext ctx) {
     *         int quiet = 0;
     *         for (int round = 0; round < 10 && quiet < 3; round++) {
     *             for (int step = 0; step < 1_000; step++) {
     *                 // one step of the timed path, on scratch files
     *             }
     *             quiet = ctx.awaitCompilerRound() ? 0 : quiet + 1;   // three quiet rounds: at its last tier
     *         }
     *     }
     *
     *     @Override
     *     public void run(WorkloadContext ctx) {
     *     }
     * };
     * }</pre>
     *
     * @return true when the compiler compiled more than a trace since the rehearsal began or since the previous wait
     */
    default boolean awaitCompilerRound() {
        return false;
    }

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

    /**
     * As {@link #time(String, Path)} for the file {@code name} in {@code directory}, with no {@link Path} made per
     * call: a stall names {@code directory/name}, joined only then. For the loops of metadata benchmarks, where making
     * each file's {@code Path} (its bytes, then its text) costs a good share of what a cached {@code stat} costs.
     * A null {@code name}: {@code directory} is the file, as {@code time(operation, directory)}. Default: {@code
     * time(operation, directory.resolve(name))}.
     *
     * <pre>{@code
     * import dev.prism.Workload;
     * import java.nio.file.Files;
     *
     * Workload w = ctx -> {
     *     Files.createFile(ctx.workDirectory().resolve("data"));
     *     try (var t = ctx.time("stat", ctx.workDirectory(), "data")) {
     *         Files.size(ctx.workDirectory().resolve("data"));
     *     }
     * };
     * }</pre>
     */
    default Timer time(String operation, Path directory, String name) {
        return time(operation, directory == null || name == null ? directory : directory.resolve(name));
    }

    /**
     * Times {@code action} as one {@code operation}. When it throws, the operation counts as an
     * error ({@link Measurement#errors()}), not as a latency sample, and the exception goes on.
     */
    default <E extends Exception> void measure(String operation, Action<E> action) throws E {
        measure(operation, null, action);
    }

    /** As {@link #measure(String, Action)}, naming the file the operation works on (for stalls). */
    default <E extends Exception> void measure(String operation, Path path, Action<E> action) throws E {
        call(operation, path, () -> {
            action.run();
            return null;
        });
    }

    /**
     * As {@link #measure(String, Path, Action)} for the file {@code name} in {@code directory}, with no {@link Path}
     * made per call ({@link #time(String, Path, String)}).
     */
    default <E extends Exception> void measure(String operation, Path directory, String name, Action<E> action) throws E {
        call(operation, directory, name, () -> {
            action.run();
            return null;
        });
    }

    /**
     * As {@link #call(String, Path, Call)} for the file {@code name} in {@code directory}, with no {@link Path} made
     * per call ({@link #time(String, Path, String)}); a null {@code name}: {@code directory} is the file.
     */
    default <T, E extends Exception> T call(String operation, Path directory, String name, Call<T, E> call) throws E {
        Timer timer = time(operation, directory, name);
        try {
            return call.call();
        } catch (Throwable t) {
            timer.fail();
            throw t;
        } finally {
            timer.close();
        }
    }

    /**
     * Times {@code call} as one {@code operation} on {@code path} (null when none) and returns its
     * result. When it throws, the operation counts as an error, not as a latency sample, and the
     * exception goes on unchanged.
     *
     * <pre>{@code
     * import dev.prism.Workload;
     * import java.nio.channels.FileChannel;
     * import java.nio.file.Files;
     *
     * Workload w = ctx -> {
     *     var file = Files.createFile(ctx.workDirectory().resolve("data"));
     *     var ch = ctx.call("open", file, () -> FileChannel.open(file));
     *     ctx.measure("close", file, ch::close);
     * };
     * }</pre>
     */
    default <T, E extends Exception> T call(String operation, Path path, Call<T, E> call) throws E {
        return call(operation, path, null, call);
    }

    /** Counts {@code bytes} transferred by {@code operation}, for bytes/s. */
    void addBytes(String operation, long bytes);

    /**
     * Says that the running operation moved on: one call of many returned (a block of a large file written, a chunk
     * read). A stall is a timing that made no progress for the stall threshold, so a 1 GiB write whose 1 MiB calls
     * keep returning is slow or fast, never stalled, while one call that hangs is; a timing that says nothing of its
     * progress is a stall once it has run for the threshold. Call it between the calls of one timing, not after the
     * last. Default: nothing.
     *
     * <pre>{@code
     * import dev.prism.Workload;
     *
     * Workload bulk = ctx -> {
     *     try (var t = ctx.time("write")) {
     *         for (int block = 0; block < 4; block++) {
     *             // one block's write, then:
     *             ctx.progress();
     *         }
     *     }
     * };
     * }</pre>
     */
    default void progress() {
    }

    /**
     * Records one {@code operation} that took {@code nanos}, measured by the workload itself: for
     * latencies that do not start now, such as the time from an operation's intended start
     * (coordinated omission). Allocates nothing once the operation has been seen.
     */
    void record(String operation, long nanos);

    /**
     * Adds operations observed and summarised outside this rank's timers — a kernel trace's counts and latencies of a
     * traced program's system calls — to {@code observed.operation()}'s measurement: its count, errors, bytes, sum,
     * extremes and histogram. Records no progress and no intervals.
     */
    default void record(Measurement observed) {
        observed.histogram().recordedValues().forEach(v -> {
            for (long i = 0; i < v.getCountAddedInThisIterationStep(); i++) {
                record(observed.operation(), v.getValueIteratedTo());
            }
        });
        for (long i = 0; i < observed.errors(); i++) {
            recordError(observed.operation());
        }
        if (observed.bytes() > 0) {
            addBytes(observed.operation(), observed.bytes());
        }
    }

    /**
     * Records one {@code operation} that failed, observed by the workload itself (a traced system call that returned an
     * errno): an error of that operation, never a latency sample.
     */
    default void recordError(String operation) {
        addCounter("errors:" + operation, 1);
    }

    /**
     * Says that {@code operation} on {@code path} (null when unknown), observed outside this rank's timers — a system
     * call a traced program made — has just returned after {@code nanos}: reported as a stall at once when that is
     * past the scenario's stall threshold. Safe to call from any thread; records no sample ({@link #record} does).
     */
    default void callReturned(String operation, String path, long nanos) {
    }

    /**
     * Sets the wall time over which {@code operation}'s samples ran on this rank, for its ops/s and
     * bytes/s, when the workload knows it better than the timed phase does: an external program's
     * own runtime (fio's), say. Without it the timed phase's duration is used.
     */
    void elapsed(String operation, long nanos);

    /**
     * Adds {@code delta} to a named counter of this rank (bytes found in the page cache, files
     * skipped…). A counter is per repetition: summed over the ranks of a repetition, and reported as
     * the mean over repetitions (each repetition's value is kept in the results).
     */
    void addCounter(String counter, long delta);

    /**
     * Records a fact about this rank's run as text, e.g. the version of a program it ran
     * ({@code git=git version 2.39.5}) or the tool it chose. Reported beside the measurements.
     */
    void note(String key, String value);

    /** The note listing, joined with {@code ", "}, the notes that are versions of programs a rank ran. */
    String PROGRAMS_NOTE = "programs";

    /**
     * Records the version of a program this rank ran, as the program printed it: note {@code name}, listed in note
     * {@value #PROGRAMS_NOTE}, so the result's {@link Provenance#programs()} names it.
     */
    void noteProgram(String name, String version);

    /**
     * Says that untimed work done around the measurement for the measurement's sake — removing a rehearsal's scratch
     * files, dropping a file from the page cache, probing how much of it is cached — failed. It is never a failure
     * of the measurement: it is counted and the first one named beside the results (note {@code untimed_problems}),
     * as clean-up's problems are. The timed work still meets whatever the storage does to it.
     *
     * @param step    what was being done, e.g. {@code removing the rehearsal's scratch directory}
     * @param problem what went wrong
     */
    default void untimedProblem(String step, Exception problem) {
        note("untimed_problems", step + ": " + problem.getMessage());
    }

    /**
     * Waits until every rank has reached this barrier, or fails when a rank failed or the run's
     * deadline passed.
     */
    void barrier();

    /**
     * A running timer; {@link #close()} records the latency. A block left by an exception still
     * records a sample unless {@link #fail()} was called first: prefer {@link #call} and
     * {@link #measure}, which do that, for operations that may throw.
     */
    /** @return whether this repetition runs by time ({@link Pacing#timeBased()}) rather than by its amount of work */
    default boolean timeBased() {
        return false;
    }

    /**
     * @param done how many items (files, opens, passes) this rank has done in its timed phase
     * @return in a time-based run's timed phase, whether the ramp and duration have not yet passed; otherwise (and in
     *         every {@link Workload#rehearse rehearsal}, which is never paced by time, so one may step through the timed
     *         loop itself) whether {@code done} is below {@code amount}, the benchmark's own amount of work
     */
    default boolean keepGoing(long done, long amount) {
        return done < amount;
    }

    /** @return whether the scenario continues past failed items ({@link Scenario.Builder#continueOnError}) */
    default boolean continueOnError() {
        return false;
    }

    /**
     * Does the work on one item (a file, a directory). When it throws an I/O error (an {@link java.io.IOException}, or an
     * exception naming an errno such as {@code (EIO)}) and the scenario continues on errors, the error is counted —
     * as {@code errors:<op>:<ERRNO>}, {@code op} being the timed operation that failed, else {@code what} — the item
     * is remembered as failed ({@link #failed}) and false is returned; otherwise the exception goes on unchanged.
     *
     * @return true when the work completed
     */
    default <E extends Exception> boolean attempt(String what, Path item, Action<E> action) throws E {
        action.run();
        return true;
    }

    /** @return whether {@link #attempt} on {@code item} failed in this repetition: validation passes over it */
    default boolean failed(Path item) {
        return false;
    }

    interface Timer extends AutoCloseable {
        /** Stops timing and records the latency, or an error when {@link #fail()} was called. */
        @Override
        void close();

        /** Marks the timed operation as failed: {@link #close()} then counts an error, not a latency sample. */
        void fail();
    }

    /** Work that returns a value and may throw, for {@link #call}. */
    @FunctionalInterface
    interface Call<T, E extends Exception> {
        /** Does the work. */
        T call() throws E;
    }

    /** Work that may throw, for {@link #measure}. */
    @FunctionalInterface
    interface Action<E extends Exception> {
        /** Does the work. */
        void run() throws E;
    }
}
