package dev.prism;

/**
 * Where a rank is in one repetition, in the order it passes through them; a {@link ScenarioListener}
 * hears each as the rank enters it ({@link ScenarioListener#rankEntered}), from ranks in this JVM, in
 * child processes or on other nodes alike. A rank that fails or is stopped skips to {@link #TEARDOWN}
 * (when its workload was made) and {@link #FINISHED}.
 *
 * <pre>{@code
 * import dev.prism.RankPhase;
 *
 * for (RankPhase phase : RankPhase.values()) {
 *     System.out.println(phase + ": " + phase.description());
 * }
 * }</pre>
 */
public enum RankPhase {
    /** Started (a thread, a process, an {@code srun} task) but not yet setting up: a process connects to rank 0 here. */
    STARTING("start-up, before the coordinator"),
    /** {@link Workload#setup}: preparing its files, not timed. */
    SETUP("setup"),
    /** {@link Workload#rehearse} and the wait for the JIT to go quiet: untimed, before the clock. */
    REHEARSAL("rehearsal"),
    /** The timed phase, {@link Workload#run}: the first barrier has released every rank. */
    RUN("the timed phase"),
    /** {@link Workload#validate} and the barrier after it. */
    VALIDATE("validation"),
    /** {@link Workload#teardown}, which runs after failures too. */
    TEARDOWN("teardown"),
    /** Its result is made: nothing more runs in this repetition. */
    FINISHED("finished");

    private final String description;

    RankPhase(String description) {
        this.description = description;
    }

    /** @return the phase as messages name it, e.g. {@code the timed phase} */
    public String description() {
        return description;
    }
}
