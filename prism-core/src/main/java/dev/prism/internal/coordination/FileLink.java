package dev.prism.internal.coordination;

import dev.prism.spi.HeldDirectory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link LineLink} through two append-only files in a meeting directory: {@code rank-<r>.up} (rank to coordinator)
 * and {@code rank-<r>.down} (coordinator to rank). Each write opens, appends one line and closes; each poll opens and
 * reads what is new, so NFS-style close-to-open consistency is enough. Both are opened without following links,
 * relative to the meeting directory the run made private and holds by descriptor ({@link PrivateDirectory}): renaming
 * that directory and putting a link in its place after its check changes nothing PRISM writes. A silent peer is only noticed at a deadline: files cannot
 * tell that a process died.
 */
final class FileLink implements LineLink {
    private static final long MAX_POLL_NANOS = 5_000_000;

    private final HeldDirectory directory;
    private final String outbound;
    private final String inbound;
    private final boolean rankSide;
    private final Deque<String> pending = new ArrayDeque<>();
    private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream();
    private long offset;
    private volatile boolean closed;

    private FileLink(HeldDirectory directory, String outbound, String inbound, boolean rankSide) {
        this.directory = directory;
        this.outbound = outbound;
        this.inbound = inbound;
        this.rankSide = rankSide;
    }

    /** @return the rank's end of the link to the coordinator in {@code directory} */
    static FileLink forRank(HeldDirectory directory, int rank) {
        return new FileLink(directory, "rank-" + rank + ".up", "rank-" + rank + ".down", true);
    }

    /** @return the coordinator's end of the link with {@code rank} */
    static FileLink forCoordinator(HeldDirectory directory, int rank) {
        return new FileLink(directory, "rank-" + rank + ".down", "rank-" + rank + ".up", false);
    }

    /** @return whether {@code directory} holds a rank's message file: written with its hello, removed as it exits */
    static boolean announced(HeldDirectory directory, int rank) {
        try {
            return directory.exists("rank-" + rank + ".up");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public synchronized void write(String text) throws IOException {
        directory.append(outbound, (text + "\n").getBytes(StandardCharsets.UTF_8), 0600);
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
                throw new SocketTimeoutException("no message in " + describePeer() + " within " + millis + " ms");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(MAX_POLL_NANOS, pause * 2);
        }
        return pending.poll();
    }

    /** Synchronized with {@link #close}: the held directory is never used after it was closed. */
    private synchronized void poll(int maxBytes) throws IOException {
        if (closed) {
            return;
        }
        try (FileChannel in = directory.openForReading(inbound)) {
            if (in == null) {
                return; // the other side has not written yet
            }
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
                    throw new ProtocolViolation("a line of over " + maxBytes + " bytes without its end in " + describePeer());
                }
            }
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
        return directory.path().resolve(inbound).toString();
    }

    /**
     * Stops reading. The rank's side also removes both files: that is how the coordinator learns the rank has read its
     * last message, and may remove the directory.
     */
    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            closeFiles();
        }
    }

    private void closeFiles() {
        if (rankSide) {
            for (String name : new String[]{inbound, outbound}) {
                try {
                    directory.deleteFile(name);
                } catch (IOException e) {
                    // not there, or left behind in a directory the coordinator removes
                }
            }
            directory.close();
        }
    }
}
