package dev.prism;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A named bundle of benchmarks with sizes, task counts and repetitions. Each
 * {@link BenchmarkProvider} says which configurations it adds to a suite, so a new module's
 * benchmarks join without touching core.
 *
 * <pre>{@code
 * var quick = dev.prism.Suite.QUICK;
 * var scenario = quick.scenario(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"))).build();
 * System.out.println(scenario.benchmarks());
 * }</pre>
 */
public enum Suite {
    /** The main job: every family that needs only the JDK, small sizes, 1 and 2 tasks, well under a minute. */
    QUICK("every benchmark family that needs nothing beyond the JDK, small sizes, 1 and 2 tasks", new int[]{1, 2}, 3, 1);

    private final String description;
    private final int[] tasks;
    private final int repetitions;
    private final int warmups;

    Suite(String description, int[] tasks, int repetitions, int warmups) {
        this.description = description;
        this.tasks = tasks;
        this.repetitions = repetitions;
        this.warmups = warmups;
    }

    /** @return the suite's name as typed: {@code quick} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return what the suite runs */
    public String description() {
        return description;
    }

    /** @return the suite named {@code label} */
    public static Suite named(String label) {
        for (Suite suite : values()) {
            if (suite.label().equals(label)) {
                return suite;
            }
        }
        List<String> known = new ArrayList<>();
        for (Suite suite : values()) {
            known.add(suite.label());
        }
        throw new UnknownBenchmarkException("suite", label, known);
    }

    /** @return every provider's configurations for this suite, in provider order */
    public List<Benchmark> benchmarks() {
        List<Benchmark> benchmarks = new ArrayList<>();
        for (BenchmarkProvider provider : Benchmarks.providers()) {
            benchmarks.addAll(provider.suite(this));
        }
        return benchmarks;
    }

    /** @return a scenario builder with this suite's benchmarks, task counts, repetitions and warm-ups against {@code target} */
    public Scenario.Builder scenario(java.nio.file.Path target) {
        return Scenario.builder().target(target).benchmarks(benchmarks()).tasks(tasks.clone())
                .repetitions(repetitions).warmups(warmups);
    }
}
