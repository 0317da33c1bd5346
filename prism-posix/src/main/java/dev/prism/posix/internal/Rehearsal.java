package dev.prism.posix.internal;

import dev.prism.WorkloadContext;
import dev.prism.posix.FileAccess;

import java.nio.file.Path;
import java.util.List;

/**
 * How the POSIX workloads rehearse ({@link dev.prism.Workload#rehearse}): their own timed code, on
 * scratch files in a directory beside the rank's ({@code <run dir>/rehearsal-<rank>}), never on the
 * files the timed phase uses, removed afterwards. {@link #ITERATIONS} calls compile the hot path in
 * a JVM started with PRISM's flags (-XX:CompileThresholdScaling=0.1); {@link #BUDGET_NANOS} bounds it
 * on slow storage, where an operation of milliseconds dwarfs what the JIT would change.
 */
final class Rehearsal {
    static final int ITERATIONS = 2_000;
    static final long BUDGET_NANOS = 2_000_000_000L;

    private Rehearsal() {
    }

    /** @return a fresh, empty scratch directory for this rank's rehearsal */
    static Path directory(WorkloadContext ctx, FileAccess files) {
        Path dir = ctx.workDirectory().resolveSibling("rehearsal-" + ctx.rank());
        removeTree(files, dir);
        files.mkdir(dir);
        return dir;
    }

    /** Runs {@code step} with 0, 1, 2… up to {@code iterations} times, or until the budget is spent. */
    static int repeat(int iterations, Step step) {
        long start = System.nanoTime();
        int i = 0;
        while (i < iterations && System.nanoTime() - start < BUDGET_NANOS) {
            step.run(i++);
        }
        return i;
    }

    /** Removes {@code dir} and what a rehearsal left in it (plain files and directories it made). */
    static void removeTree(FileAccess files, Path dir) {
        dev.prism.posix.FileStat stat;
        try {
            stat = files.stat(dir);
        } catch (RuntimeException missing) {
            return;
        }
        if (!stat.isDirectory()) {
            files.unlink(dir);
            return;
        }
        List<String> names = files.list(dir);
        for (String name : names) {
            removeTree(files, dir.resolve(name));
        }
        files.rmdir(dir);
    }

    /** One step of a rehearsal. */
    @FunctionalInterface
    interface Step {
        void run(int iteration);
    }
}
