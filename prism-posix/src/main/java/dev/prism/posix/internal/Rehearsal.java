package dev.prism.posix.internal;

import dev.prism.WorkloadContext;
import dev.prism.internal.RunDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /**
     * Runs {@code body} with a fresh, empty scratch directory of this rank's, and removes that
     * directory afterwards (whether or not the body threw) the way the run directory is cleaned.
     */
    static void inScratchDirectory(WorkloadContext ctx, Body body) throws IOException {
        Path dir = ctx.workDirectory().resolveSibling("rehearsal-" + ctx.rank());
        RunDirectory.deleteTree(dir);
        Files.createDirectory(dir);
        try {
            body.run(dir);
        } finally {
            RunDirectory.deleteTree(dir);
        }
    }

    /** Runs {@code step} with 0, 1, 2… up to {@code iterations} times, or until the budget is spent. */
    static void repeat(int iterations, Step step) {
        long start = System.nanoTime();
        for (int i = 0; i < iterations && System.nanoTime() - start < BUDGET_NANOS; i++) {
            step.run(i);
        }
    }

    /** What a rehearsal does in its scratch directory. */
    @FunctionalInterface
    interface Body {
        void run(Path scratch) throws IOException;
    }

    /** One step of a rehearsal. */
    @FunctionalInterface
    interface Step {
        void run(int iteration);
    }
}
