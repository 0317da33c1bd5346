package dev.prism;

import java.util.function.Consumer;

/**
 * SIGINT and SIGTERM (Ctrl-C, {@code scancel}, a SLURM time limit) as a request to stop: the first
 * one calls back, so the run stops its ranks, keeps what they measured and cleans up; a second one
 * ends the process at once with 128 + the signal's number, as a shell reports it.
 *
 * <pre>{@code
 * import dev.prism.Interruption;
 * import dev.prism.Signals;
 *
 * var interruption = Interruption.create();
 * // a tool's main: var signals = dev.prism.Signals.install(interruption::interrupt); then scenario.interruption(interruption)
 * var signals = Signals.none();   // nothing installed, as inside a test or JShell
 * System.out.println(signals.received());   // null: no signal yet
 * }</pre>
 */
public final class Signals {
    private volatile String received;
    private volatile int number;
    private int real;
    private Consumer<String> onFirst = name -> { };

    private Signals() {
    }

    /**
     * Handles SIGINT and SIGTERM from now on.
     *
     * @param onFirst called with the signal's name ({@code SIGINT}) on the first one, in a thread of its own
     */
    public static Signals install(Consumer<String> onFirst) {
        Signals signals = new Signals();
        signals.onFirst = onFirst;
        for (String name : new String[]{"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> signals.handle(signal.getName(), signal.getNumber()));
            } catch (IllegalArgumentException e) {
                // the JVM reserves it (-Xrs): the default action stays
            }
        }
        return signals;
    }

    private void handle(String name, int signalNumber) {
        synchronized (this) {
            if (real++ > 0) {
                Runtime.getRuntime().halt(128 + signalNumber);
            }
            if (received != null) {
                return; // it came forwarded first (see forwarded): this is the same request, not a second one
            }
            received = "SIG" + name;
            number = signalNumber;
        }
        onFirst.accept(received);
    }

    /**
     * A signal the supervising {@code prism} process received and passed on ({@code SIGTERM}): a request to stop
     * like the first real one, but never the "second signal" that exits at once — the same signal often reaches this
     * process directly too (a terminal's Ctrl-C goes to the whole process group, {@code scancel} to every process of
     * the step), and the two must count once.
     */
    public void forwarded(String name) {
        int signalNumber = switch (name) {
            case "SIGINT" -> 2;
            case "SIGTERM" -> 15;
            default -> throw new IllegalArgumentException("signal must be SIGINT or SIGTERM, was " + name);
        };
        synchronized (this) {
            if (received != null) {
                return;
            }
            received = name;
            number = signalNumber;
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
