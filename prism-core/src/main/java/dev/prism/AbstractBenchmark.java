package dev.prism;

/**
 * What most benchmarks share: a name, a description and parameter values, with equality by name and
 * parameters. Subclasses add the workload (and typed setters returning copies).
 *
 * <pre>{@code
 * import dev.prism.AbstractBenchmark;
 * import dev.prism.Parameters;
 * import dev.prism.Workload;
 *
 * class Noop extends AbstractBenchmark {
 *     Noop() { super("noop", "does nothing", Parameters.none()); }
 *     public Workload newWorkload() { return ctx -> { }; }
 * }
 * System.out.println(new Noop());
 * }</pre>
 */
public abstract class AbstractBenchmark implements Benchmark {
    private final String name;
    private final String description;
    private final Parameters parameters;

    /**
     * @param name        the benchmark's name
     * @param description one line saying what it executes
     * @param parameters  its parameter values
     */
    protected AbstractBenchmark(String name, String description, Parameters parameters) {
        this.name = java.util.Objects.requireNonNull(name, "name");
        this.description = java.util.Objects.requireNonNull(description, "description");
        this.parameters = java.util.Objects.requireNonNull(parameters, "parameters");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Parameters parameters() {
        return parameters;
    }

    /**
     * A copy of this benchmark with {@code parameters}, and whatever else it carries: the hook every subclass's setters
     * and {@link #withText} go through. By default made again by its provider, by name.
     *
     * @param parameters the copy's parameter values, already checked
     * @return the copy
     */
    protected Benchmark with(Parameters parameters) {
        return Benchmarks.create(name(), parameters.changedFromDefaults());
    }

    /** @return a copy with {@code values} parsed and checked by the declared parameters, through {@link #with(Parameters)} */
    @Override
    public Benchmark withText(java.util.Map<String, String> values) {
        return with(parameters.withText(values));
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((AbstractBenchmark) o).name.equals(name)
                && ((AbstractBenchmark) o).parameters.equals(parameters);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + parameters.hashCode();
    }

    /** @return the benchmark as the tables title it: its name and its parameters, {@code create_files files=300 file_size=4KiB} */
    @Override
    public String toString() {
        String given = parameters.toString();
        return given.isEmpty() ? name : name + " " + given;
    }
}
