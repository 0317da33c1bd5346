package dev.prism.internal;

import java.util.function.Consumer;

/**
 * SIGINT and SIGTERM (Ctrl-C, {@code scancel}, a SLURM time limit) as a request to stop: the first
 * one calls back, so the run stops its ranks, keeps what they measured and cleans up; a second one
 * ends the process at once with 128 + the signal's number, as a shell reports it.
 */
public final class Signals {
    private volatile String received;
    private volatile int number;

    private Signals() {
    }

    /**
     * Handles SIGINT and SIGTERM from now on.
     *
     * @param onFirst called with the signal's name ({@code SIGINT}) on the first one, in a thread of its own
     */
    public static Signals install(Consumer<String> onFirst) {
        Signals signals = new Signals();
        for (String name : new String[]{"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> signals.handle(signal, onFirst));
            } catch (IllegalArgumentException e) {
                // the JVM reserves it (-Xrs): the default action stays
            }
        }
        return signals;
    }

    private void handle(sun.misc.Signal signal, Consumer<String> onFirst) {
        synchronized (this) {
            if (received != null) {
                Runtime.getRuntime().halt(128 + signal.getNumber());
            }
            received = "SIG" + signal.getName();
            number = signal.getNumber();
        }
        onFirst.accept(received);
    }

    /** @return signals left as they are (a library call inside someone else's process): never any received */
    public static Signals none() {
        return new Signals();
    }

    /** @return the first signal's name, e.g. {@code SIGTERM}, or null when none came */
    public String received() {
        return received;
    }

    /** @return 128 + the first signal's number (130 for SIGINT, 143 for SIGTERM), or 0 when none came */
    public int exitCode() {
        return received == null ? 0 : 128 + number;
    }
}
