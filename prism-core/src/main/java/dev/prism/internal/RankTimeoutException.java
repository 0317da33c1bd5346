package dev.prism.internal;

import dev.prism.PrismException;

/** A rank waited at a barrier until the run's deadline; the message names the ranks that never came. */
final class RankTimeoutException extends PrismException {
    RankTimeoutException(String message) {
        super(message);
    }
}
