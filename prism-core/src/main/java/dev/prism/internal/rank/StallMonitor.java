package dev.prism.internal.rank;

import dev.prism.ScenarioListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Watches every rank's running timers from a daemon thread and tells the listener about an
 * operation as soon as it has gone the stall threshold without progress (from its start, or from the last
 * {@code ctx.progress()} its rank made), while it is still running.
 */
public final class StallMonitor implements AutoCloseable {
    private final long thresholdNanos;
    private final ScenarioListener listener;
    private final List<OperationSlot> slots = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;

    /** Starts watching; {@link #close()} stops. */
    public StallMonitor(long thresholdNanos, ScenarioListener listener) {
        this.thresholdNanos = thresholdNanos;
        this.listener = listener;
        this.thread = new Thread(this::loop, "prism-stall-monitor");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    void watch(OperationSlot slot) {
        slots.add(slot);
    }

    /** Tells the listener of a stall observed outside the timers (a traced call that returned late). */
    void report(dev.prism.Stall stall) {
        try {
            listener.stallDetected(stall);
        } catch (RuntimeException e) {
            // a listener's failure must not stop the run
        }
    }

    private void loop() {
        // a quarter of the threshold, between 1 ms and 100 ms: a stall is seen soon after it starts
        long pollNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1),
                Math.min(thresholdNanos / 4, TimeUnit.MILLISECONDS.toNanos(100)));
        while (!stopped) {
            long now = System.nanoTime();
            for (OperationSlot slot : slots) {
                if (!slot.running()) {
                    continue;
                }
                long started = slot.startedNanos();
                // no progress for the threshold: a timing whose calls keep returning is slow at worst, not stalled
                if (now - slot.quietSince(started) >= thresholdNanos && slot.reportedStartNanos != started) {
                    slot.reportedStartNanos = started;
                    try {
                        listener.stallDetected(slot.stall(now - started, false));
                    } catch (RuntimeException e) {
                        // a listener's failure must not stop the monitoring
                    }
                }
            }
            try {
                TimeUnit.NANOSECONDS.sleep(pollNanos);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
