package dev.prism.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A reusable barrier for ranks that are threads in this JVM. Every wait ends by the run's
 * deadline; a timed-out wait names the ranks that never arrived; {@link #abort} releases every
 * waiter when a rank fails.
 */
final class RankBarrier implements RankSync {
    private final int parties;
    private final Instant deadline;
    private final boolean[] arrived;
    private int waiting;
    private long generation;
    private String abortReason;

    RankBarrier(int parties, Instant deadline) {
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
                String missing = missingRanks();
                abort("barrier '" + name + "' timed out waiting for rank(s) " + missing);
                throw new RankTimeoutException("barrier '" + name + "' reached the run's deadline; rank(s) "
                        + missing + " never arrived");
            }
            wait(remainingMillis);
        }
    }

    @Override
    public synchronized void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        notifyAll();
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
