package dev.prism;

import java.util.Objects;

/**
 * Why a run or rank failed: the kind, a message for a person, and the rank it happened on
 * ({@code -1} when no single rank is to blame).
 *
 * <pre>{@code
 * import dev.prism.Failure;
 *
 * var f = new Failure(Failure.Kind.TIMEOUT, "run exceeded its timeout of 10s", 3);
 * System.out.println(f);
 * }</pre>
 *
 * @param kind    what sort of failure
 * @param message what happened, naming files and values
 * @param rank    the rank that failed, or -1
 */
public record Failure(Kind kind, String message, int rank) {
    /** The sorts of failure. */
    public enum Kind {
        /** The workload threw. */
        EXCEPTION,
        /** The run passed its deadline; what was measured until then is kept. */
        TIMEOUT,
        /** The workload's output did not verify. */
        VALIDATION,
        /** This rank stopped because another rank failed (only on per-rank results). */
        ABORTED,
        /** The scenario was interrupted (a signal, {@link Interruption#interrupt}); what was measured until then is kept. */
        INTERRUPTED,
        /** The benchmark refused to start: it does not fit the target or this machine (see {@link RefusedException}). */
        REFUSED
    }

    /** @throws NullPointerException when kind or message is null */
    public Failure {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return kind + (rank >= 0 ? " on rank " + rank : "") + ": " + message;
    }
}
