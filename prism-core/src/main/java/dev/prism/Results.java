package dev.prism;

import dev.prism.internal.output.ResultJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads {@code prism.run/1} documents back: a file, or a result directory (its run documents, and
 * those of the run-id directories inside it).
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Results;
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
 * var directory = Files.createTempDirectory(tmp, "prism-results-");
 * result.writeJson(directory);                       // 00-touch-t1.json, 01-touch-t2.json
 * var runs = Results.load(directory);       // what `prism compare` and `prism report` read
 * System.out.println(runs.size() + " runs, " + runs.get(1).benchmark() + " with " + runs.get(1).tasks() + " tasks");
 * }</pre>
 */
public final class Results {
    private Results() {
    }

    /**
     * Assembles the document of a run whose rank 0 never wrote one (SLURM's SIGKILL after KillWait, the OOM killer)
     * from the documents every rank writes itself when each repetition ends, or when it reports without finishing:
     * {@code <out>/<run id>/NN-benchmark-tN/rep-<i>/rank-<r>.json}. What {@code prism merge} does.
     *
     * @param rankDirectory the run's directory of rank documents, {@code <out>/<run id>/NN-benchmark-tN}
     * @return the run, FAIL, its failure saying it was assembled, from how many documents, and which ranks left none;
     *         what only rank 0 knew (parameters, provenance, the target's mount, the load) is unknown in it
     * @throws IllegalArgumentException naming the directory or file when there is no rank document, one is not a
     *                                  {@code prism.rank/1} document, or they are of different runs
     */
    public static RunResult fromRankDocuments(Path rankDirectory) throws IOException {
        return dev.prism.internal.output.RankDocumentMerge.merge(rankDirectory);
    }

    /**
     * @return every run in {@code fileOrDirectory}, in file-name order
     * @throws IllegalArgumentException when it holds none, or a file that is not a result document, naming it
     */
    public static List<RunResult> load(Path fileOrDirectory) throws IOException {
        return load(fileOrDirectory, true);
    }

    /**
     * Reads runs as {@link #load} does, keeping only what analysis over time needs: the run's and each repetition's
     * measurements, statuses, failures and rank spreads. Each repetition's {@link RepetitionResult#ranks()} and
     * {@link RepetitionResult#intervals()} are empty (its {@link RepetitionResult#rankSpread()} was computed from the
     * ranks as they were read), so the run's per-rank views ({@link RunResult#nodes()}, stalls, rank notes) are
     * empty too. What {@code prism history} reads a year of results with: a run of 32 ranks keeps a thirty-second of
     * the memory.
     *
     * <pre>{@code
     * import dev.prism.Benchmark;
     * import dev.prism.Results;
     * import dev.prism.Scenario;
     * import java.nio.file.Files;
     * import java.nio.file.Path;
     *
     * var touch = Benchmark.builder("touch").run(ctx -> {
     *     try (var t = ctx.time("create", ctx.workDirectory().resolve("f"))) {
     *         Files.createFile(ctx.workDirectory().resolve("f"));
     *     }
     * }).build();
     * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
     * var directory = Files.createTempDirectory(tmp, "prism-results-");
     * Scenario.builder().target(tmp).benchmark(touch).tasks(2).build().execute().writeJson(directory);
     * var run = Results.loadWithoutRanks(directory).get(0);
     * System.out.println(run.measurement("create").count() + " creates, " + run.repetitions().get(0).ranks().size()
     *         + " rank results kept, spread over " + run.repetitions().get(0).rankSpread().ranks() + " ranks");
     * }</pre>
     *
     * @return every run in {@code fileOrDirectory}, in file-name order, without each rank's own results
     * @throws IllegalArgumentException when it holds none, or a file that is not a result document, naming it
     */
    public static List<RunResult> loadWithoutRanks(Path fileOrDirectory) throws IOException {
        return load(fileOrDirectory, false);
    }

    private static List<RunResult> load(Path fileOrDirectory, boolean keepRanks) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(fileOrDirectory)) {
            try (Stream<Path> walk = Files.walk(fileOrDirectory, 2)) {
                walk.filter(p -> p.getFileName().toString().matches("\\d+-.+-t\\d+\\.json")).sorted().forEach(files::add);
            }
        } else if (Files.exists(fileOrDirectory)) {
            files.add(fileOrDirectory); // read only if it is a regular file: the reading says what else it is
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(fileOrDirectory + " holds no prism.run/1 documents (NN-benchmark-tN.json)");
        }
        List<RunResult> runs = new ArrayList<>();
        for (Path file : files) {
            try {
                runs.add(ResultJson.read(file, keepRanks));
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw new IllegalArgumentException(file + " is not a prism.run/1 result document (" + e.getOriginalMessage()
                        + ")", e);
            } catch (RuntimeException e) {
                // not a result document (ResultJson names the file), or one a field of which does not read
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return runs;
    }
}
