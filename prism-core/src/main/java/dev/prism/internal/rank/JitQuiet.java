package dev.prism.internal.rank;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;

/**
 * Waits, before a timed phase, until the JIT compiler has been idle for a moment, so that the
 * compilations a rehearsal set off finish on the compiler threads rather than competing with the
 * timed operations for the CPU (a 2-core node has one core to spare at best). Bounded: never longer
 * than {@link #MAX_WAIT_MILLIS}, nor past the run's deadline.
 */
final class JitQuiet {
    /** The compiler counts as idle once its total compilation time has not grown for this long. */
    static final long QUIET_MILLIS = 60;
    static final long MAX_WAIT_MILLIS = 2_000;
    private static final long POLL_MILLIS = 10;

    private JitQuiet() {
    }

    /** Returns once the JIT has been idle for {@link #QUIET_MILLIS}, or the bound is reached. */
    static void await(Instant deadline) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long start = System.nanoTime();
        long limit = start + Math.min(MAX_WAIT_MILLIS,
                Math.max(0, java.time.Duration.between(Instant.now(), deadline).toMillis() / 4)) * 1_000_000;
        long last = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < limit) {
            Thread.sleep(POLL_MILLIS);
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= QUIET_MILLIS * 1_000_000) {
                return;
            }
        }
    }
}
