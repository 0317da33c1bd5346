package dev.prism;

import java.util.function.Supplier;

/**
 * A benchmark made by {@link Benchmark.Builder}; {@code workloadClass} is the class its workloads are made of, where
 * they are made of one ({@link Benchmark.Builder#workload(Class)}): ranks in other processes make it again by that
 * name. Null where they are made by lambdas, which run in this JVM's threads only.
 */
record CustomBenchmark(String name, String description, Parameters parameters,
                       Supplier<? extends Workload> workloads, boolean runsByTime,
                       Class<? extends Workload> workloadClass) implements Benchmark {
    @Override
    public Workload newWorkload() {
        return workloads.get();
    }

    @Override
    public Benchmark withText(java.util.Map<String, String> values) {
        return new CustomBenchmark(name, description, parameters.withText(values), workloads, runsByTime, workloadClass);
    }

    @Override
    public String toString() {
        return name + (parameters.declared().isEmpty() ? "" : " " + parameters);
    }
}
