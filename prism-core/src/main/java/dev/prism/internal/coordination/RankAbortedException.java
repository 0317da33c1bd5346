package dev.prism.internal.coordination;

import dev.prism.PrismException;

/**
 * A rank stopped because it was told to: at a barrier, or before its next operation (another rank
 * failed or died, the run was interrupted or reached its deadline).
 */
public final class RankAbortedException extends PrismException {
    private final boolean midPhase;

    /** @param message why the rank stopped at a barrier */
    public RankAbortedException(String message) {
        this(message, false);
    }

    /**
     * @param message  why the rank stopped
     * @param midPhase true when it stopped with work left (before an operation), not waiting at a barrier
     */
    public RankAbortedException(String message, boolean midPhase) {
        super(message);
        this.midPhase = midPhase;
    }

    /** @return true when the rank stopped with work left, not while waiting for the others */
    public boolean midPhase() {
        return midPhase;
    }
}
