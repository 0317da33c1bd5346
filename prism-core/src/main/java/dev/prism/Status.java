package dev.prism;

/**
 * Whether a run, repetition or rank passed.
 *
 * <pre>{@code
 * import dev.prism.Status;
 *
 * System.out.println(Status.PASS);
 * }</pre>
 */
public enum Status {
    /** Every rank completed and validated. */
    PASS,
    /** Something failed; {@link Failure} says what. */
    FAIL
}
