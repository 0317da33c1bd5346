package dev.prism.posix.workflows;

import dev.prism.AbstractBenchmark;
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
 * import dev.prism.posix.workflows.DevWorkflows;
 *
 * var clone = DevWorkflows.gitClone().with(DevWorkflows.CLONES, 5);
 * System.out.println(clone.parameters());
 * }</pre>
 */
public final class WorkflowBenchmark extends AbstractBenchmark {
    private final Function<Parameters, Workload> workloads;

    WorkflowBenchmark(String name, String description, Parameters parameters, Function<Parameters, Workload> workloads) {
        super(name, description, parameters);
        this.workloads = workloads;
    }

    /** @return a copy with {@code parameter} set to {@code value} (checked) */
    public <T> WorkflowBenchmark with(Parameter<T> parameter, T value) {
        return with(parameters().with(parameter, value));
    }

    /** @return a copy with these values, as text, by parameter name (checked) */
    @Override
    public WorkflowBenchmark withText(java.util.Map<String, String> values) {
        return (WorkflowBenchmark) super.withText(values);
    }

    /** @return a copy with {@code parameters}, running the same program */
    @Override
    protected WorkflowBenchmark with(Parameters parameters) {
        return new WorkflowBenchmark(name(), description(), parameters, workloads);
    }

    @Override
    public Workload newWorkload() {
        return workloads.apply(parameters());
    }
}
