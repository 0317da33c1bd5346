package dev.prism.posix.internal;

import dev.prism.posix.Access;
import dev.prism.posix.PosixBenchmark;

import dev.prism.Benchmark;
import dev.prism.BenchmarkProvider;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Suite;
import dev.prism.posix.Access;
import dev.prism.posix.PosixBenchmark;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A provider for one POSIX benchmark: its defaults, its factory from parameters, and its configurations in each suite. */
public abstract class PosixProvider implements BenchmarkProvider {
    private final Benchmark defaults;
    private final List<Parameter<?>> parameters;
    private final Function<Parameters, Benchmark> factory;
    private final Function<Suite, List<Benchmark>> suites;
    private final String program;
    private final String install;

    PosixProvider(Benchmark defaults, List<Parameter<?>> parameters, Function<Parameters, Benchmark> factory,
                  Function<Suite, List<Benchmark>> suites) {
        this(defaults, parameters, factory, suites, null, null);
    }

    /** A provider of a benchmark that runs {@code program}, missing where it is not on PATH. */
    PosixProvider(Benchmark defaults, List<Parameter<?>> parameters, Function<Parameters, Benchmark> factory,
                  Function<Suite, List<Benchmark>> suites, String program, String install) {
        this.defaults = defaults;
        this.parameters = parameters;
        this.factory = factory;
        this.suites = suites;
        this.program = program;
        this.install = install;
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
        // the frontier suite is checkpoints alone
        return suite == Suite.FRONTIER ? List.of() : suites.apply(suite);
    }

    @Override
    public String needs() {
        return program == null ? "" : program;
    }

    @Override
    public String missing() {
        return program == null ? null : Programs.missing(program, install);
    }

    /** @return as {@link #missing()}, and for a configuration through Python, what its worker lacks */
    @Override
    public String missing(Benchmark configuration) {
        String missing = missing();
        if (missing == null && configuration.parameters().asText().containsKey(PosixBenchmark.ACCESS.name())) {
            Access access = Access.valueOf(configuration.parameters().asText().get(PosixBenchmark.ACCESS.name())
                    .toUpperCase(java.util.Locale.ROOT));
            return access.inPython() ? PythonFileCalls.missing(access) : null;
        }
        return missing;
    }
}
