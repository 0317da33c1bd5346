package dev.prism.internal.coordination;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Channel} whose every message carries a keyed digest (HMAC-SHA256) of its direction, its sequence number and
 * its text, under the key of the session the {@link Handshake} agreed: a message that was forged, changed, replayed,
 * dropped or reordered fails its check, and the step stops naming the peer. A line is {@code DIGEST JSON}, the digest
 * in base64, at most {@link Handshake#MAX_MESSAGE_BYTES} long.
 */
final class SealedChannel implements Channel {
    private static final byte[] TO_COORDINATOR = {'u'};
    private static final byte[] TO_RANK = {'d'};

    private final LineLink link;
    private final byte[] key;
    private final byte[] outbound;
    private final byte[] inbound;
    private final ReentrantLock sending = new ReentrantLock();
    private long sent;
    private long received;

    SealedChannel(LineLink link, byte[] key, boolean rankSide) {
        this.link = link;
        this.key = key;
        this.outbound = rankSide ? TO_COORDINATOR : TO_RANK;
        this.inbound = rankSide ? TO_RANK : TO_COORDINATOR;
    }

    @Override
    public void send(ObjectNode message) throws IOException {
        sending.lock();
        try {
            write(message);
        } finally {
            sending.unlock();
        }
    }

    /** A ping never waits behind another message: one being sent says as much. */
    @Override
    public void ping() throws IOException {
        if (sending.tryLock()) {
            try {
                write(Heartbeat.ping());
            } finally {
                sending.unlock();
            }
        }
    }

    private void write(ObjectNode message) throws IOException {
        byte[] json = MAPPER.writeValueAsBytes(message);
        byte[] digest = RunSecret.keyed(key, outbound, sequence(sent), json);
        link.write(Base64.getEncoder().encodeToString(digest) + " " + new String(json, StandardCharsets.UTF_8));
        sent++;
    }

    @Override
    public JsonNode receive() throws IOException {
        return receive(Long.MAX_VALUE / 2_000_000);
    }

    /**
     * @throws ProtocolViolation when the message fails its check, is over the size limit, is not a JSON object with a
     *                           {@code type}: never believed
     */
    @Override
    public JsonNode receive(long millis) throws IOException {
        String line = link.read(millis, Handshake.MAX_MESSAGE_BYTES);
        if (line == null) {
            return null;
        }
        long number = received++;
        int space = line.indexOf(' ');
        byte[] digest;
        try {
            digest = space < 0 ? null : Base64.getDecoder().decode(line.substring(0, space));
        } catch (IllegalArgumentException e) {
            digest = null;
        }
        byte[] json = space < 0 ? new byte[0] : line.substring(space + 1).getBytes(StandardCharsets.UTF_8);
        if (digest == null || !MessageDigest.isEqual(digest, RunSecret.keyed(key, inbound, sequence(number), json))) {
            throw new ProtocolViolation("message " + (number + 1) + " from " + link.describePeer()
                    + " failed its integrity check (forged, changed, replayed or out of order)");
        }
        JsonNode message;
        try {
            message = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ProtocolViolation("message " + (number + 1) + " from " + link.describePeer() + " is not JSON");
        }
        if (message == null || !message.isObject() || !message.path("type").isTextual()) {
            throw new ProtocolViolation("message " + (number + 1) + " from " + link.describePeer() + " has no type");
        }
        return message;
    }

    private static byte[] sequence(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    @Override
    public boolean heartbeats() {
        return link.heartbeats();
    }

    @Override
    public InetSocketAddress peer() {
        return link.peer();
    }

    @Override
    public void close() {
        link.close();
    }
}
