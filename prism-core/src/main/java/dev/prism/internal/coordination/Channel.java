package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.SocketTimeoutException;

/** A two-way message link between the coordinator and one rank: JSON messages, in order. Sends are thread-safe. */
public interface Channel extends AutoCloseable {
    ObjectMapper MAPPER = new ObjectMapper();

    static ObjectNode message(String type) {
        return MAPPER.createObjectNode().put("type", type);
    }

    void send(ObjectNode message) throws IOException;

    /**
     * @return whether both ends send {@link Heartbeat heartbeats} over this link: a TCP connection to a node
     *         whose network went down stays silent, never closed, so silence is how it is noticed
     */
    default boolean heartbeats() {
        return false;
    }

    /** @return the next message, or null when the other side is gone */
    JsonNode receive() throws IOException;

    /**
     * @return the next message, or null when the other side is gone
     * @throws SocketTimeoutException when none came within {@code millis}
     */
    JsonNode receive(long millis) throws IOException;

    @Override
    void close();

    /** Sends a sign of life; skipped where another message is being sent right now (it says as much). */
    default void ping() throws IOException {
        send(Heartbeat.ping());
    }

    /** @return the address of the other end, for asking its node whether it is there; null where there is none (files) */
    default java.net.InetSocketAddress peer() {
        return null;
    }
}
