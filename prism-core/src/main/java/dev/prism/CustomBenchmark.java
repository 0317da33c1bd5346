package dev.prism;

import java.util.function.Supplier;

/** A benchmark made by {@link Benchmark.Builder}. */
record CustomBenchmark(String name, String description, Parameters parameters,
                       Supplier<? extends Workload> workloads, boolean runsByTime) implements Benchmark {
    @Override
    public Workload newWorkload() {
        return workloads.get();
    }

    @Override
    public String toString() {
        return name + (parameters.declared().isEmpty() ? "" : " " + parameters);
    }
}
