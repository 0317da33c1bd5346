package dev.prism.posix.internal;

import dev.prism.WorkloadContext;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How the POSIX workloads rehearse ({@link dev.prism.Workload#rehearse}): their own timed code, on
 * scratch files in a directory beside the rank's ({@code <run dir>/rehearsal-<rank>}), never on the
 * files the timed phase uses, removed afterwards. Its steps compile the hot path in a JVM started with
 * PRISM's flags (-XX:CompileThresholdScaling=0.1): in rounds of {@link #ROUND_OPERATIONS} operations, each followed by
 * a wait for the compiler ({@link WorkloadContext#awaitCompilerRound}), until three rounds in a row compiled nothing or
 * {@link #ITERATIONS} operations ran (a single round with one wait, as before, left create_files at 0.79× mdtest's rate
 * on tmpfs: its path reached the last tier inside the timed phase). On slow storage that would take long for nothing:
 * once past {@link #SOFT_BUDGET_NANOS}, a rehearsal whose quickest steps so far took over {@link #SLOW_STEP_NANOS} per
 * operation stops, since there the interpreter's microseconds are under 1 % of an operation (and the one-time costs
 * were paid by the first step); the quickest, not the latest, since the compiler's own threads slow the steps of a
 * busy node while it works. Cheap steps (tmpfs, a warm cache) go on, however slowly the first interpreted ones ran, up
 * to {@link #HARD_BUDGET_NANOS}, which is checked after every step.
 *
 * <p>A rehearsal that moves data is bounded by bytes too ({@link #byteBudget}): a tenth of what the timed phase will
 * write or read, at least {@link #MIN_BYTES} (10,240 steps of the default 4 KiB files) and at most
 * {@link #MAX_BYTES}. A step's file is no bigger than the budget ({@link #stepSize}) and the steps stop where the
 * budget is spent ({@link #steps}): rehearsing a 1 GiB file writes one file of 64 MiB, not 2,000 of 1 GiB. What a
 * rehearsal moved is in each rank's {@code rehearsal_bytes} counter, beside the timed bytes.
 */
public final class Rehearsal {
    /**
     * The most operations a rehearsal repeats: enough rounds for a JVM just started to bring a path through its tiers
     * and see it quiet (3–6 rounds of create_files, list_files and delete_files on tmpfs, JDK 17 and 25), most
     * stopping well before.
     */
    public static final int ITERATIONS = 10_000;
    /** Operations between two waits for the compiler: above C2's thresholds at PRISM's -XX:CompileThresholdScaling=0.1 */
    public static final int ROUND_OPERATIONS = 1_000;
    /**
     * Rounds in a row that compiled nothing, after which a rehearsal stops: one is not enough, since a profiled tier
     * counts a round's calls before it asks for the last tier, and two were still followed by the path's last
     * compilations now and then (a flight recording of the rank showed them inside the timed phase).
     */
    public static final int STEADY_ROUNDS = 3;
    public static final long SOFT_BUDGET_NANOS = 100_000_000L;
    public static final long HARD_BUDGET_NANOS = 2_000_000_000L;
    public static final long SLOW_STEP_NANOS = 100_000L;
    /**
     * The least byte budget: 10,240 steps of 4 KiB. A JVM just started took 4–6 rounds to bring create_files' path to
     * its last tier and see it quiet on an idle node, and 7–9 beside a CPU hog on one core (its first waits reaching
     * their 2 s bound); at 24 MiB the budget ended such a rehearsal with the compiler still at work.
     */
    public static final long MIN_BYTES = 40L << 20;
    /** The most bytes a rank's rehearsal moves. */
    public static final long MAX_BYTES = 64L << 20;
    /**
     * The fewest operations a rehearsal waits for the compiler in ({@link WorkloadContext#awaitCompiler}): fewer
     * compile nothing worth waiting for (a rehearsal of one large file, or one where the JVM is already warm).
     */
    static final int MIN_STEPS_FOR_COMPILER_WAIT = 64;
    /** Steps over which the recent pace is measured. */
    private static final int WINDOW = 32;

    private Rehearsal() {
    }

    /**
     * Runs {@code body} with a scratch directory of this rank's, emptied before, and removes that
     * directory afterwards (whether or not the body threw) the way the run directory is cleaned.
     * Where the scenario continues on errors, an I/O error ends the rehearsal early instead of the
     * rank: a rehearsal only warms the code, and flaky storage fails some of its operations too.
     * Removing the scratch files is PRISM's own untimed work: when it fails (an {@code rmdir} the
     * storage refuses), that is said beside the results ({@link WorkloadContext#untimedProblem}),
     * never a failure of the measurement.
     */
    public static void inScratchDirectory(WorkloadContext ctx, Body body) throws IOException {
        Path dir = ctx.rehearsalDirectory();
        // made and removed through the run directory's descriptor where the rank holds it (/proc/self/fd/N is that
        // directory, whatever its name is now), so a run directory renamed meanwhile leads nowhere else
        dev.prism.spi.HeldDirectory run = ctx.heldRunDirectory();
        boolean held = run != null && dir.getParent() != null
                && dir.toAbsolutePath().normalize().getParent().equals(run.path().toAbsolutePath().normalize());
        Path reached = held ? run.procPath().resolve(dir.getFileName().toString()) : dir;
        remove(ctx, reached, "removing what an earlier rehearsal left in " + dir);
        if (held) {
            run.makeOrKeepDirectory(dir.getFileName().toString(), 0755).close(); // one whose removal failed is kept
        } else {
            dev.prism.spi.Directories.makeOrKeep(dir); // one whose removal failed is worked in as it is
        }
        try {
            if (ctx.continueOnError()) {
                ctx.attempt("rehearsal", null, () -> body.run(dir));
            } else {
                body.run(dir);
            }
        } finally {
            remove(ctx, reached, "removing the rehearsal's scratch directory " + dir);
        }
    }

    private static void remove(WorkloadContext ctx, Path dir, String step) {
        dev.prism.DirectoryRemoval removal = dev.prism.DirectoryRemoval.of(dir);
        if (!removal.complete()) {
            ctx.untimedProblem(step, new IOException(removal.summary()));
        }
    }

    /**
     * Runs {@code step} with 0, 1, 2… up to {@code iterations} times, in rounds of about {@value #ROUND_OPERATIONS}
     * operations ({@code step}s of one operation each), or until the budget says stop: past the soft budget when even
     * the quickest {@value #WINDOW} steps so far were slow, past the hard one always. After each round it waits for the
     * JIT compiler to catch up ({@link WorkloadContext#awaitCompilerRound}, outside every budget), and stops once
     * {@value #STEADY_ROUNDS} rounds in a row compiled nothing: the steps' code then runs at its last tier, as the
     * timed phase will. Rehearsals of fewer than
     * {@value #MIN_STEPS_FOR_COMPILER_WAIT} operations wait for nothing. Once only where the JVM already ran the
     * benchmark's timed phase ({@link WorkloadContext#alreadyWarm()}): its code is compiled, and one step covers what
     * is new to the rank.
     */
    public static void repeat(WorkloadContext ctx, int iterations, Step step) {
        repeat(ctx, iterations, 1, step);
    }

    /**
     * As {@link #repeat(WorkloadContext, int, Step)} for steps of {@code operationsPerStep} timed operations each (a
     * listing of 100 files and their 100 stats, say): a round is {@value #ROUND_OPERATIONS} operations' worth of
     * steps, at least one step and at most half of {@code iterations}.
     */
    public static void repeat(WorkloadContext ctx, int iterations, int operationsPerStep, Step step) {
        if (ctx.alreadyWarm()) {
            iterations = Math.min(1, iterations);
        }
        int perStep = Math.max(1, operationsPerStep);
        boolean waits = (long) iterations * perStep >= MIN_STEPS_FOR_COMPILER_WAIT;
        int round = Math.max(1, Math.min((ROUND_OPERATIONS + perStep - 1) / perStep, iterations / 2));
        long start = System.nanoTime();
        long windowStart = start;
        long fastestPace = Long.MAX_VALUE;   // per operation, over the quickest window of steps so far
        int quietRounds = 0;
        for (int i = 0; i < iterations; i++) {
            if (waits && i > 0 && i % round == 0) {
                // the compiler catches up; a round that set nothing compiling leaves the path at its last tier
                long waitStart = System.nanoTime();
                boolean compiled = ctx.awaitCompilerRound();
                long waited = System.nanoTime() - waitStart;
                start += waited;
                windowStart += waited;
                quietRounds = compiled ? 0 : quietRounds + 1;
                if (quietRounds == STEADY_ROUNDS) {
                    return;
                }
            }
            step.run(i);
            long now = System.nanoTime();
            if (now - start >= HARD_BUDGET_NANOS) {
                return;
            }
            if ((i + 1) % WINDOW == 0) {
                fastestPace = Math.min(fastestPace, (now - windowStart) / ((long) WINDOW * perStep));
                // slow storage: even the quickest window's operations took long (a window is slowed by the
                // compiler's own threads too, on a busy node, so the quickest says what the storage costs)
                if (now - start >= SOFT_BUDGET_NANOS && fastestPace > SLOW_STEP_NANOS) {
                    return;
                }
                windowStart = now;
            }
        }
    }

    /**
     * @param timedBytes what the timed phase of this rank will write or read
     * @return what its rehearsal may move in all: a tenth of that, at least {@link #MIN_BYTES}, at most {@link #MAX_BYTES}
     */
    public static long byteBudget(long timedBytes) {
        return Math.min(MAX_BYTES, Math.max(MIN_BYTES, timedBytes / 10));
    }

    /** @return the size of a rehearsal step's file of {@code size} bytes: {@code size}, or the budget where smaller */
    public static long stepSize(long size, long timedBytes) {
        return fileSize(size, 1, timedBytes);
    }

    /**
     * @return the size of each of {@code files} rehearsal files of {@code size} bytes: {@code size}, or less where that
     *         many would pass the budget (at least 1 byte where {@code size} is not 0)
     */
    public static long fileSize(long size, long files, long timedBytes) {
        return Math.min(size, Math.max(1, byteBudget(timedBytes) / Math.max(1, files)));
    }

    /** @return {@code iterations}, fewer where steps of {@code stepBytes} would move more than the budget; at least 1 */
    public static int steps(int iterations, long stepBytes, long timedBytes) {
        if (stepBytes <= 0) {
            return iterations;
        }
        return (int) Math.max(1, Math.min(iterations, byteBudget(timedBytes) / stepBytes));
    }

    /** What a rehearsal does in its scratch directory. */
    @FunctionalInterface
    public interface Body {
        void run(Path scratch) throws IOException;
    }

    /** One step of a rehearsal. */
    @FunctionalInterface
    public interface Step {
        void run(int iteration);
    }
}
