package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;

import java.util.function.Function;

/**
 * A benchmark that runs a real program researchers use (git, python/pip/uv, tar, fio) against the
 * target: {@code git_clone}, {@code git_status}, {@code env_create}, {@code env_activate},
 * {@code tar_extract}, {@code tar_create}, {@code fio}. Immutable; {@link #with} returns a checked copy.
 *
 * <pre>{@code
 * var clone = dev.prism.posix.DevWorkflows.gitClone().with(dev.prism.posix.DevWorkflows.CLONES, 5);
 * System.out.println(clone.parameters());
 * }</pre>
 */
public final class WorkflowBenchmark implements Benchmark {
    private final String name;
    private final String description;
    private final Parameters parameters;
    private final Function<Parameters, Workload> workloads;

    WorkflowBenchmark(String name, String description, Parameters parameters, Function<Parameters, Workload> workloads) {
        this.name = name;
        this.description = description;
        this.parameters = parameters;
        this.workloads = workloads;
    }

    /** @return a copy with {@code parameter} set to {@code value} (checked) */
    public <T> WorkflowBenchmark with(Parameter<T> parameter, T value) {
        return new WorkflowBenchmark(name, description, parameters.with(parameter, value), workloads);
    }

    /** @return a copy with these values, as text, by parameter name (checked) */
    public WorkflowBenchmark withText(java.util.Map<String, String> values) {
        return new WorkflowBenchmark(name, description, parameters.withText(values), workloads);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public Workload newWorkload() {
        return workloads.apply(parameters);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkflowBenchmark w && w.name.equals(name) && w.parameters.equals(parameters);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + parameters.hashCode();
    }

    @Override
    public String toString() {
        return name + " " + parameters;
    }
}
