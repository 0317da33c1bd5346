package dev.prism;

/**
 * The target directory of a scenario was refused: it is {@code /}, missing, not a directory, or
 * not writable. The message says which and names the path.
 *
 * <pre>{@code
 * try {
 *     dev.prism.Scenario.builder().target(java.nio.file.Path.of("/")).benchmark(
 *         dev.prism.Benchmark.builder("noop").run(ctx -> {}).build()).build().execute();
 * } catch (dev.prism.TargetException e) {
 *     System.out.println(e.getMessage());
 * }
 * }</pre>
 */
public class TargetException extends PrismException {
    /** @param message what is wrong with the target, naming the path */
    public TargetException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong with the target, naming the path
     * @param cause the I/O failure that revealed it
     */
    public TargetException(String message, Throwable cause) {
        super(message, cause);
    }
}
