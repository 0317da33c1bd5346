package dev.prism.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The liveness rule between the coordinator and its ranks over TCP: each end sends a {@code ping}
 * every {@link #INTERVAL_MILLIS}, and an end that has heard nothing at all for {@link #SILENCE_MILLIS}
 * takes the other as gone (its node died or its network went down: no connection reset ever comes).
 */
final class Heartbeat {
    /** How often each end pings. */
    static final long INTERVAL_MILLIS = 2_000;
    /** How long a silence means the other end is gone: several missed pings, and more than a long GC pause. */
    static final long SILENCE_MILLIS = 15_000;

    private Heartbeat() {
    }

    /** @return whether {@code message} is a ping, which only says the sender is alive */
    static boolean isPing(JsonNode message) {
        return "ping".equals(message.path("type").asText());
    }

    /** @return a ping */
    static com.fasterxml.jackson.databind.node.ObjectNode ping() {
        return Channel.message("ping");
    }
}
