package dev.prism.internal.coordination;

import java.util.List;
import java.util.function.Supplier;

/**
 * How every launcher waits for the threads that run or serve its ranks: until they end, until the
 * deadline, or — once the ranks were told to stop (a rank failed or died, an interruption) — for a
 * grace more, since stopped ranks report within moments.
 */
public final class RankThreads {
    private RankThreads() {
    }

    /**
     * @param stopReason why the ranks must stop, or null while they may go on
     * @param eachPoll   run before every look (every 50 ms at most), e.g. to notice dead rank processes
     * @return false when {@code deadlineMillis} passed with a thread still alive; true when all ended
     *         or the grace after a stop ran out
     */
    public static boolean await(List<Thread> threads, Supplier<String> stopReason, long deadlineMillis, long graceMillis,
                         Runnable eachPoll) {
        return awaitUntil(threads, stopReason, deadlineMillis, stopSeen -> stopSeen + graceMillis, eachPoll);
    }

    /**
     * As {@link #await(List, Supplier, long, long, Runnable)}; once the stop is seen (at {@code stopSeenMillis}),
     * {@code stopBy} says when to stop waiting, asked again at every look, so it may move (later while results
     * still arrive).
     */
    static boolean awaitUntil(List<Thread> threads, Supplier<String> stopReason, long deadlineMillis,
                              java.util.function.LongUnaryOperator stopBy, Runnable eachPoll) {
        long stopSeen = -1;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                eachPoll.run();
                long now = System.currentTimeMillis();
                if (stopSeen < 0 && stopReason.get() != null) {
                    stopSeen = now;
                }
                long end = stopSeen < 0 ? Long.MAX_VALUE : stopBy.applyAsLong(stopSeen);
                if (now >= deadlineMillis) {
                    return false;
                }
                if (now >= end) {
                    return true;
                }
                try {
                    thread.join(Math.max(1, Math.min(50, Math.min(deadlineMillis, end) - now)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return true;
                }
            }
        }
        return true;
    }
}
