package dev.prism.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An observer of how late this host runs a thread that is ready to run, watched over the same window as the figure a
 * test bounds: a thread asks to sleep 1 ms again and again and keeps the longest time it woke past that. A loaded or
 * pinned host (other users' work, {@code scripts/test.sh --timing}'s hogs) delays a rank's thread between two
 * operations by as much; a bound on how soon a run ends, or on an operation that is PRISM's and the kernel's only,
 * allows for it instead of a constant that fits one machine. The thread's own work is a system call per millisecond,
 * nothing beside what it watches.
 *
 * <pre>{@code
 * try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
 *     dev.prism.testing.Await.until("two wake-ups", () -> delay.wakeUps() >= 2);
 *     System.out.println(delay.longest()); // e.g. PT0.00012S on a quiet host
 * }
 * }</pre>
 */
public final class SchedulingDelay implements AutoCloseable {
    private static final long ASKED_NANOS = 1_000_000;

    private final AtomicLong longest = new AtomicLong();
    private final AtomicLong wakeUps = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopped;

    private SchedulingDelay() {
        thread = new Thread(this::watchLoop, "scheduling-delay");
        thread.setDaemon(true);
    }

    /** Starts watching until {@link #close}. */
    public static SchedulingDelay watch() {
        SchedulingDelay delay = new SchedulingDelay();
        delay.thread.start();
        return delay;
    }

    private void watchLoop() {
        while (!stopped) {
            long asked = System.nanoTime();
            LockSupport.parkNanos(ASKED_NANOS);
            long late = System.nanoTime() - asked - ASKED_NANOS;
            longest.accumulateAndGet(late, Math::max);
            wakeUps.incrementAndGet();
        }
    }

    /** @return the longest a wake-up came late so far (zero before the first) */
    public Duration longest() {
        return Duration.ofNanos(Math.max(0, longest.get()));
    }

    /** @return how many times the watching thread has woken */
    public long wakeUps() {
        return wakeUps.get();
    }

    /** Stops the watching thread and waits for it; {@link #longest} keeps its value. */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
