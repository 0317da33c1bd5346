package dev.prism.internal;

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
    private String abortReason;
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
            throw new RankAbortedException("stopped before barrier '" + name + "': " + abortReason);
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

    @Override
    public synchronized void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        notifyAll();
    }

    @Override
    public synchronized void expire() {
        abort(waiting > 0 ? "barrier '" + currentName + "' reached the run's deadline; rank(s) " + missingRanks()
                + " never arrived" : "the run reached its deadline");
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
