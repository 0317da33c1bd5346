package dev.prism.internal;

import dev.prism.PrismException;

/** A rank stopped at a barrier because another rank failed. */
final class RankAbortedException extends PrismException {
    RankAbortedException(String message) {
        super(message);
    }
}
