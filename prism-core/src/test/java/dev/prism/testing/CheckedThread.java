package dev.prism.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A thread of a test (a peer, a rank, an impostor) whose failures reach the test: what its body throws, an
 * assertion's error included, is kept and thrown again by {@link #join} in the test's own thread. A plain
 * {@code Thread} loses them (its uncaught exception is printed, and {@code join} returns as if all went well),
 * and a {@code join(millis)} that returns while the thread still runs passes as silently.
 *
 * <pre>{@code
 * dev.prism.testing.CheckedThread peer = dev.prism.testing.CheckedThread.start("peer", () -> {
 *     org.assertj.core.api.Assertions.assertThat(1 + 1).isEqualTo(2);
 * });
 * peer.join(); // throws the peer's AssertionError, if it had one
 * }</pre>
 */
public final class CheckedThread {
    /** What the thread runs: anything it throws fails the test at {@link #join}. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final Thread thread;
    private final AtomicReference<Throwable> thrown = new AtomicReference<>();

    private CheckedThread(String name, Body body) {
        thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, name);
        thread.setDaemon(true); // one that hangs fails its test at join, and does not hold the JVM after it
    }

    /** Starts {@code body} in a daemon thread named {@code name}. */
    public static CheckedThread start(String name, Body body) {
        CheckedThread checked = new CheckedThread(name, body);
        checked.thread.start();
        return checked;
    }

    /** {@link #join(Duration)} with {@link Await#PATIENCE}. */
    public void join() throws InterruptedException {
        join(Await.PATIENCE);
    }

    /**
     * Waits for the thread to end, then throws in the caller's thread what its body threw: an {@link AssertionError}
     * or unchecked exception as it was, a checked one wrapped in an {@link AssertionError}. A thread still running after
     * {@code patience} fails the test naming it.
     */
    public void join(Duration patience) throws InterruptedException {
        thread.join(patience.toMillis());
        if (thread.isAlive()) {
            AssertionError hung = new AssertionError("thread '" + thread.getName() + "' still running after "
                    + patience.toSeconds() + "s");
            hung.setStackTrace(thread.getStackTrace());
            throw hung;
        }
        Throwable t = thrown.get();
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t != null) {
            throw new AssertionError("thread '" + thread.getName() + "' failed: " + t, t);
        }
    }
}
