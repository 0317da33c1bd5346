package dev.prism;

/**
 * The target directory of a scenario was refused: it is {@code /}, missing, not a directory, or
 * not writable. The message says which and names the path.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import dev.prism.TargetException;
 * import java.nio.file.Path;
 *
 * try {
 *     Scenario.builder().target(Path.of("/")).benchmark(
 *         Benchmark.builder("noop").run(ctx -> {}).build()).build().execute();
 * } catch (TargetException e) {
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
