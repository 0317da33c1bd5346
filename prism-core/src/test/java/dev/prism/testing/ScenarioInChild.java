package dev.prism.testing;

import dev.prism.Benchmarks;
import dev.prism.Launcher;
import dev.prism.RankPhase;
import dev.prism.Scenario;
import dev.prism.ScenarioListener;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A PRISM driver in a JVM of its own, for tests that kill it: {@code ScenarioInChild TARGET RUN_ID TASKS BENCHMARK
 * [KEY=VALUE…]} runs the benchmark under the processes launcher and prints, one line each as they happen,
 * {@code phase RANK PHASE} for every phase a rank enters and {@code cleanup} when the run directory's removal
 * begins: the states a test waits for before it kills this process. System properties {@code prism.test.warmups} and
 * {@code prism.test.repetitions} set those counts (default 0 and 1).
 */
public final class ScenarioInChild {
    private ScenarioInChild() {
    }

    public static void main(String[] args) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 4; i < args.length; i++) {
            parameters.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
        }
        ScenarioListener announcing = new ScenarioListener() {
            @Override
            public synchronized void rankEntered(int rank, RankPhase phase) {
                System.out.println("phase " + rank + " " + phase);
                System.out.flush();
            }

            @Override
            public synchronized void cleanupStarted(Path runDirectory) {
                System.out.println("cleanup");
                System.out.flush();
            }
        };
        Scenario.builder().target(Path.of(args[0])).runId(args[1]).benchmark(Benchmarks.create(args[3], parameters))
                .tasks(Integer.parseInt(args[2])).warmups(Integer.getInteger("prism.test.warmups", 0))
                .repetitions(Integer.getInteger("prism.test.repetitions", 1)).launcher(Launcher.processes()).listener(announcing).build().execute();
    }
}
