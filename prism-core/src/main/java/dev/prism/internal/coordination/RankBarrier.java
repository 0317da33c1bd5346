package dev.prism.internal.coordination;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A reusable barrier for ranks that are threads in this JVM. Every wait ends by the run's
 * deadline; a wait that reaches it names the ranks that never arrived; {@link #abort} releases every
 * waiter when a rank fails.
 */
public final class RankBarrier implements RankSync {
    private final int parties;
    private final Instant deadline;
    private final boolean[] arrived;
    private int waiting;
    private long generation;
    private volatile String abortReason;
    private volatile boolean deadlineStop;
    private final java.util.List<java.util.function.Consumer<String>> abortListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private String currentName = "";

    /** A barrier for {@code parties} ranks whose every wait ends by {@code deadline}. */
    public RankBarrier(int parties, Instant deadline) {
        this.parties = parties;
        this.deadline = deadline;
        this.arrived = new boolean[parties];
    }

    @Override
    public synchronized void await(int rank, String name) throws InterruptedException {
        if (abortReason != null) {
            // one that arrives after the deadline was not here when it came: it was still at work, and timed out
            throw new RankAbortedException("stopped before barrier '" + name + "': " + abortReason, deadlineStop);
        }
        long myGeneration = generation;
        currentName = name;
        arrived[rank] = true;
        if (++waiting == parties) {
            nextGeneration();
            return;
        }
        while (myGeneration == generation) {
            if (abortReason != null) {
                throw new RankAbortedException("stopped at barrier '" + name + "': " + abortReason);
            }
            long remainingMillis = deadline.toEpochMilli() - System.currentTimeMillis();
            if (remainingMillis <= 0) {
                expire();
                continue;
            }
            try {
                wait(remainingMillis);
            } catch (InterruptedException e) {
                // the launcher interrupts every rank right after releasing the barrier: the release says why
                if (abortReason == null) {
                    throw e;
                }
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Releases every waiter with {@code reason}. A stop that comes at or after the deadline is the deadline's, whatever
     * told it (a rank whose own clock saw the deadline first, and stopped as timed out, included).
     */
    @Override
    public void abort(String reason) {
        abort(reason, pastDeadline());
    }

    private boolean pastDeadline() {
        return System.currentTimeMillis() >= deadline.toEpochMilli();
    }

    /** Releases every waiter with {@code reason}, the first call only deciding whether the stop was the deadline. */
    private void abort(String reason, boolean deadline) {
        boolean first;
        synchronized (this) {
            first = abortReason == null;
            if (first) {
                deadlineStop = deadline;
                abortReason = reason;
            }
            notifyAll();
        }
        if (first) {
            abortListeners.forEach(l -> l.accept(reason));
        }
    }

    @Override
    public String stopReason() {
        return abortReason;
    }

    @Override
    public boolean deadlinePassed() {
        return deadlineStop;
    }

    /** Calls {@code listener} with the reason when the barrier is first aborted (a coordinator tells its remote ranks). */
    public void onAbort(java.util.function.Consumer<String> listener) {
        abortListeners.add(listener);
        String reason = abortReason;
        if (reason != null) {
            listener.accept(reason);
        }
    }

    /**
     * Aborts the barrier when {@code interruption} is interrupted.
     *
     * @return closes the link when the repetition is over
     */
    public dev.prism.Interruption.Registration abortOn(dev.prism.Interruption interruption) {
        return interruption.onInterrupt(() -> abort("interrupted by " + interruption.reason().orElse("?")));
    }

    @Override
    public void expire() {
        String reason;
        synchronized (this) {
            reason = waiting > 0 ? "barrier '" + currentName + "' reached the run's deadline; rank(s) " + missingRanks()
                + " never arrived" : "the run reached its deadline";
        }
        // expired before the deadline (the launcher's own thread interrupted) is a stop, not the deadline
        abort(reason, pastDeadline());
    }

    private void nextGeneration() {
        generation++;
        waiting = 0;
        java.util.Arrays.fill(arrived, false);
        notifyAll();
    }

    private String missingRanks() {
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < parties; r++) {
            if (!arrived[r]) {
                missing.add(r);
            }
        }
        return missing.toString();
    }
}
