package dev.prism.internal.launch;

import dev.prism.internal.coordination.RankBarrier;
import dev.prism.internal.rank.RankExecution;
import dev.prism.internal.coordination.RankThreads;
import dev.prism.internal.rank.StallMonitor;

import dev.prism.Launcher;
import dev.prism.RankResult;
import dev.prism.RunPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** Ranks as threads of this JVM (see {@link Launcher#threads()}). */
public final class ThreadLauncher implements Launcher {
    /** How long stopped ranks get to return after the deadline before they are reported as stuck. */
    private static final long GRACE_MILLIS = 2_000;

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public List<RankResult> launch(RunPlan plan) {
        RankBarrier barrier = new RankBarrier(plan.tasks(), plan.deadline());
        try (StallMonitor monitor = new StallMonitor(plan.stallThreshold().toNanos(), plan.listener())) {
            List<RankExecution> ranks = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            AtomicReferenceArray<RankResult> results = new AtomicReferenceArray<>(plan.tasks());
            for (int rank = 0; rank < plan.tasks(); rank++) {
                RankExecution execution = new RankExecution(plan, rank, barrier, monitor);
                int r = rank;
                Thread thread = new Thread(() -> results.set(r, execution.run()), "prism-rank-" + rank);
                thread.setDaemon(true);
                ranks.add(execution);
                threads.add(thread);
            }
            try (dev.prism.Interruption.Registration stopOnInterrupt = barrier.abortOn(plan.interruption())) {
                for (int rank = 0; rank < plan.tasks(); rank++) {
                    plan.listener().rankEntered(rank, dev.prism.RankPhase.STARTING);
                    threads.get(rank).start();
                }
                boolean timedOut = !RankThreads.await(threads, barrier::stopReason, plan.deadline().toEpochMilli(), GRACE_MILLIS, () -> { });
                if (threads.stream().anyMatch(Thread::isAlive)) {
                    for (int rank = 0; rank < plan.tasks(); rank++) {
                        if (timedOut && threads.get(rank).isAlive()) {
                            ranks.get(rank).markTimedOut();
                        }
                    }
                    barrier.expire();
                    threads.forEach(Thread::interrupt);
                    joinAll(threads, System.currentTimeMillis() + GRACE_MILLIS);
                }
            }
            List<RankResult> list = new ArrayList<>();
            for (int rank = 0; rank < plan.tasks(); rank++) {
                RankResult result = results.get(rank);
                list.add(result != null ? result : ranks.get(rank).unfinished(String.valueOf(barrier.stopReason())));
            }
            return list;
        }
    }

    /** @return true when every thread ended before {@code untilMillis} */
    private static boolean joinAll(List<Thread> threads, long untilMillis) {
        for (Thread thread : threads) {
            long remaining = untilMillis - System.currentTimeMillis();
            try {
                if (remaining > 0) {
                    thread.join(remaining);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return name();
    }
}
