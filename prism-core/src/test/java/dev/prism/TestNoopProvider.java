package dev.prism;

import java.util.List;
import java.util.Map;

/** A provider registered only on the test class path, to test discovery. */
public final class TestNoopProvider implements BenchmarkProvider {
    static final Parameter<Integer> LOOPS = Parameter.ofInt("loops", 1, 1, 100, "loops", "loops per rank");

    @Override
    public String name() {
        return "test_noop";
    }

    @Override
    public String description() {
        return "does nothing, timed";
    }

    @Override
    public List<Parameter<?>> parameters() {
        return List.of(LOOPS);
    }

    @Override
    public Benchmark create(Map<String, String> values) {
        Parameters p = Parameters.defaults(parameters()).withText(values);
        return Benchmark.builder(name()).parameters(p).run(ctx -> {
            for (int i = 0; i < ctx.parameters().get(LOOPS); i++) {
                ctx.measure("noop", () -> { });
            }
        }).build();
    }

    @Override
    public List<Benchmark> suite(Suite suite) {
        return List.of(create(Map.of()));
    }
}
