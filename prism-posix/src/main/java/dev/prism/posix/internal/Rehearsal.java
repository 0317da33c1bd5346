package dev.prism.posix.internal;

import dev.prism.WorkloadContext;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How the POSIX workloads rehearse ({@link dev.prism.Workload#rehearse}): their own timed code, on
 * scratch files in a directory beside the rank's ({@code <run dir>/rehearsal-<rank>}), never on the
 * files the timed phase uses, removed afterwards. {@link #ITERATIONS} steps compile the hot path in
 * a JVM started with PRISM's flags (-XX:CompileThresholdScaling=0.1), with a wait for the compiler half-way
 * ({@link WorkloadContext#awaitCompiler}). On slow storage that would take
 * long for nothing: once past {@link #SOFT_BUDGET_NANOS}, a rehearsal whose recent steps took over
 * {@link #SLOW_STEP_NANOS} each stops, since there the interpreter's microseconds are under 1 % of
 * an operation (and the one-time costs were paid by the first step). Cheap steps (tmpfs, a warm
 * cache) go on to {@link #ITERATIONS}, however slowly the first interpreted ones ran, up to
 * {@link #HARD_BUDGET_NANOS}, which is checked after every step.
 *
 * <p>A rehearsal that moves data is bounded by bytes too ({@link #byteBudget}): a tenth of what the timed phase will
 * write or read, at least {@link #MIN_BYTES} (2,000 steps of the default 4 KiB files compile their path) and at most
 * {@link #MAX_BYTES}. A step's file is no bigger than the budget ({@link #stepSize}) and the steps stop where the
 * budget is spent ({@link #steps}): rehearsing a 1 GiB file writes one file of 64 MiB, not 2,000 of 1 GiB. What a
 * rehearsal moved is in each rank's {@code rehearsal_bytes} counter, beside the timed bytes.
 */
public final class Rehearsal {
    public static final int ITERATIONS = 2_000;
    public static final long SOFT_BUDGET_NANOS = 100_000_000L;
    public static final long HARD_BUDGET_NANOS = 2_000_000_000L;
    public static final long SLOW_STEP_NANOS = 100_000L;
    /** The least byte budget: what 2,000 steps of 4 KiB take. */
    public static final long MIN_BYTES = 8L << 20;
    /** The most bytes a rank's rehearsal moves. */
    public static final long MAX_BYTES = 64L << 20;
    /**
     * The fewest steps a rehearsal waits for the compiler half-way through ({@link WorkloadContext#awaitCompiler}):
     * fewer compile nothing worth waiting for (a rehearsal of one large file, or one where the JVM is already warm).
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
     * Runs {@code step} with 0, 1, 2… up to {@code iterations} times, or until the budget says stop:
     * past the soft budget when the last {@value #WINDOW} steps were slow, past the hard one always.
     * Once only where the JVM already ran the benchmark's timed phase ({@link WorkloadContext#alreadyWarm()}):
     * its code is compiled, and one step covers what is new to the rank. Half-way through {@value
     * #MIN_STEPS_FOR_COMPILER_WAIT} steps or more it waits for the JIT compiler to catch up (outside every budget).
     */
    public static void repeat(WorkloadContext ctx, int iterations, Step step) {
        if (ctx.alreadyWarm()) {
            iterations = Math.min(1, iterations);
        }
        int halfway = iterations >= MIN_STEPS_FOR_COMPILER_WAIT ? iterations / 2 : -1;
        long start = System.nanoTime();
        long windowStart = start;
        for (int i = 0; i < iterations; i++) {
            if (i == halfway) {
                // the compiler catches up, then the second half runs with it idle; the wait counts in no budget
                long waitStart = System.nanoTime();
                ctx.awaitCompiler();
                long waited = System.nanoTime() - waitStart;
                start += waited;
                windowStart += waited;
            }
            step.run(i);
            long now = System.nanoTime();
            if (now - start >= HARD_BUDGET_NANOS) {
                return;
            }
            if ((i + 1) % WINDOW == 0) {
                boolean slow = (now - windowStart) / WINDOW > SLOW_STEP_NANOS;
                if (now - start >= SOFT_BUDGET_NANOS && slow) {
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
