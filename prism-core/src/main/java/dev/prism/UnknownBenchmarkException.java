package dev.prism;

import java.util.List;

/**
 * A benchmark (or suite) name that no {@link BenchmarkProvider} knows. The message lists the
 * known names.
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 * import dev.prism.UnknownBenchmarkException;
 *
 * try {
 *     Benchmarks.provider("create_filez");
 * } catch (UnknownBenchmarkException e) {
 *     System.out.println(e.known());
 * }
 * }</pre>
 */
public class UnknownBenchmarkException extends PrismException {
    private final List<String> known;

    /**
     * @param what "benchmark" or "suite"
     * @param name the name asked for
     * @param known the names that exist
     */
    public UnknownBenchmarkException(String what, String name, List<String> known) {
        super("unknown " + what + " '" + name + "'; known: "
                + (known.isEmpty() ? "(none)" : String.join(", ", known)));
        this.known = List.copyOf(known);
    }

    /** @return the names that do exist */
    public List<String> known() {
        return known;
    }
}
