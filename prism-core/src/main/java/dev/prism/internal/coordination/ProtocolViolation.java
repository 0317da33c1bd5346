package dev.prism.internal.coordination;

import java.io.IOException;

/**
 * What a peer sent broke the coordination protocol: a line over the size limit, a message whose integrity check
 * fails, one that is not JSON, an unknown kind of message or one missing a field. Never a sign of a slow or lost peer:
 * the step stops at once, naming the rank and the message's kind.
 */
public final class ProtocolViolation extends IOException {
    public ProtocolViolation(String message) {
        super(message);
    }
}
