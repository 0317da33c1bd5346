package dev.prism;

import dev.prism.internal.output.ResultJson;
import dev.prism.internal.output.TextTable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a {@link Scenario} measured: one {@link RunResult} per benchmark × task count.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var result = Scenario.builder().target(tmp).benchmark(touch).tasks(1, 2).build().execute();
 * System.out.println(result.table());
 * if (!result.passed()) System.out.println(result.failures());
 * System.out.println("2 tasks: " + result.run("touch", 2).measurement("create").opsPerSecond() + " creates/s");
 * }</pre>
 *
 * @param runId      the scenario's run id, also in the run directory's name
 * @param runs       one per benchmark × task count, in execution order
 * @param startedAt  when the scenario started
 * @param finishedAt   when it ended
 * @param interruption why the scenario was interrupted (a signal's name), or null when it was not
 * @param cleanup      what removing the run directory left (the count, the first failed call, its path and
 *                     errno; or that it did not finish within the grace), or null when it left nothing
 * @param unwritten    what could not be written into the scenario's output directory (the file, the call and its
 *                     errno: a full disk, a read-only mount), or null when every document was written; the runs are
 *                     all here either way
 */
public record ScenarioResult(String runId, List<RunResult> runs, Instant startedAt, Instant finishedAt,
                             String interruption, String cleanup, String unwritten) {
    /** Copies the list. */
    public ScenarioResult {
        runs = List.copyOf(runs);
    }

    /** A scenario that was neither interrupted nor left anything behind. */
    public ScenarioResult(String runId, List<RunResult> runs, Instant startedAt, Instant finishedAt) {
        this(runId, runs, startedAt, finishedAt, null, null, null);
    }

    /** A scenario whose documents were all written (or that had no output directory). */
    public ScenarioResult(String runId, List<RunResult> runs, Instant startedAt, Instant finishedAt, String interruption,
                          String cleanup) {
        this(runId, runs, startedAt, finishedAt, interruption, cleanup, null);
    }

    /** @return true when every run's document reached the output directory (or none was asked for) */
    public boolean written() {
        return unwritten == null;
    }

    /** @return true when removing the run directory left nothing behind */
    public boolean cleanedUp() {
        return cleanup == null;
    }

    /** @return e.g. {@code 4 run(s), all passed}, then a line per run as {@link RunResult#toString()} prints it */
    @Override
    public String toString() {
        long failed = runs.stream().filter(r -> !r.passed()).count();
        StringBuilder s = new StringBuilder(runs.size() + " run(s), " + (failed == 0 ? "all passed" : failed + " failed"));
        if (interruption != null) {
            s.append(", interrupted: ").append(interruption);
        }
        runs.forEach(r -> s.append('\n').append(r));
        return s.toString();
    }

    /** @return true when every run passed */
    public boolean passed() {
        return runs.stream().allMatch(RunResult::passed);
    }

    /** @return the failures of failed runs, each naming its benchmark and task count */
    public List<String> failures() {
        List<String> failures = new ArrayList<>();
        for (RunResult run : runs) {
            if (!run.passed()) {
                failures.add(run.benchmark() + " with " + run.tasks() + " task(s): " + run.failure());
            }
        }
        return failures;
    }

    /**
     * @return the run of {@code benchmark} with {@code tasks} ranks (the first, when the scenario ran it with
     *         several parameter sets)
     * @throws IllegalArgumentException when there is none, naming the runs there are
     */
    public RunResult run(String benchmark, int tasks) {
        return runs.stream().filter(r -> r.benchmark().equals(benchmark) && r.tasks() == tasks).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run of " + benchmark + " with " + tasks + " task(s); runs: "
                        + (runs.isEmpty() ? "none" : String.join(", ", runs.stream()
                        .map(r -> r.benchmark() + " with " + r.tasks() + " task(s)").distinct().toList()))));
    }

    /**
     * @return the run of {@code benchmark}, as configured (its name and parameters), with {@code tasks} ranks
     * @throws IllegalArgumentException when there is none, naming the runs there are
     */
    public RunResult run(Benchmark benchmark, int tasks) {
        java.util.Objects.requireNonNull(benchmark, "benchmark");
        return runs.stream().filter(r -> r.benchmark().equals(benchmark.name()) && r.tasks() == tasks
                        && r.parameters().equals(benchmark.recordedParameters())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run of " + benchmark + " with " + tasks + " task(s); runs: "
                        + (runs.isEmpty() ? "none" : String.join(", ", runs.stream()
                        .map(r -> r.benchmark() + " with " + r.tasks() + " task(s)").distinct().toList()))));
    }

    /** @return the latency tables of all runs, one per benchmark */
    public String table() {
        return TextTable.of(runs);
    }

    /**
     * Writes each run's document into {@code directory}, as {@code NN-<benchmark>-t<tasks>.json}.
     *
     * @return the files written
     */
    public List<Path> writeJson(Path directory) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            files.add(ResultJson.writeInto(directory, i, runs.get(i)));
        }
        return files;
    }
}
