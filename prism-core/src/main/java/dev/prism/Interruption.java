package dev.prism;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stops a running {@link Scenario} from another thread: a signal handler, a test's watchdog, a UI's
 * cancel button. On {@link #interrupt}, every rank stops before its next timed operation, the run
 * in progress is recorded as a failure of kind {@link Failure.Kind#INTERRUPTED} with what was
 * measured so far, no further runs start, and the run directory is cleaned up as usual.
 *
 * <pre>{@code
 * import dev.prism.Interruption;
 *
 * var stop = Interruption.create();
 * // Scenario.builder()…interruption(stop).build().execute() in one thread; in another:
 * stop.interrupt("SIGTERM");
 * System.out.println(stop.reason());   // Optional[SIGTERM]
 * }</pre>
 */
public final class Interruption {
    private volatile String reason;
    private volatile Instant interruptedAt;
    private final List<Runnable> listeners = new ArrayList<>();

    private Interruption() {
    }

    /** @return a new interruption, not yet interrupted */
    public static Interruption create() {
        return new Interruption();
    }

    /** Interrupts the scenario; the first reason is kept, later calls change nothing. */
    public void interrupt(String reason) {
        List<Runnable> toRun;
        synchronized (listeners) {
            if (this.reason != null) {
                return;
            }
            this.interruptedAt = Instant.now();
            this.reason = reason == null || reason.isBlank() ? "interrupted" : reason;
            toRun = new ArrayList<>(listeners);
        }
        toRun.forEach(Runnable::run);
    }

    /** @return true once {@link #interrupt} was called */
    public boolean isInterrupted() {
        return reason != null;
    }

    /** @return why it was interrupted, once it was */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * @return when it was interrupted, once it was: a SLURM job's KillWait, and so the clean-up's grace
     *         after a signal, counts from then
     */
    public Optional<Instant> interruptedAt() {
        return Optional.ofNullable(interruptedAt);
    }

    /**
     * Runs {@code listener} when interrupted (at once when it already is); launchers use it to stop
     * their ranks.
     *
     * @return a handle that removes the listener when closed
     */
    public Registration onInterrupt(Runnable listener) {
        boolean now;
        synchronized (listeners) {
            now = reason != null;
            if (!now) {
                listeners.add(listener);
            }
        }
        if (now) {
            listener.run();
        }
        return () -> {
            synchronized (listeners) {
                listeners.remove(listener);
            }
        };
    }

    /** A listener's registration; closing it removes the listener. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        /** Removes the listener; throws nothing. */
        @Override
        void close();
    }
}
