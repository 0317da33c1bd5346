package dev.prism.testing;

import dev.prism.Benchmarks;
import dev.prism.Launcher;
import dev.prism.Scenario;

import java.nio.file.Path;
import java.util.Map;

/**
 * A PRISM driver in a JVM of its own, for tests that kill it: {@code ScenarioInChild TARGET TASKS LOOP_MS}
 * runs test_sleep with every rank looping for LOOP_MS under the processes launcher.
 */
public final class ScenarioInChild {
    private ScenarioInChild() {
    }

    public static void main(String[] args) {
        Scenario.builder().target(Path.of(args[0]))
                .benchmark(Benchmarks.create("test_sleep", Map.of("loop_ms", args[2])))
                .tasks(Integer.parseInt(args[1])).launcher(Launcher.processes()).build().execute();
    }
}
