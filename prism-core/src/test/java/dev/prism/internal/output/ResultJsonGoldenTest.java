package dev.prism.internal.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.Failure;
import dev.prism.HostInfo;
import dev.prism.LatencyRecorder;
import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.RunResult;
import dev.prism.Stall;
import dev.prism.Status;
import dev.prism.TargetInfo;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the prism.run/1 schema: field names, order and values. Regenerate deliberately with
 * {@code mvn test -pl prism-core -Dprism.updateGolden=true -Dtest=ResultJsonGoldenTest} and say why in the commit.
 */
class ResultJsonGoldenTest {
    private static final Path PASSED = Path.of("src/test/resources/golden/run-pass.json");
    private static final Path FAILED = Path.of("src/test/resources/golden/run-fail.json");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Measurement measurement(String op, long elapsed, long bytes, long... values) {
        LatencyRecorder r = new LatencyRecorder(op);
        for (long v : values) {
            r.record(v);
        }
        r.addBytes(bytes);
        return r.snapshot(elapsed);
    }

    private static RankResult rank(int rank, long phase, long... values) {
        Map<String, Measurement> m = new LinkedHashMap<>();
        m.put("open", measurement("open", phase, 0, values));
        m.put("write", measurement("write", phase, 4096L * values.length, 2_000, 3_000));
        return new RankResult(rank, "node" + rank, Status.PASS, null, phase, m, Map.of("resident_bytes", 4096L * rank), List.of());
    }

    private static RunResult run(boolean fail) {
        RankResult r0 = rank(0, 2_000_000, 10_000, 12_000, 15_000);
        RankResult r1 = fail
                ? new RankResult(1, "node1", Status.FAIL, new Failure(Failure.Kind.TIMEOUT, "exceeded the timeout of 10s", 1),
                3_000_000, Map.of("open", measurement("open", 3_000_000, 0, 20_000)), Map.of(),
                List.of(new Stall(1, "open", "/mnt/nfs/prism-golden/rank-1/file-1.dat",
                        Instant.parse("2026-11-29T12:00:01Z"), 5_000_000_000L, false)))
                : rank(1, 3_000_000, 20_000, 25_000, 30_000);
        List<RankResult> ranks = List.of(r0, r1);
        Map<String, Measurement> merged = new LinkedHashMap<>();
        merged.put("open", Measurement.combineRanks(List.of(r0.measurements().get("open"), r1.measurements().get("open"))));
        merged.put("write", fail ? r0.measurements().get("write")
                : Measurement.combineRanks(List.of(r0.measurements().get("write"), r1.measurements().get("write"))));
        Failure failure = fail ? r1.failure() : null;
        Status status = fail ? Status.FAIL : Status.PASS;
        RepetitionResult rep = new RepetitionResult(0, status, failure, merged, ranks, RankSpread.of(ranks, 0));
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("files", "3");
        parameters.put("file_size", "4KiB");
        return RunResult.builder()
                .runId("golden")
                .benchmark("create_files")
                .parameters(parameters)
                .tasks(2)
                .launcher("threads")
                .warmups(1)
                .seed(42)
                .timeout(Duration.ofSeconds(10))
                .stallThreshold(Duration.ofSeconds(1))
                .status(status)
                .failure(failure)
                .measurements(merged)
                .repetitions(List.of(rep))
                .rankSpread(RankSpread.ofRepetitions(List.of(rep)))
                .startedAt(Instant.parse("2026-11-29T12:00:00Z"))
                .finishedAt(Instant.parse("2026-11-29T12:00:02Z"))
                .target(new TargetInfo("/mnt/nfs/prism", "/mnt/nfs", "nfs4", "filer:/export", "rw,relatime", "rw,vers=4.2", 1L << 40, 1L << 39))
                .host(new HostInfo("node0", "6.1.0-test", "Linux", "amd64", 64, 1L << 38, "17.0.15 (Debian)", "0.1.0"))
                .provenance(new dev.prism.Provenance("0.1.0", "a336053d863f04f24cb24f924a23d1b19e7105b9", "prism run create_files -p files=3", Map.of("firmware", "4.3"), Map.of("git", "git version 2.39.5")))
                .conditions(new dev.prism.HostConditions(64, 0.5, 1.25, 0.0, fail ? Double.NaN : 0.031, 0.0, 0.4, fail ? "" : "yes (pid 4242) 98% of a CPU"))
                .build();
    }

    @Test
    void passingRun_matchesTheGoldenDocument() throws IOException {
        assertMatchesGolden(run(false), PASSED);
    }

    @Test
    void failingRun_keepsItsMeasurementsAndStalls_matchesTheGoldenDocument() throws IOException {
        assertMatchesGolden(run(true), FAILED);
    }

    @Test
    void theGoldenDocuments_readAsAStream_writeBackAsTheyWere() throws IOException {
        for (Path golden : List.of(PASSED, FAILED)) {
            assertSameDocument(ResultJson.toJson(ResultJson.read(golden)), Files.readString(golden));
        }
    }

