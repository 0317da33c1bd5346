package dev.prism.internal;

import dev.prism.PrismException;

/** A rank stopped at a barrier because another rank failed. */
public final class RankAbortedException extends PrismException {
    /** @param message why the rank stopped */
    public RankAbortedException(String message) {
        super(message);
    }
}
