package dev.prism.posix.internal;

import dev.prism.Benchmark;
import dev.prism.BenchmarkProvider;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Suite;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/** A provider for one POSIX benchmark: its defaults, its factory from parameters, and its quick-suite configurations. */
public abstract class PosixProvider implements BenchmarkProvider {
    private final Benchmark defaults;
    private final List<Parameter<?>> parameters;
    private final Function<Parameters, Benchmark> factory;
    private final Supplier<List<Benchmark>> quick;

    PosixProvider(Benchmark defaults, List<Parameter<?>> parameters, Function<Parameters, Benchmark> factory,
                  Supplier<List<Benchmark>> quick) {
        this.defaults = defaults;
        this.parameters = parameters;
        this.factory = factory;
        this.quick = quick;
    }

    @Override
    public String name() {
        return defaults.name();
    }

    @Override
    public String description() {
        return defaults.description();
    }

    @Override
    public List<Parameter<?>> parameters() {
        return parameters;
    }

    @Override
    public Benchmark create(Map<String, String> values) {
        return factory.apply(Parameters.defaults(parameters).withText(values));
    }

    @Override
    public List<Benchmark> suite(Suite suite) {
        return suite == Suite.QUICK ? quick.get() : List.of();
    }
}
