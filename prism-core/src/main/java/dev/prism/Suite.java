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
 * import dev.prism.Suite;
 * import java.nio.file.Path;
 *
 * var quick = Suite.QUICK;
 * var scenario = quick.scenario(Path.of(System.getProperty("java.io.tmpdir"))).build();
 * System.out.println(scenario.benchmarks());
 * }</pre>
 */
public enum Suite {
    /** The main job: every family that needs only the JDK, small sizes, 1 and 2 tasks, well under a minute. */
    QUICK("every benchmark family that needs nothing beyond the JDK and the base system, small sizes, 1 and 2 tasks",
            "about a minute on a 2-core VM", new int[]{1, 2}, 3, 1),
    /**
     * The nightly qualification of a node or an allocation: every family, those that run programs included where this
     * machine has them, at working sizes for about 15–30 minutes on one node.
     */
    STANDARD("the nightly qualification: every benchmark family at working sizes",
            "15-30 minutes on one node at 1 and 2 tasks", new int[]{1, 2}, 3, 1),
    /**
     * The benchmarks of the paper's Table 3 at the paper's sizes and task counts, 8 to 256: meant for a cluster
     * allocation, not a laptop. Each benchmark's provider says what the paper's size is.
     */
    PAPER("the paper's Table 3 at its sizes and task counts, 8 to 256",
            "hours, on a cluster allocation", new int[]{8, 16, 32, 64, 128, 256}, 3, 1),
    /**
     * Checkpoints of Llama 3 8B, 70B and 405B as their training jobs write them (MLPerf Storage's layouts: 1×1×8,
     * 8×4×2, 8×16×4): ten saves, the page cache dropped on every rank, ten loads; the ranks run play the first ranks
     * of the job, each holding only its shard (up to about 30 GB). {@code --plan} says the bytes and memory.
     */
    FRONTIER("checkpoints of llama3 8B, 70B and 405B as their training jobs write them: 10 saves, a dropped page cache, 10 loads",
            "an hour or more, on nodes with the memory --plan names", new int[]{8}, 3, 0);

    private final String description;
    private final String duration;
    private final int[] tasks;
    private final int repetitions;
    private final int warmups;

    Suite(String description, String duration, int[] tasks, int repetitions, int warmups) {
        this.description = description;
        this.duration = duration;
        this.tasks = tasks;
        this.repetitions = repetitions;
        this.warmups = warmups;
    }

    /**
     * One configuration of a suite, and why it is left out on this machine (null when it runs).
     *
     * @param benchmark the configured benchmark
     * @param missing   what this machine lacks to run it, or null
     */
    public record Entry(Benchmark benchmark, String missing) {
        /** @return whether it runs here */
        public boolean runs() {
            return missing == null;
        }
    }

    /** @return the suite's name as typed: {@code quick} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return what the suite runs */
    public String description() {
        return description;
    }

    /**
     * @return what the suite needs on the machine: the JDK, and what each benchmark in it says it needs
     *         ({@link BenchmarkProvider#needs}); one that is missing is left out, saying so
     */
    public String needs() {
        java.util.Set<String> needs = new java.util.LinkedHashSet<>();
        needs.add("the JDK");
        for (BenchmarkProvider provider : Benchmarks.providers()) {
            if (!provider.needs().isBlank() && !provider.suite(this).isEmpty()) {
                needs.add(provider.needs());
            }
        }
        return String.join(", ", needs) + (needs.size() > 1 ? " (each benchmark left out, saying so, where what it needs is missing)" : "");
    }

    /** @return how long it takes, roughly */
    public String duration() {
        return duration;
    }

    /** @return its task counts unless told otherwise */
    public int[] tasks() {
        return tasks.clone();
    }

    /** @return its measured repetitions */
    public int repetitions() {
        return repetitions;
    }

    /** @return its warm-ups */
    public int warmups() {
        return warmups;
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

    /** @return every provider's configurations for this suite, in provider order, each with what this machine lacks for it */
    public List<Entry> plan() {
        List<Entry> entries = new ArrayList<>();
        for (BenchmarkProvider provider : Benchmarks.providers()) {
            List<Benchmark> configurations = provider.suite(this);
            configurations.forEach(b -> entries.add(new Entry(b, provider.missing(b))));
        }
        return entries;
    }

    /** @return the configurations that run on this machine, in provider order */
    public List<Benchmark> benchmarks() {
        return plan().stream().filter(Entry::runs).map(Entry::benchmark).toList();
    }

    /** @return a scenario builder with this suite's runnable benchmarks, task counts, repetitions and warm-ups against {@code target} */
    public Scenario.Builder scenario(java.nio.file.Path target) {
        return Scenario.builder().target(target).benchmarks(benchmarks()).tasks(tasks.clone())
                .repetitions(repetitions).warmups(warmups);
    }
}