    /**
     * The same document, field for field and in order, but for the confidence intervals: a document keeps the standard
     * deviation to three decimals, so the interval worked out from a document read back moves in its last digits.
     */
    private static void assertSameDocument(String actual, String expected) throws IOException {
        JsonNode a = MAPPER.readTree(actual);
        JsonNode e = MAPPER.readTree(expected);
        assertThat(a.findValues("ci95HighNanos").stream().mapToDouble(JsonNode::asDouble).sum())
                .isCloseTo(e.findValues("ci95HighNanos").stream().mapToDouble(JsonNode::asDouble).sum(),
                        org.assertj.core.data.Percentage.withPercentage(0.01));
        assertThat(withoutIntervals(a).toPrettyString()).isEqualTo(withoutIntervals(e).toPrettyString())
                .contains("\"stalls\"", "\"ranks\"", "\"histogram\"");
    }

    private static JsonNode withoutIntervals(JsonNode node) {
        JsonNode copy = node.deepCopy();
        List<JsonNode> all = new java.util.ArrayList<>(List.of(copy));
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) instanceof ObjectNode o) {
                o.remove(List.of("ci95LowNanos", "ci95HighNanos"));
            }
            all.get(i).forEach(all::add);
        }
        return copy;
    }

    @Test
    void aDocumentWhoseFieldsComeInAnotherOrder_readsTheSame(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        ObjectNode golden = (ObjectNode) MAPPER.readTree(Files.readString(FAILED));
        ObjectNode reordered = MAPPER.createObjectNode();
        reordered.set("repetitions", golden.get("repetitions")); // before the schema, as JSON allows
        golden.fields().forEachRemaining(e -> reordered.set(e.getKey(), e.getValue()));
        Path file = dir.resolve("01-create_files-t2.json");
        Files.writeString(file, reordered.toString());
        assertSameDocument(ResultJson.toJson(ResultJson.read(file)), Files.readString(FAILED));
    }

    @Test
    void readWithoutRanks_keepsTheRunsAndRepetitionsFigures_andTheirSpreadsFromTheRanks() throws IOException {
        for (Path golden : List.of(PASSED, FAILED)) {
            RunResult full = ResultJson.read(golden);
            RunResult slim = ResultJson.read(golden, false);
            assertThat(full.repetitions().get(0).ranks()).hasSize(2);
            assertThat(slim.repetitions()).allSatisfy(rep -> {
                assertThat(rep.ranks()).isEmpty();
                assertThat(rep.intervals()).isEmpty();
            });
            assertThat(trees(slim.measurements())).isEqualTo(trees(full.measurements())).isNotEmpty();
            assertThat(slim.rankSpread()).isEqualTo(full.rankSpread()).extracting(RankSpread::ranks).isEqualTo(2);
            for (int i = 0; i < full.repetitions().size(); i++) {
                RepetitionResult f = full.repetitions().get(i);
                RepetitionResult s = slim.repetitions().get(i);
                assertThat(trees(s.measurements())).isEqualTo(trees(f.measurements())).isNotEmpty();
                assertThat(s.rankSpread()).isEqualTo(f.rankSpread());
                assertThat(List.of(s.index(), s.status(), String.valueOf(s.failure())))
                        .isEqualTo(List.of(f.index(), f.status(), String.valueOf(f.failure())));
            }
            assertThat(List.of(slim.status(), slim.parameters(), slim.provenance(), slim.conditions(), slim.target()))
                    .isEqualTo(List.of(full.status(), full.parameters(), full.provenance(), full.conditions(), full.target()));
        }
    }

    /** @return each measurement as its document has it: Measurement compares by identity */
    private static Map<String, String> trees(Map<String, Measurement> measurements) {
        Map<String, String> trees = new LinkedHashMap<>();
        measurements.forEach((op, m) -> trees.put(op, ResultJson.measurementTree(m).toString()));
        return trees;
    }

    private static void assertMatchesGolden(RunResult run, Path golden) throws IOException {
        String json = ResultJson.toJson(run);
        if (Boolean.getBoolean("prism.updateGolden")) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, json, StandardCharsets.UTF_8);
        }
        JsonNode actual = MAPPER.readTree(json);
        JsonNode expected = MAPPER.readTree(Files.readString(golden));
        // histograms are compared by content: their compressed bytes may differ between zlib builds
        assertThat(histogramsOf(actual)).isEqualTo(histogramsOf(expected));
        assertThat(withoutHistograms(actual).toPrettyString()).isEqualTo(withoutHistograms(expected).toPrettyString());
        assertThat(actual.get("schema").asText()).isEqualTo("prism.run/1");
    }

    private static List<Histogram> histogramsOf(JsonNode node) {
        return node.findValues("histogram").stream().map(h -> {
            try {
                return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(h.asText())), 0);
            } catch (DataFormatException e) {
                throw new AssertionError("histogram does not decode: " + h, e);
            }
        }).toList();
    }

    private static JsonNode withoutHistograms(JsonNode node) {
        JsonNode copy = node.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode object && object.has("histogram")) {
            object.put("histogram", "<compared by content>");
        }
        node.forEach(ResultJsonGoldenTest::strip);
    }
}
