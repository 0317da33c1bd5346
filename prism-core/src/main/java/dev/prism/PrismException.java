package dev.prism;

/**
 * The root of every exception PRISM throws on purpose. Subclasses say what went wrong:
 * {@link ValidationException} (a workload's output did not verify), {@link TargetException}
 * (the target directory was refused), {@link UnknownBenchmarkException} (a name no provider knows).
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 * import dev.prism.PrismException;
 *
 * try {
 *     Benchmarks.provider("no_such_benchmark");
 * } catch (PrismException e) {
 *     System.out.println(e.getMessage());
 * }
 * }</pre>
 */
public class PrismException extends RuntimeException {
    /** @param message what went wrong, for a person to read */
    public PrismException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, for a person to read
     * @param cause the underlying failure
     */
    public PrismException(String message, Throwable cause) {
        super(message, cause);
    }
}
