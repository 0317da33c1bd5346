package dev.prism.internal.coordination;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Lines of text between the coordinator and one rank, in order: the transport under a {@link SealedChannel}, over a
 * TCP connection ({@link TcpLink}) or two files in a meeting directory ({@link FileLink}). Every read is bounded in
 * size, so no peer makes the other hold more than the limit it asked for.
 */
interface LineLink extends AutoCloseable {
    /** Writes {@code line} and its end. Not thread-safe: the channel above serialises writes. */
    void write(String line) throws IOException;

    /**
     * @param millis   how long to wait for a line
     * @param maxBytes the longest line accepted
     * @return the next line, without its end; null when the other side is gone
     * @throws java.net.SocketTimeoutException when none came within {@code millis}
     * @throws ProtocolViolation               when the line is longer than {@code maxBytes}
     */
    String read(long millis, int maxBytes) throws IOException;

    /** @return whether both ends send heartbeats over this link (TCP: a silent network is noticed by silence) */
    boolean heartbeats();

    /** @return the address of the other end; null where there is none (files) */
    InetSocketAddress peer();

    /** @return the other end, for messages: an address, or the file it writes */
    String describePeer();

    @Override
    void close();
}
