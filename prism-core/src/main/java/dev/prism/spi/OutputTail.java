package dev.prism.spi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a child process's output on a daemon thread, so the child never blocks on a full pipe, and
 * keeps its last {@code capacity} bytes: for failure messages (a small tail) or for output a caller
 * parses (a capacity larger than the output). {@link ChildProcess} uses it for both streams.
 *
 * <pre>{@code
 * import dev.prism.spi.OutputTail;
 *
 * var p = new ProcessBuilder("sh", "-c", "seq 1 100000").start();
 * var tail = new OutputTail(p.getInputStream(), 16, "example-tail");
 * p.waitFor();
 * tail.await(5_000);
 * System.out.println(tail.text().strip());   // the last 16 bytes: ...99999 and 100000
 * }</pre>
 */
public final class OutputTail {
    private final byte[] ring;
    private long written;
    private final Thread thread;

    /** Starts draining {@code in}; {@code name} names the thread. */
    public OutputTail(InputStream in, int capacity, String name) {
        this.ring = new byte[capacity];
        this.thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    synchronized (this) {
                        for (int i = 0; i < n; i++) {
                            ring[(int) (written++ % ring.length)] = buffer[i];
                        }
                    }
                }
            } catch (IOException e) {
                // the process is gone: what was read is kept
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits up to {@code millis} for the stream to end. */
    public void await(long millis) throws InterruptedException {
        thread.join(millis);
    }

    /** @return the last bytes read, as UTF-8 text */
    public synchronized String text() {
        int length = (int) Math.min(written, ring.length);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = ring[(int) ((written - length + i) % ring.length)];
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
