package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Channel} through two append-only files in a shared directory: {@code rank-<r>.up} (rank to
 * coordinator) and {@code rank-<r>.down} (coordinator to rank). Each send opens, appends one line and
 * closes; each poll opens and reads what is new, so NFS-style close-to-open consistency is enough.
 * A silent peer is only noticed at a deadline: files cannot tell that a process died.
 */
public final class DirectoryChannel implements Channel {
    private static final long MAX_POLL_NANOS = 5_000_000;

    private final Path outbound;
    private final Path inbound;
    private final boolean rankSide;
    private final Deque<String> pending = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private long offset;
    private volatile boolean closed;

    private DirectoryChannel(Path outbound, Path inbound, boolean rankSide) {
        this.outbound = outbound;
        this.inbound = inbound;
        this.rankSide = rankSide;
    }

    /**
     * @return the rank's end of the link to the coordinator in {@code directory}, which it creates when
     *         missing: a rank may start before the coordinator has
     */
    public static DirectoryChannel forRank(Path directory, int rank) throws IOException {
        Files.createDirectories(directory);
        return new DirectoryChannel(directory.resolve("rank-" + rank + ".up"), directory.resolve("rank-" + rank + ".down"), true);
    }

    /** @return the coordinator's end of the link with {@code rank} */
    static DirectoryChannel forCoordinator(Path directory, int rank) {
        return new DirectoryChannel(directory.resolve("rank-" + rank + ".down"), directory.resolve("rank-" + rank + ".up"), false);
    }

    @Override
    public synchronized void send(ObjectNode message) throws IOException {
        byte[] line = (MAPPER.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel out = FileChannel.open(outbound, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    @Override
    public JsonNode receive() throws IOException {
        return receive(Long.MAX_VALUE / 2_000_000);
    }

    @Override
    public JsonNode receive(long millis) throws IOException {
        long deadline = System.nanoTime() + Math.max(1, millis) * 1_000_000;
        long pause = 100_000;
        while (pending.isEmpty()) {
            if (closed) {
                return null;
            }
            poll();
            if (!pending.isEmpty()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new SocketTimeoutException("no message in " + inbound + " within " + millis + " ms");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(MAX_POLL_NANOS, pause * 2);
        }
        return MAPPER.readTree(pending.poll());
    }

    private void poll() throws IOException {
        try (FileChannel in = FileChannel.open(inbound, StandardOpenOption.READ)) {
            long size = in.size();
            if (size <= offset) {
                return;
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - offset, 1 << 24));
            int read = in.read(buffer, offset);
            if (read <= 0) {
                return;
            }
            offset += read;
            partial.append(new String(buffer.array(), 0, read, StandardCharsets.UTF_8));
            int newline;
            while ((newline = partial.indexOf("\n")) >= 0) {
                pending.add(partial.substring(0, newline));
                partial.delete(0, newline + 1);
            }
        } catch (NoSuchFileException e) {
            // the other side has not written yet
        }
    }

    /** @return whether {@code directory} holds a rank's message file: written with its hello, removed as it exits */
    static boolean announced(Path directory, int rank) {
        return Files.exists(directory.resolve("rank-" + rank + ".up"));
    }

    /**
     * Stops receiving. The rank's side also removes both files: that is how the coordinator learns the
     * rank has read its last message, and may remove the directory.
     */
    @Override
    public void close() {
        closed = true;
        if (rankSide) {
            try {
                Files.deleteIfExists(inbound);
                Files.deleteIfExists(outbound);
            } catch (IOException e) {
                // left behind in a directory the coordinator removes
            }
        }
    }
}
