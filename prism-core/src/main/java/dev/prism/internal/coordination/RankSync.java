package dev.prism.internal.coordination;

/** How the ranks of one repetition meet: in-JVM threads now, TCP or a shared directory later. */
public interface RankSync {
    /**
     * Waits until every rank arrived at barrier {@code name}.
     *
     * @throws RankAbortedException when another rank failed, or the run's deadline passed first (the
     *                              message then names the ranks that never arrived)
     */
    void await(int rank, String name) throws InterruptedException;

    /** Releases every waiting rank with {@code reason}; later waits fail at once. */
    void abort(String reason);

    /** The run's deadline passed: releases every waiting rank with a message naming the ranks that never arrived. */
    void expire();

    /**
     * @return why the ranks must stop now (a rank failed or died, the run was interrupted or its
     *         deadline passed), or null while they may go on; read before every timed operation, so cheap
     */
    default String stopReason() {
        return null;
    }

    /**
     * @return true when the ranks were stopped at or after the run's deadline, by the clock of whoever keeps the
     *         barrier, whichever clock saw it first (the barrier's own wait, a launcher's watch, a rank whose copy of
     *         the deadline stopped it as timed out): a rank still at work then timed out, and one waiting at a barrier
     *         did its part. False while no stop was told, or when the stop came before the deadline.
     */
    default boolean deadlinePassed() {
        return false;
    }
}
