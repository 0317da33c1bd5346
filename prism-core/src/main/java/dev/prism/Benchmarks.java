package dev.prism;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds benchmarks by name among every {@link BenchmarkProvider} on the class path.
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 * import java.util.Map;
 *
 * var b = Benchmarks.create("create_files", Map.of("files", "100"));
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class Benchmarks {
    private Benchmarks() {
    }

    /**
     * @return every provider, sorted by name
     * @throws PrismException when two providers claim the same name
     */
    public static List<BenchmarkProvider> providers() {
        List<BenchmarkProvider> providers = new ArrayList<>();
        ServiceLoader.load(BenchmarkProvider.class, Benchmarks.class.getClassLoader()).forEach(providers::add);
        providers.sort(Comparator.comparing(BenchmarkProvider::name));
        for (int i = 1; i < providers.size(); i++) {
            if (providers.get(i).name().equals(providers.get(i - 1).name())) {
                throw new PrismException("two benchmark providers are named '" + providers.get(i).name() + "': "
                        + providers.get(i - 1).getClass().getName() + " and " + providers.get(i).getClass().getName());
            }
        }
        return providers;
    }

    /** @return the names of every benchmark, sorted */
    public static List<String> names() {
        return providers().stream().map(BenchmarkProvider::name).toList();
    }

    /**
     * @return the names of the benchmarks that {@linkplain Benchmark#runsByTime run by time} (their work is a loop of
     *         items), as their providers build them with default parameters
     */
    public static List<String> runningByTime() {
        List<String> names = new java.util.ArrayList<>();
        for (BenchmarkProvider p : providers()) {
            try {
                if (p.create(Map.of()).runsByTime()) {
                    names.add(p.name());
                }
            } catch (RuntimeException e) {
                // a benchmark that cannot be built without parameters of the user's is not offered here
            }
        }
        return names;
    }

    /**
     * @return the provider of {@code name}
     * @throws UnknownBenchmarkException listing the known names
     */
    public static BenchmarkProvider provider(String name) {
        List<BenchmarkProvider> providers = providers();
        for (BenchmarkProvider p : providers) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new UnknownBenchmarkException("benchmark", name, providers.stream().map(BenchmarkProvider::name).toList());
    }

    /** @return benchmark {@code name} with {@code values} (by parameter name, as text) */
    public static Benchmark create(String name, Map<String, String> values) {
        return provider(name).create(values);
    }

    /**
     * @return the name of the class {@code benchmark}'s workloads are made of where ranks in other processes can make
     *         it again by that name ({@link Benchmark.Builder#workload(Class)}); empty for a benchmark a provider makes,
     *         or one made of lambdas
     */
    public static java.util.Optional<String> workloadClassOf(Benchmark benchmark) {
        return benchmark instanceof CustomBenchmark c && c.workloadClass() != null
                ? java.util.Optional.of(c.workloadClass().getName()) : java.util.Optional.empty();
    }

    /**
     * What a rank in another process does with a benchmark built with {@link Benchmark.Builder#workload(Class)}: makes
     * it again from its name, its workload class's name (found on this JVM's class path) and its parameters as text.
     *
     * @throws IllegalArgumentException when the class is not on the class path, or is no {@link Workload} that can be
     *                                  made with a public no-argument constructor
     */
    public static Benchmark recreate(String name, String workloadClass, Map<String, String> parameters, boolean runsByTime) {
        Class<?> type;
        try {
            // not initialised until it is known to be a workload: a name from the plan runs no other class's code
            type = Class.forName(workloadClass, false, Benchmarks.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("benchmark '" + name + "': its workload class " + workloadClass
                    + " is not on this rank's class path (" + e + ")");
        }
        if (!Workload.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("benchmark '" + name + "': " + workloadClass + " is not a Workload");
        }
        Benchmark.Builder builder = Benchmark.builder(name).workload(type.asSubclass(Workload.class))
                .parameters(Parameters.ofText(parameters));
        if (runsByTime) {
            builder.runsByTime();
        }
        return builder.build();
    }
}
