package dev.prism.internal.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Failure;
import dev.prism.HostConditions;
import dev.prism.HostInfo;
import dev.prism.Provenance;
import dev.prism.RankResult;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.RunResult;
import dev.prism.Status;
import dev.prism.TargetInfo;
import dev.prism.internal.coordination.Coordinator;
import dev.prism.internal.launch.ScenarioRunner;
import dev.prism.spi.InputFiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A run's document assembled from the documents its ranks wrote themselves ({@code rep-<i>/rank-<r>.json}), for a run
 * whose rank 0 never wrote its own: SLURM's SIGKILL after KillWait, the OOM killer. Each rank writes its document when
 * its repetition ends, and when it reports without finishing, so what the survivors measured is there even when the
 * process that gathers it is gone. The result is FAIL and says it was assembled, from how many documents, and which
 * ranks left none; what only rank 0 knew (parameters, provenance, the target's mount, the host's load) is unknown.
 */
public final class RankDocumentMerge {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern REPETITION = Pattern.compile("rep-(\\d{1,6})");
    private static final Pattern RANK = Pattern.compile("rank-(\\d{1,7})\\.json");

    private RankDocumentMerge() {
    }

    /**
     * @param directory the run's rank output directory ({@code <out>/<run id>/NN-benchmark-tN}), holding {@code rep-<i>}
     * @return the run its rank documents describe
     * @throws IllegalArgumentException naming the directory or file when there are none, or they disagree
     */
    public static RunResult merge(Path directory) throws IOException {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(directory + " is not a directory of rank documents (rep-N/rank-R.json)");
        }
        Map<Integer, Map<Integer, RankResult>> byRepetition = new TreeMap<>();
        String runId = null;
        String benchmark = null;
        int tasks = -1;
        int documents = 0;
        Instant first = null;
        Instant last = null;
        try (Stream<Path> repetitions = Files.list(directory)) {
            for (Path rep : repetitions.sorted().toList()) {
                Matcher m = REPETITION.matcher(rep.getFileName().toString());
                if (!m.matches() || !Files.isDirectory(rep, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                int index = Integer.parseInt(m.group(1));
                try (Stream<Path> files = Files.list(rep)) {
                    for (Path file : files.sorted().toList()) {
                        Matcher r = RANK.matcher(file.getFileName().toString());
                        if (!r.matches()) {
                            continue;
                        }
                        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                            // a place others may have written in: a link is never followed to what it names
                            throw new IllegalArgumentException(file + " is not a regular file (a link, or something else),"
                                    + " so it is not read as a rank document");
                        }
                        JsonNode d;
                        try (InputStream in = InputFiles.open(file, InputFiles.MAX_DOCUMENT_BYTES, "rank document")) {
                            d = MAPPER.readTree(in);
                        } catch (com.fasterxml.jackson.core.JacksonException e) {
                            throw new IllegalArgumentException(file + " is not a " + ResultJson.RANK_SCHEMA + " document ("
                                    + e.getOriginalMessage() + ")", e);
                        }
                        if (d == null || !ResultJson.RANK_SCHEMA.equals(d.path("schema").asText())) {
                            throw new IllegalArgumentException(file + " is not a " + ResultJson.RANK_SCHEMA + " document");
                        }
                        String id = d.path("runId").asText();
                        String name = d.path("benchmark").asText();
                        int n = d.path("tasks").asInt(-1);
                        if (runId == null) {
                            runId = id;
                            benchmark = name;
                            tasks = n;
                        } else if (!runId.equals(id) || !benchmark.equals(name) || tasks != n) {
                            throw new IllegalArgumentException(file + " is of run " + id + " (" + name + ", " + n
                                    + " tasks), not of " + runId + " (" + benchmark + ", " + tasks + " tasks) as the others");
                        }
                        RankResult rank;
                        try {
                            rank = ResultJson.readRank(d.path("result"));
                        } catch (RuntimeException e) {
                            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
                        }
                        if (rank.rank() != Integer.parseInt(r.group(1)) || d.path("repetition").asInt(-1) != index) {
                            throw new IllegalArgumentException(file + " holds rank " + rank.rank() + " of repetition "
                                    + d.path("repetition").asInt(-1) + ", not what its name says");
                        }
                        byRepetition.computeIfAbsent(index, k -> new TreeMap<>()).put(rank.rank(), rank);
                        documents++;
                        Instant written = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                                .lastModifiedTime().toInstant();
                        first = first == null || written.isBefore(first) ? written : first;
                        last = last == null || written.isAfter(last) ? written : last;
                    }
                }
            }
        }
        if (documents == 0 || tasks < 1) {
            throw new IllegalArgumentException(directory + " holds no rank documents (rep-N/rank-R.json)");
        }
        List<RepetitionResult> repetitions = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (Map.Entry<Integer, Map<Integer, RankResult>> e : byRepetition.entrySet()) {
            List<RankResult> ranks = new ArrayList<>();
            List<Integer> none = new ArrayList<>();
            for (int r = 0; r < tasks; r++) {
                RankResult rank = e.getValue().get(r);
                if (rank == null) {
                    none.add(r);
                    rank = Coordinator.missing(r, "?", Failure.Kind.EXCEPTION, "rank " + r
                            + " left no document for this repetition (killed before it wrote one, or never started it)");
                }
                ranks.add(rank);
            }
            if (!none.isEmpty()) {
                absent.add("repetition " + (e.getKey() + 1) + ": ranks " + none);
            }
            Failure failure = ScenarioRunner.firstFailure(ranks);
            repetitions.add(new RepetitionResult(e.getKey(), failure == null ? Status.PASS : Status.FAIL, failure,
                    ScenarioRunner.merge(ranks.stream().map(RankResult::measurements).toList(), true), ranks,
                    RankSpread.of(ranks, e.getKey())));
        }
        Failure firstRank = repetitions.stream().map(RepetitionResult::failure).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
        String assembled = "assembled from " + documents + " rank documents in " + directory + " (the run's own document"
                + " was never written: rank 0 was killed first" + (absent.isEmpty() ? ")" : "; no document from "
                + String.join(", ", absent) + ")");
        Failure failure = new Failure(firstRank == null ? Failure.Kind.EXCEPTION : firstRank.kind(),
                assembled + (firstRank == null ? "" : "; then: " + firstRank.message()),
                firstRank == null ? -1 : firstRank.rank());
        String rank0Host = byRepetition.values().stream().map(m -> m.get(0)).filter(java.util.Objects::nonNull)
                .map(RankResult::hostname).findFirst().orElse("?");
        return RunResult.builder()
                .runId(runId)
                .benchmark(benchmark)
                .parameters(Map.of())
                .tasks(tasks)
                .launcher("unknown (assembled from rank documents)")
                .warmups(0)
                .seed(0)
                .timeout(Duration.ZERO)
                .stallThreshold(Duration.ZERO)
                .status(Status.FAIL)
                .failure(failure)
                .measurements(ScenarioRunner.merge(repetitions.stream().map(RepetitionResult::measurements).toList(), false))
                .repetitions(repetitions)
                .rankSpread(RankSpread.ofRepetitions(repetitions))
                .startedAt(first)
                .finishedAt(last)
                .target(new TargetInfo("?", "?", "?", "?", "", "", 0, 0))
                .host(new HostInfo(rank0Host, "?", "?", "?", 0, 0, "?", "?"))
                .provenance(Provenance.UNKNOWN)
                .conditions(HostConditions.UNKNOWN)
                .build();
    }
}
