package dev.prism;

import java.util.List;
import java.util.Map;

/**
 * A plugin that contributes one benchmark: its name, description and documented parameters, a
 * factory from the parameter values a user typed, and the configurations it joins each suite with.
 * Providers are found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.prism.BenchmarkProvider}, and the CLI lists and runs it with no
 * change to core.
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 *
 * for (var p : Benchmarks.providers()) System.out.println(p.name() + ": " + p.description());
 * }</pre>
 */
public interface BenchmarkProvider {
    /** @return the benchmark's name, unique among providers */
    String name();

    /** @return one line saying what it executes */
    String description();

    /** @return its parameters, with defaults, ranges and documentation */
    List<Parameter<?>> parameters();

    /**
     * @param values parameter values by name, as typed ({@code files=5000}); missing ones take their defaults
     * @throws IllegalArgumentException naming the parameter when a name is unknown or a value bad
     */
    Benchmark create(Map<String, String> values);

    /** @return this benchmark's configurations in {@code suite}; empty when it does not join it */
    default List<Benchmark> suite(Suite suite) {
        return List.of();
    }

    /**
     * @return what the benchmark needs on a machine beyond the JDK, as a suite lists it ({@code "fio"},
     *         {@code "Python with torch"}); empty when nothing
     */
    default String needs() {
        return "";
    }

    /**
     * @return what this machine lacks to run the benchmark ({@code "fio is not installed (apt-get install fio)"}),
     *         or null when it can run; a suite leaves such a benchmark out and says why
     */
    default String missing() {
        return null;
    }

    /**
     * @param configuration one of this provider's configurations (from {@link #suite})
     * @return what this machine lacks to run that configuration, or null: {@link #missing()}, unless a provider knows
     *         better per configuration (one that runs through Python, say)
     */
    default String missing(Benchmark configuration) {
        return missing();
    }
}
