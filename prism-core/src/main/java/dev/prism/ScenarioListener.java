package dev.prism;

/**
 * Hears what a running {@link Scenario} does, to show progress. Every method has an empty default;
 * implementations must return quickly and be thread-safe ({@link #stallDetected} comes from a
 * monitoring thread, {@link #rankEntered} from the ranks' threads).
 *
 * <pre>{@code
 * import dev.prism.RunResult;
 * import dev.prism.ScenarioListener;
 *
 * ScenarioListener printer = new ScenarioListener() {
 *     public void runFinished(RunResult run) { System.out.println(run.benchmark() + " " + run.status()); }
 * };
 * }</pre>
 */
public interface ScenarioListener {
    /** Nothing to hear. */
    ScenarioListener NONE = new ScenarioListener() {
    };

    /**
     * A repetition (or warm-up) starts.
     *
     * @param benchmark  the benchmark
     * @param tasks      its task count
     * @param repetition 0-based: the warm-up's number for a warm-up, else the measured repetition's
     * @param warmup     whether this one is a warm-up
     * @param done       executions finished so far in the scenario
     * @param total      executions in the whole scenario
     */
    default void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
    }

    /** A benchmark at one task count finished all its repetitions. */
    default void runFinished(RunResult run) {
    }

    /** An operation has been running longer than the stall threshold (and may still be running). */
    default void stallDetected(Stall stall) {
    }

    /**
     * Rank {@code rank} of the current repetition entered {@code phase}. Comes from the rank's own thread, or, for a
     * rank in another process, from the coordinator's thread serving it, as soon as the rank says so.
     */
    default void rankEntered(int rank, RankPhase phase) {
    }

    /**
     * Rank {@code rank}, in another process, has not been heard from for {@code silence}, longer than the run's
     * silence limit, and its process or its node still answers: it is slow (a loaded node, a long pause, a stopped
     * process), not lost, and the run waits for it. Its result notes its longest silence.
     */
    default void rankSlow(int rank, java.time.Duration silence) {
    }

    /**
     * Rank {@code rank} closed interval {@code index} of {@code operation} in a run with intervals ({@link Pacing}): the
     * interval's latencies, as they complete, while the run goes on. An interval closes when the rank's first operation
     * of the next one ends; one in which the rank timed nothing is reported empty. Comes from the rank's own thread right
     * after its timer stopped, or, for a rank in another process, from the coordinator's thread: return at once.
     */
    default void intervalCompleted(int rank, String operation, int index, Measurement interval) {
    }

    /**
     * A peer that tried to join the run as a rank was refused: it did not prove it belongs to the run in time, runs
     * another PRISM version, claimed a rank the run does not have, or broke the protocol. {@code description} names
     * the peer and why, from a fixed set of reasons ({@code refused 127.0.0.1:40112: did not prove itself within 5 s});
     * the first few are told as they come, the rest are counted by address in the run's notes ({@code coordination}),
     * and each address's count is told at the end of the run ({@code 2,290,113 connections refused from 127.0.0.1: not
     * of this run (…)}). Nothing a refused peer sent counts, is kept or is printed.
     */
    default void connectionRefused(String description) {
    }

    /**
     * Another PRISM run shares the target: at the start, one whose run directory changed in the last two minutes (it may
     * still be at work); at the end, one whose directory changed while this scenario ran (it was). Two runs on one
     * target measure each other's load: {@code description} names them.
     */
    default void otherRunsInTarget(String description) {
    }

    /**
     * The target lets another user swap the run directory for a link while the scenario writes there (others may write
     * it and it is not sticky, or another user owns it): said once, at the start; {@code description} names the target,
     * why, and what to do.
     */
    default void targetExposed(String description) {
    }

    /** Every run is over and the run directory is being removed (on a tree of millions of files, for minutes). */
    default void cleanupStarted(java.nio.file.Path runDirectory) {
    }
}
