package dev.prism;

import dev.prism.internal.ThreadLauncher;

import java.util.List;

/**
 * Brings the ranks of one repetition to life and returns one {@link RankResult} per rank, in rank
 * order. A rank that does not finish by the plan's deadline is returned with a TIMEOUT failure and
 * what it measured so far.
 *
 * <pre>{@code
 * var launcher = dev.prism.Launcher.threads();
 * System.out.println(launcher.name());
 * }</pre>
 */
public interface Launcher {
    /** @return a short name recorded in results, e.g. {@code threads} */
    String name();

    /** Runs {@code plan} and returns one result per rank, in rank order; never waits past the deadline by much. */
    List<RankResult> launch(RunPlan plan);

    /**
     * Ranks as threads in this JVM: quick, but every rank shares one kernel client, one page cache
     * and one set of locks, so it does not show what separate clients see.
     */
    static Launcher threads() {
        return new ThreadLauncher();
    }
}
