package dev.prism.internal.rank;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Optional;

/**
 * Waits, before a timed phase, until the JIT compiler is idle, so that the compilations a rehearsal (or the last
 * timed phase) set off finish on the compiler threads rather than competing with the timed operations for the CPU (a
 * 2-core node has one core to spare at best). Idle is the compiler's total compilation time not growing for
 * {@link #QUIET_MILLIS}, or, sooner, where the JVM says, the compiler itself showing idle (HotSpot's
 * {@code Compiler.queue} diagnostic command, as {@code jcmd} runs it): no compilation in progress and every compile
 * queue empty. Bounded: never longer than {@link #MAX_WAIT_MILLIS}, nor past a quarter of the time left
 * before the run's deadline.
 */
final class JitQuiet {
    /** Idle, at the latest, once the compiler's total compilation time has not grown for this long. */
    static final long QUIET_MILLIS = 60;
    static final long MAX_WAIT_MILLIS = 2_000;
    /**
     * Less compilation than this since the last wait is a round of a rehearsal that compiled nothing of its own
     * ({@link dev.prism.WorkloadContext#awaitCompilerRound}): the JVM's other threads (a progress line, the wait's own
     * management beans) keep its compilers busy for a few milliseconds in most rounds, a hot path reaching its last
     * tier for tens to hundreds.
     */
    static final long ROUND_COMPILE_MILLIS = 10;
    private static final long POLL_MILLIS = 10;
    private static final long QUEUE_POLL_MILLIS = 2;

    /** The JVM's diagnostic command bean, looked up once per JVM in the background ({@link #prepare}) */
    private static volatile Thread lookup;
    private static volatile Optional<CompilerQueue> queue;

    private JitQuiet() {
    }

    /** What the compiler had done by a moment: its total compilation time then, and when that was read. */
    record Sample(long compilationMillis, long nanos) {
    }

    /**
     * Starts looking up the compiler's queue in the background, once per JVM (the platform MBean server takes 0.1-0.2 s
     * to start): called when a rank's set-up begins, so the look-up overlaps it, never the timed phase.
     */
    static void prepare() {
        if (lookup == null) {
            synchronized (JitQuiet.class) {
                if (lookup == null) {
                    Thread t = new Thread(() -> queue = CompilerQueue.find(), "prism-jit-queue-lookup");
                    t.setDaemon(true);
                    t.start();
                    lookup = t;
                }
            }
        }
    }

    /** @return the compiler's total compilation time in milliseconds, or -1 where the JVM does not say */
    static long compilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit == null || !jit.isCompilationTimeMonitoringSupported() ? -1 : jit.getTotalCompilationTime();
    }

    /** @return the compiler's total compilation time now, or null where the JVM does not say */
    static Sample sample() {
        long millis = compilationMillis();
        return millis < 0 ? null : new Sample(millis, System.nanoTime());
    }

    /**
     * Returns once the compiler's queue reads idle, or its total compilation time has not grown for
     * {@link #QUIET_MILLIS} (counted from {@code since}, taken when the rank's set-up began, when the compiler finished
     * nothing after it; null: from now), or the bound is reached, whichever comes first. A JVM just started has a long
     * queue of its start-up's methods that need not finish before a timed phase of other code; one that has run a
     * while usually shows an idle queue at once, where the quiet total alone kept each of a suite's executions waiting
     * 60 ms or more.
     */
    static void await(Instant deadline, Sample since) throws InterruptedException {
        await(deadline, since, false);
    }

    /**
     * As {@link #await(Instant, Sample)}; with {@code untilIdle}, where the compiler's queue can be read, only its idle
     * queue ends the wait (or the bound): a rehearsal's round must not end while one long compilation, which adds
     * nothing to the total until it is done, holds the hot path's own behind it in the queue.
     */
    static void await(Instant deadline, Sample since, boolean untilIdle) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long limit = System.nanoTime() + Math.min(MAX_WAIT_MILLIS,
                Math.max(0, java.time.Duration.between(Instant.now(), deadline).toMillis() / 4)) * 1_000_000;
        prepare();
        // still being looked up (a rank JVM's first repetition with a short set-up): the quiet total decides alone
        Optional<CompilerQueue> found = queue;
        CompilerQueue compiler = found == null ? null : found.orElse(null);
        long last = jit.getTotalCompilationTime();
        long quietSince = since != null && since.compilationMillis() == last ? since.nanos() : System.nanoTime();
        while (true) {
            boolean quiet = System.nanoTime() - quietSince >= QUIET_MILLIS * 1_000_000 && !(untilIdle && compiler != null);
            if (quiet || (compiler != null && compiler.idle())) {
                return;
            }
            if (System.nanoTime() >= limit) {
                return;
            }
            Thread.sleep(compiler != null ? QUEUE_POLL_MILLIS : POLL_MILLIS);
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
    }
}
