package dev.prism.testing;

import dev.prism.RankPhase;
import dev.prism.ScenarioListener;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ScenarioListener} that remembers which phase every rank entered and lets a test wait, without
 * guessing a time, until a rank is where the test wants it: in its rehearsal, in the timed phase…
 * The wait fails naming the phase that never came and the phases that did.
 *
 * <pre>{@code
 * var watch = new dev.prism.testing.PhaseWatch();
 * watch.rankEntered(1, dev.prism.RankPhase.SETUP);
 * watch.await(1, dev.prism.RankPhase.SETUP);
 * }</pre>
 */
public final class PhaseWatch implements ScenarioListener {
    /** Per rank, the phases it entered in order, over every repetition. */
    private final Map<Integer, List<RankPhase>> entered = new ConcurrentHashMap<>();

    @Override
    public void rankEntered(int rank, RankPhase phase) {
        synchronized (this) {
            entered.computeIfAbsent(rank, r -> new ArrayList<>()).add(phase);
            notifyAll();
        }
    }

    /** Waits up to {@link Await#PATIENCE} until {@code rank} has entered {@code phase} (in any repetition). */
    public void await(int rank, RankPhase phase) throws InterruptedException {
        await(rank, phase, 1);
    }

    /** Waits until {@code rank} has entered {@code phase} {@code times} times (once per repetition). */
    public synchronized void await(int rank, RankPhase phase, int times) throws InterruptedException {
        long end = System.nanoTime() + Await.PATIENCE.toNanos();
        while (count(rank, phase) < times) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("rank " + rank + " never entered " + phase.description() + (times > 1 ? " " + times
                        + " times" : "") + " within " + Await.PATIENCE.toSeconds() + "s; it entered: " + phases(rank));
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Waits until every rank of {@code ranks} has entered {@code phase}. */
    public void awaitAll(int ranks, RankPhase phase) throws InterruptedException {
        for (int r = 0; r < ranks; r++) {
            await(r, phase);
        }
    }

    /** @return the phases {@code rank} entered so far, in order */
    public synchronized List<RankPhase> phases(int rank) {
        return new ArrayList<>(entered.getOrDefault(rank, List.of()));
    }

    private int count(int rank, RankPhase phase) {
        return (int) entered.getOrDefault(rank, List.of()).stream().filter(p -> p == phase).count();
    }
}
