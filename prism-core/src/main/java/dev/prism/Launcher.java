package dev.prism;

import dev.prism.internal.launch.ProcessLauncher;
import dev.prism.internal.launch.SlurmLauncher;
import dev.prism.internal.launch.ThreadLauncher;

import java.util.List;

/**
 * Brings the ranks of one repetition to life and returns one {@link RankResult} per rank, in rank
 * order. A rank that does not finish by the plan's deadline is returned with a TIMEOUT failure and
 * what it measured so far.
 *
 * <pre>{@code
 * import dev.prism.Launcher;
 *
 * var launcher = Launcher.threads();
 * System.out.println(launcher.name());
 * }</pre>
 */
public interface Launcher extends AutoCloseable {
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

    /**
     * Ranks as child JVMs on this host, one process per rank, meeting through a coordinator on
     * loopback: separate kernel clients, file descriptors and locks, as separate users would be. The
     * benchmark must come from a {@link BenchmarkProvider} or be built with a workload class ({@link
     * Benchmark.Builder#workload(Class)}): each process makes it again by name, with the class path of the loader
     * that loaded PRISM (so under {@code mvn exec:java} and in IDEs too). The rank JVMs take
     * the flags in the environment variable {@code PRISM_JAVA_OPTS} after PRISM's own (as the {@code prism} command
     * and ranks under SLURM do), e.g. {@code -Xmx2g}.
     */
    static Launcher processes() {
        return new ProcessLauncher();
    }

    /**
     * As {@link #processes()}, but ranks meet through files in {@code coordinationDirectory} (a fresh
     * subdirectory per repetition, removed afterwards) instead of TCP: the method for clusters where
     * ranks cannot open sockets to each other. A rank whose process dies is noticed at once: the driver watches its children.
     */
    static Launcher processes(java.nio.file.Path coordinationDirectory) {
        return new ProcessLauncher(coordinationDirectory);
    }

    /**
     * This process is rank 0 of a SLURM step ({@code srun -n N prism run … --launcher slurm}): it
     * hosts the coordinator and runs rank 0; the step's other tasks run {@code RankWorker}s.
     */
    static Launcher slurm(SlurmEnvironment environment) {
        return new SlurmLauncher(environment, java.time.Duration.ofMinutes(5));
    }

    /** As {@link #slurm(SlurmEnvironment)}, meeting through files in {@code coordinationDirectory} on the shared filesystem. */
    static Launcher slurm(SlurmEnvironment environment, java.nio.file.Path coordinationDirectory) {
        return new SlurmLauncher(environment, java.time.Duration.ofMinutes(5), coordinationDirectory);
    }

    /** Releases what the launcher holds across repetitions (a coordinator, remote ranks); nothing by default. */
    @Override
    default void close() {
    }
}
