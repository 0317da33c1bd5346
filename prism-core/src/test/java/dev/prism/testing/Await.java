package dev.prism.testing;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Waits for a state outside the test's own process (a file, a process, a mount) to come about, with a
 * deadline generous enough for the slowest machine; a state that never comes fails the test naming it.
 * Deadlines here are the test's patience, never a bound PRISM promises: those are asserted apart.
 *
 * <pre>{@code
 * dev.prism.testing.Await.until("the marker file exists", () -> java.nio.file.Files.exists(java.nio.file.Path.of("/tmp")));
 * }</pre>
 */
public final class Await {
    /** How long a test waits for a state by default: minutes, since a loaded single core is slow. */
    public static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Waits up to {@link #PATIENCE} until {@code condition} holds; an exception it throws counts as "not yet". */
    public static void until(String what, Callable<Boolean> condition) {
        until(what, PATIENCE, condition);
    }

    /** Waits up to {@code patience} until {@code condition} holds. */
    public static void until(String what, Duration patience, Callable<Boolean> condition) {
        value(what, patience, () -> Boolean.TRUE.equals(condition.call()) ? Optional.of(true) : Optional.empty());
    }

    /** @return the first value {@code probe} finds within {@link #PATIENCE} */
    public static <T> T value(String what, Callable<Optional<T>> probe) {
        return value(what, PATIENCE, probe);
    }

    /** @return the first value {@code probe} finds within {@code patience} */
    public static <T> T value(String what, Duration patience, Callable<Optional<T>> probe) {
        long end = System.nanoTime() + patience.toNanos();
        Exception last = null;
        while (true) {
            try {
                Optional<T> found = probe.call();
                if (found.isPresent()) {
                    return found.get();
                }
            } catch (Exception e) {
                last = e; // a tree that changes while it is walked, a process that is going: look again
            }
            if (System.nanoTime() > end) {
                AssertionError never = new AssertionError("never happened within " + patience.toSeconds() + "s: " + what);
                if (last != null) {
                    never.initCause(last);
                }
                throw never;
            }
            try {
                Thread.sleep(POLL_MILLIS); // the poll interval of a wait for a state, not a wait in place of one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, e);
            }
        }
    }
}
