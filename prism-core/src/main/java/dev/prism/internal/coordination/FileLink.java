package dev.prism.internal.coordination;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link LineLink} through two append-only files in a meeting directory: {@code rank-<r>.up} (rank to coordinator)
 * and {@code rank-<r>.down} (coordinator to rank). Each write opens, appends one line and closes; each poll opens and
 * reads what is new, so NFS-style close-to-open consistency is enough. Both are opened without following links, in a
 * directory the run made private ({@link PrivateDirectory}). A silent peer is only noticed at a deadline: files cannot
 * tell that a process died.
 */
final class FileLink implements LineLink {
    private static final long MAX_POLL_NANOS = 5_000_000;
    private static final Set<OpenOption> APPEND = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    private final Path outbound;
    private final Path inbound;
    private final boolean rankSide;
    private final Deque<String> pending = new ArrayDeque<>();
    private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream();
    private long offset;
    private volatile boolean closed;

    private FileLink(Path outbound, Path inbound, boolean rankSide) {
        this.outbound = outbound;
        this.inbound = inbound;
        this.rankSide = rankSide;
    }

    /** @return the rank's end of the link to the coordinator in {@code directory} */
    static FileLink forRank(Path directory, int rank) {
        return new FileLink(directory.resolve("rank-" + rank + ".up"), directory.resolve("rank-" + rank + ".down"), true);
    }

    /** @return the coordinator's end of the link with {@code rank} */
    static FileLink forCoordinator(Path directory, int rank) {
        return new FileLink(directory.resolve("rank-" + rank + ".down"), directory.resolve("rank-" + rank + ".up"), false);
    }

    /** @return whether {@code directory} holds a rank's message file: written with its hello, removed as it exits */
    static boolean announced(Path directory, int rank) {
        return Files.exists(directory.resolve("rank-" + rank + ".up"), LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void write(String text) throws IOException {
        byte[] line = (text + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel out = FileChannel.open(outbound, APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    @Override
    public String read(long millis, int maxBytes) throws IOException {
        long deadline = System.nanoTime() + Math.max(1, Math.min(millis, Long.MAX_VALUE / 2_000_000)) * 1_000_000;
        long pause = 100_000;
        while (pending.isEmpty()) {
            if (closed) {
                return null;
            }
            poll(maxBytes);
            if (!pending.isEmpty()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new SocketTimeoutException("no message in " + inbound + " within " + millis + " ms");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(MAX_POLL_NANOS, pause * 2);
        }
        return pending.poll();
    }

    private void poll(int maxBytes) throws IOException {
        try (FileChannel in = FileChannel.open(inbound, READ)) {
            long size = in.size();
            while (offset < size) {
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - offset, 1 << 20));
                int read = in.read(buffer, offset);
                if (read <= 0) {
                    return;
                }
                offset += read;
                byte[] bytes = buffer.array();
                int from = 0;
                for (int i = 0; i < read; i++) {
                    if (bytes[i] == '\n') {
                        partial.write(bytes, from, i - from);
                        pending.add(partial.toString(StandardCharsets.UTF_8));
                        partial.reset();
                        from = i + 1;
                    }
                }
                partial.write(bytes, from, read - from);
                if (partial.size() > maxBytes) {
                    throw new ProtocolViolation("a line of over " + maxBytes + " bytes without its end in " + inbound);
                }
            }
        } catch (NoSuchFileException e) {
            // the other side has not written yet
        }
    }

    @Override
    public boolean heartbeats() {
        return false;
    }

    @Override
    public InetSocketAddress peer() {
        return null;
    }

    @Override
    public String describePeer() {
        return inbound.toString();
    }

    /**
     * Stops reading. The rank's side also removes both files: that is how the coordinator learns the rank has read its
     * last message, and may remove the directory.
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
