package dev.prism.internal;

/** How the ranks of one repetition meet: in-JVM threads now, TCP or a shared directory later. */
public interface RankSync {
    /**
     * Waits until every rank arrived at barrier {@code name}.
     *
     * @throws RankAbortedException when another rank failed
     * @throws RankTimeoutException when the run's deadline passed first
     */
    void await(int rank, String name) throws InterruptedException;

    /** Releases every waiting rank with {@code reason}; later waits fail at once. */
    void abort(String reason);
}
