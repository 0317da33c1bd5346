package dev.prism.internal.output;

import dev.prism.spi.AtomicFiles;
import dev.prism.internal.files.RunDirectory;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.Failure;
import dev.prism.HostInfo;
import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.RunResult;
import dev.prism.Stall;
import dev.prism.TargetInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link RunResult}s as {@code prism.run/1} documents. The field names and their order are
 * the schema: the README documents each field and golden files pin them.
 */
public final class ResultJson {
    /** The schema id every run document carries. */
    public static final String SCHEMA = "prism.run/1";
    /** The schema id of a per-rank document. */
    public static final String RANK_SCHEMA = "prism.rank/1";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultJson() {
    }

    /** @return {@code run} as an indented JSON document */
    public static String toJson(RunResult run) {
        try {
            return MAPPER.writeValueAsString(tree(run)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code run} to {@code file} atomically. */
    public static void write(RunResult run, Path file) throws IOException {
        write(run, file, AtomicFiles.DEFAULT_MODE);
    }

    /** Writes {@code run}'s document as {@code file} with permission bits {@code mode}. */
    public static void write(RunResult run, Path file, int mode) throws IOException {
        AtomicFiles.write(file, toJson(run).getBytes(StandardCharsets.UTF_8), mode);
    }

    /** Writes {@code run} into {@code directory} as {@code NN-<benchmark>-t<tasks>.json}; returns the file. */
    public static Path writeInto(Path directory, int index, RunResult run) throws IOException {
        return writeInto(directory, index, run, AtomicFiles.DEFAULT_MODE);
    }

    /** As {@link #writeInto(Path, int, RunResult)}, the files with permission bits {@code mode}. */
    public static Path writeInto(Path directory, int index, RunResult run, int mode) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(String.format("%02d-%s-t%d.json", index + 1, run.benchmark(), run.tasks()));
        write(run, file, mode);
        if (run.repetitions().stream().anyMatch(r -> !r.intervals().isEmpty())) {
            writeIntervalLog(run, directory.resolve(file.getFileName().toString().replaceFirst("\\.json$", ".hlog")), mode);
        }
        return file;
    }

    /**
     * Writes every interval histogram of {@code run} as an HdrHistogram log: one line per repetition × operation ×
     * interval, tagged {@code rep<N>/<op>}, its start and end in seconds from the end of the ramp.
     */
    static void writeIntervalLog(RunResult run, Path file, int mode) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.PrintStream out = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8)) {
            org.HdrHistogram.HistogramLogWriter writer = new org.HdrHistogram.HistogramLogWriter(out);
            writer.outputComment("PRISM " + run.benchmark() + " with " + run.tasks() + " task(s), run " + run.runId()
                    + ": interval latencies in nanoseconds; tags are rep<N>/<operation>; times from the end of the ramp");
            writer.outputLogFormatVersion();
            writer.outputBaseTime(0);
            writer.outputLegend();
            for (RepetitionResult rep : run.repetitions()) {
                rep.intervals().forEach((op, list) -> {
                    for (int i = 0; i < list.size(); i++) {
                        Measurement m = list.get(i);
                        org.HdrHistogram.Histogram h = m.histogram();
                        long lengthMillis = m.elapsedNanos() / 1_000_000;
                        h.setTag(("rep" + (rep.index() + 1) + "/" + op).replaceAll("[\\s,]", "_"));
                        h.setStartTimeStamp(i * lengthMillis);
                        h.setEndTimeStamp((i + 1) * lengthMillis);
                        writer.outputIntervalHistogram(h);
                    }
                });
            }
        }
        AtomicFiles.write(file, bytes.toByteArray(), mode);
    }

    /** @return one rank's result as a JSON document (the per-rank file, and what workers send back) */
    public static String rankToJson(String runId, String benchmark, int tasks, int repetition, RankResult rank) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", RANK_SCHEMA);
        root.put("runId", runId);
        root.put("benchmark", benchmark);
        root.put("tasks", tasks);
        root.put("repetition", repetition);
        putRank(root.putObject("result"), rank);
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes {@code rank}'s own {@code prism.rank/1} document, atomically, as {@code rank-<r>.json} in the
     * plan's rank output directory; does nothing when the plan names none.
     */
    public static void writeRank(dev.prism.RunPlan plan, RankResult rank) {
        if (plan.rankOutput() == null) {
            return;
        }
        try {
            Files.createDirectories(plan.rankOutput());
            AtomicFiles.write(rankDocument(plan.rankOutput(), rank.rank()), rankToJson(plan.runId(),
                    plan.benchmark().name(), plan.tasks(), plan.repetition(), rank).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new dev.prism.PrismException("rank " + rank.rank() + " could not write its result into "
                    + plan.rankOutput() + ": " + RunDirectory.describe(e), e);
        }
    }

    /** @return where {@link #writeRank} puts {@code rank}'s document in a rank output directory: {@code rank-<r>.json} */
    public static Path rankDocument(Path rankOutput, int rank) {
        return rankOutput.resolve("rank-" + rank + ".json");
    }

    /** @return the rank result in a {@link #rankToJson} document */
    public static RankResult rankFromJson(String json) {
        try {
            return readRank(MAPPER.readTree(json).path("result"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the run in a {@code prism.run/1} document, every rank's results included
     * @throws IllegalArgumentException naming the file when it is not one
     */
    public static RunResult read(Path file) throws IOException {
        return read(file, true);
    }

    /**
     * Reads a {@code prism.run/1} document as a stream: no tree of the whole document is built, one rank's object at a
     * time is, so reading a document of many ranks and repetitions takes the memory of what it decodes to.
     *
     * @param keepRanks false to keep only the run's and each repetition's measurements and rank spreads (computed from
     *                  the ranks as they are read), each repetition's {@code ranks()} and {@code intervals()} empty: what
     *                  analysis over a year of results keeps in memory
     * @return the run in a {@code prism.run/1} document
     * @throws IllegalArgumentException naming the file when it is not one, or the field that does not read
     */
    public static RunResult read(Path file, boolean keepRanks) throws IOException {
        try (java.io.InputStream in = dev.prism.spi.InputFiles.open(file, dev.prism.spi.InputFiles.MAX_DOCUMENT_BYTES,
                "result document"); JsonParser parser = MAPPER.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException(file + " is not a " + SCHEMA + " document");
            }
            ObjectNode top = MAPPER.createObjectNode();
            List<RepetitionResult> repetitions = new java.util.ArrayList<>();
            try {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (field.equals("repetitions") && value == JsonToken.START_ARRAY) {
                        while (parser.nextToken() == JsonToken.START_OBJECT) {
                            repetitions.add(readRepetition(parser));
                        }
                    } else {
                        top.set(field, parser.readValueAsTree());
                    }
                }
                if (!SCHEMA.equals(top.path("schema").asText())) {
                    throw new IllegalArgumentException(file + " is not a " + SCHEMA + " document");
                }
                return readRun(top, repetitions, keepRanks);
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().startsWith(file.toString())) {
                    throw e;
                }
                throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * @param path the field's path in the document, for the message
     * @return the constant of {@code type} named in {@code node}'s last field of {@code path}
     * @throws IllegalArgumentException naming the field and the values it takes
     */
    private static <E extends Enum<E>> E constant(Class<E> type, JsonNode node, String path) {
        String field = path.substring(path.lastIndexOf('.') + 1);
        String text = node.path(field).asText();
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(text)) {
                return e;
            }
        }
        throw new IllegalArgumentException("field '" + path + "' must be one of " + java.util.Arrays.toString(type.getEnumConstants())
                + ", was " + (node.has(field) ? "'" + (text.length() > 64 ? text.substring(0, 64) + "…" : text) + "'" : "missing"));
    }

    /**
     * Reads one repetition object, the parser at its start, one rank's object at a time; leaves the parser at its end.
     */
    private static RepetitionResult readRepetition(JsonParser parser) throws IOException {
        ObjectNode r = MAPPER.createObjectNode();
        List<RankResult> ranks = new java.util.ArrayList<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("ranks") && value == JsonToken.START_ARRAY) {
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    ranks.add(readRank(parser.readValueAsTree()));
                }
            } else {
                r.set(field, parser.readValueAsTree());
            }
        }
        int index = r.path("index").asInt();
        return new RepetitionResult(index, constant(dev.prism.Status.class, r, "repetitions[].status"),
                readFailure(r.path("failure")), readMeasurements(r.path("measurements")), ranks,
                RankSpread.of(ranks, index), readIntervals(r.path("intervals")));
    }

    /** @return the repetition without its ranks' results and intervals, its spread as computed from them */
    private static RepetitionResult rankless(RepetitionResult r) {
        return new RepetitionResult(r.index(), r.status(), r.failure(), r.measurements(), List.of(), r.rankSpread(), Map.of());
    }

    private static RunResult readRun(JsonNode d, List<RepetitionResult> read, boolean keepRanks) {
        Map<String, String> parameters = new java.util.LinkedHashMap<>();
        d.path("parameters").fields().forEachRemaining(e -> parameters.put(e.getKey(), e.getValue().asText()));
        RankSpread spread = RankSpread.ofRepetitions(read);
        List<RepetitionResult> repetitions = keepRanks ? read : read.stream().map(ResultJson::rankless).toList();
        JsonNode t = d.path("target");
        JsonNode h = d.path("host");
        return RunResult.builder()
                .runId(d.path("runId").asText())
                .benchmark(d.path("benchmark").asText())
                .parameters(parameters)
                .tasks(d.path("tasks").asInt())
                .launcher(d.path("launcher").asText())
                .warmups(d.path("warmups").asInt())
                .seed(d.path("seed").asLong())
                .timeout(java.time.Duration.ofNanos(d.path("timeoutNanos").asLong()))
                .stallThreshold(java.time.Duration.ofNanos(d.path("stallThresholdNanos").asLong()))
                .status(constant(dev.prism.Status.class, d, "status"))
                .failure(readFailure(d.path("failure")))
                .measurements(readMeasurements(d.path("measurements")))
                .repetitions(repetitions)
                .rankSpread(spread)
                .startedAt(java.time.Instant.parse(d.path("startedAt").asText()))
                .finishedAt(java.time.Instant.parse(d.path("finishedAt").asText()))
                .target(new TargetInfo(t.path("path").asText(), t.path("mountPoint").asText(), t.path("filesystemType").asText(), t.path("mountSource").asText(), t.path("mountOptions").asText(), t.path("superOptions").asText(), t.path("totalBytes").asLong(), t.path("freeBytes").asLong()))
                .host(new HostInfo(h.path("hostname").asText(), h.path("kernel").asText(), h.path("os").asText(), h.path("arch").asText(), h.path("cpus").asInt(), h.path("memoryBytes").asLong(), h.path("java").asText(), h.path("prismVersion").asText()))
                .provenance(readProvenance(d.path("provenance")))
                .conditions(readConditions(d.path("conditions")))
                .build();
    }

    private static dev.prism.Provenance readProvenance(JsonNode p) {
        if (p.isMissingNode() || p.isNull()) {
            return dev.prism.Provenance.UNKNOWN;
        }
        return new dev.prism.Provenance(p.path("prismVersion").asText("unknown"), p.path("commit").asText("unknown"),
                p.path("command").asText(""), textMap(p.path("labels")), textMap(p.path("programs")));
    }

    private static Map<String, String> textMap(JsonNode node) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }

    private static dev.prism.HostConditions readConditions(JsonNode c) {
        if (c.isMissingNode() || c.isNull()) {
            return dev.prism.HostConditions.UNKNOWN;
        }
        return new dev.prism.HostConditions(c.path("cpus").asInt(), number(c.path("loadStart")), number(c.path("loadEnd")),
                number(c.path("stealShare")), number(c.path("othersBusyShare")), number(c.path("memoryPressureStart")),
                number(c.path("memoryPressureEnd")), c.path("busiestOthers").asText(""));
    }

    /** @return the number, or NaN where the document has null (unknown) or nothing */
    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    private static void putNumber(ObjectNode node, String field, double value) {
        if (Double.isNaN(value)) {
            node.putNull(field);
        } else {
            node.put(field, round(value));
        }
    }

    private static Failure readFailure(JsonNode f) {
        return f.isMissingNode() || f.isNull() ? null
                : new Failure(constant(Failure.Kind.class, f, "failure.kind"), f.path("message").asText(), f.path("rank").asInt());
    }

    private static Map<String, Measurement> readMeasurements(JsonNode node) {
        Map<String, Measurement> measurements = new java.util.LinkedHashMap<>();
        node.fields().forEachRemaining(e -> {
            JsonNode m = e.getValue();
            measurements.put(e.getKey(), readMeasurement(e.getKey(), m));
        });
        return measurements;
    }

    /** @return per operation, its interval measurements (absent: none) */
    private static Map<String, List<Measurement>> readIntervals(JsonNode node) {
        Map<String, List<Measurement>> intervals = new java.util.LinkedHashMap<>();
        node.fields().forEachRemaining(e -> {
            List<Measurement> list = new java.util.ArrayList<>();
            for (JsonNode m : e.getValue()) {
                list.add(readMeasurement(e.getKey(), m));
            }
            intervals.put(e.getKey(), list);
        });
        return intervals;
    }

    private static Measurement readMeasurement(String op, JsonNode m) {
        return Measurement.decoder(op, m.path("histogram").asText()).count(m.path("count").asLong())
                .bytes(m.path("bytes").asLong()).meanNanos(m.path("meanNanos").asDouble())
                .stddevNanos(m.path("stddevNanos").asDouble()).minNanos(m.path("minNanos").asLong())
                .maxNanos(m.path("maxNanos").asLong()).elapsedNanos(m.path("elapsedNanos").asLong())
                .errors(m.path("errors").asLong()).decode();
    }

    static RankResult readRank(JsonNode node) {
        Map<String, Measurement> measurements = readMeasurements(node.path("measurements"));
        Map<String, Long> counters = new java.util.LinkedHashMap<>();
        node.path("counters").fields().forEachRemaining(e -> counters.put(e.getKey(), e.getValue().asLong()));
        List<Stall> stalls = new java.util.ArrayList<>();
        for (JsonNode s : node.path("stalls")) {
            stalls.add(new Stall(s.path("rank").asInt(), s.path("operation").asText(),
                    s.path("path").isNull() ? null : s.path("path").asText(),
                    java.time.Instant.parse(s.path("startedAt").asText()), s.path("durationNanos").asLong(),
                    s.path("finished").asBoolean()));
        }
        Failure failure = readFailure(node.path("failure"));
        Map<String, String> notes = new java.util.LinkedHashMap<>();
        node.path("notes").fields().forEachRemaining(e -> notes.put(e.getKey(), e.getValue().asText()));
        return new RankResult(node.path("rank").asInt(), node.path("hostname").asText(),
                constant(dev.prism.Status.class, node, "ranks[].status"), failure, node.path("phaseNanos").asLong(),
                measurements, counters, stalls, notes, readIntervals(node.path("intervals")));
    }

    static ObjectNode tree(RunResult run) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("runId", run.runId());
        root.put("benchmark", run.benchmark());
        ObjectNode parameters = root.putObject("parameters");
        run.parameters().forEach(parameters::put);
        root.put("tasks", run.tasks());
        root.put("launcher", run.launcher());
        root.put("warmups", run.warmups());
        root.put("seed", run.seed());
        root.put("timeoutNanos", run.timeout().toNanos());
        root.put("stallThresholdNanos", run.stallThreshold().toNanos());
        root.put("status", run.status().name());
        putFailure(root, run.failure());
        root.put("startedAt", run.startedAt().toString());
        root.put("finishedAt", run.finishedAt().toString());
        putTarget(root.putObject("target"), run.target());
        putHost(root.putObject("host"), run.host());
        putProvenance(root.putObject("provenance"), run.provenance());
        putConditions(root.putObject("conditions"), run.conditions());
        ObjectNode nodes = root.putObject("nodes");
        run.nodes().forEach((host, ranks) -> {
            com.fasterxml.jackson.databind.node.ArrayNode list = nodes.putArray(host);
            ranks.forEach(list::add);
        });
        putMeasurements(root.putObject("measurements"), run.measurements());
        putCounters(root.putObject("counters"), run.counters());
        ObjectNode notes = root.putObject("notes");
        run.notes().forEach(notes::put);
        ObjectNode across = root.putObject("acrossRepetitions");
        run.acrossRepetitions().forEach((op, st) -> across.putObject(op)
                .put("repetitions", st.repetitions())
                .put("meanNanos", round(st.meanNanos()))
                .put("ci95LowNanos", round(st.ci95LowNanos()))
                .put("ci95HighNanos", round(st.ci95HighNanos()))
                .put("meanOpsPerSecond", round(st.meanOpsPerSecond()))
                .put("ci95LowOpsPerSecond", round(st.ci95LowOpsPerSecond()))
                .put("ci95HighOpsPerSecond", round(st.ci95HighOpsPerSecond())));
        putSpread(root.putObject("rankSpread"), run.rankSpread());
        ArrayNode repetitions = root.putArray("repetitions");
        for (RepetitionResult rep : run.repetitions()) {
            ObjectNode r = repetitions.addObject();
            r.put("index", rep.index());
            r.put("status", rep.status().name());
            putFailure(r, rep.failure());
            putSpread(r.putObject("rankSpread"), rep.rankSpread());
            putCounters(r.putObject("counters"), rep.counters());
            ObjectNode rates = r.putObject("rates");
            rep.measurements().keySet().forEach(op -> rates.putObject(op)
                    .put("firstDoneOpsPerSecond", round(rep.firstDoneOpsPerSecond(op)))
                    .put("lastDoneOpsPerSecond", round(rep.lastDoneOpsPerSecond(op))));
            putMeasurements(r.putObject("measurements"), rep.measurements());
            putIntervals(r, rep.intervals());
            ArrayNode ranks = r.putArray("ranks");
            for (RankResult rank : rep.ranks()) {
                putRank(ranks.addObject(), rank);
            }
        }
        putStalls(root.putArray("stalls"), run.stalls());
        return root;
    }

    private static void putRank(ObjectNode node, RankResult rank) {
        node.put("rank", rank.rank());
        node.put("hostname", rank.hostname());
        node.put("status", rank.status().name());
        putFailure(node, rank.failure());
        node.put("phaseNanos", rank.phaseNanos());
        putMeasurements(node.putObject("measurements"), rank.measurements());
        putCounters(node.putObject("counters"), rank.counters());
        putStalls(node.putArray("stalls"), rank.stalls());
        ObjectNode notes = node.putObject("notes");
        rank.notes().forEach(notes::put);
        putIntervals(node, rank.intervals());
    }

    /** Writes {@code intervals} as {@code "intervals": {op: [measurement, …]}}, and nothing when there are none. */
    private static void putIntervals(ObjectNode node, Map<String, List<Measurement>> intervals) {
        if (intervals.isEmpty()) {
            return;
        }
        ObjectNode all = node.putObject("intervals");
        intervals.forEach((op, list) -> {
            ArrayNode array = all.putArray(op);
            list.forEach(m -> putMeasurement(array.addObject(), m));
        });
    }

    private static void putFailure(ObjectNode node, Failure failure) {
        if (failure == null) {
            node.putNull("failure");
            return;
        }
        ObjectNode f = node.putObject("failure");
        f.put("kind", failure.kind().name());
        f.put("message", failure.message());
        f.put("rank", failure.rank());
    }

    private static void putTarget(ObjectNode node, TargetInfo target) {
        node.put("path", target.path());
        node.put("mountPoint", target.mountPoint());
        node.put("filesystemType", target.filesystemType());
        node.put("mountSource", target.mountSource());
        node.put("mountOptions", target.mountOptions());
        node.put("superOptions", target.superOptions());
        node.put("totalBytes", target.totalBytes());
        node.put("freeBytes", target.freeBytes());
    }

    private static void putHost(ObjectNode node, HostInfo host) {
        node.put("hostname", host.hostname());
        node.put("kernel", host.kernel());
        node.put("os", host.os());
        node.put("arch", host.arch());
        node.put("cpus", host.cpus());
        node.put("memoryBytes", host.memoryBytes());
        node.put("java", host.java());
        node.put("prismVersion", host.prismVersion());
    }

    private static void putProvenance(ObjectNode node, dev.prism.Provenance provenance) {
        node.put("prismVersion", provenance.prismVersion());
        node.put("commit", provenance.commit());
        node.put("command", provenance.command());
        ObjectNode labels = node.putObject("labels");
        provenance.labels().forEach(labels::put);
        ObjectNode programs = node.putObject("programs");
        provenance.programs().forEach(programs::put);
    }

    private static void putConditions(ObjectNode node, dev.prism.HostConditions c) {
        node.put("cpus", c.cpus());
        putNumber(node, "loadStart", c.loadStart());
        putNumber(node, "loadEnd", c.loadEnd());
        putNumber(node, "stealShare", c.stealShare());
        putNumber(node, "othersBusyShare", c.othersBusyShare());
        putNumber(node, "memoryPressureStart", c.memoryPressureStart());
        putNumber(node, "memoryPressureEnd", c.memoryPressureEnd());
        node.put("busiestOthers", c.busiestOthers());
    }

    private static void putMeasurements(ObjectNode node, Map<String, Measurement> measurements) {
        measurements.forEach((op, m) -> putMeasurement(node.putObject(op), m));
    }

    /** @return one measurement as its JSON object (with its encoded histogram), as result documents hold it */
    public static ObjectNode measurementTree(Measurement m) {
        ObjectNode o = MAPPER.createObjectNode();
        putMeasurement(o, m);
        return o;
    }

    /** @return the measurement of {@code operation} in a {@link #measurementTree} object */
    public static Measurement measurementFrom(String operation, JsonNode node) {
        return readMeasurement(operation, node);
    }

    private static void putMeasurement(ObjectNode o, Measurement m) {
        o.put("count", m.count());
        o.put("errors", m.errors());
        o.put("bytes", m.bytes());
        o.put("minNanos", m.minNanos());
        o.put("meanNanos", round(m.meanNanos()));
        o.put("maxNanos", m.maxNanos());
        o.put("stddevNanos", round(m.stddevNanos()));
        o.put("p50Nanos", m.p50Nanos());
        o.put("p90Nanos", m.p90Nanos());
        o.put("p99Nanos", m.p99Nanos());
        o.put("p999Nanos", m.p999Nanos());
        o.put("ci95LowNanos", round(m.ci95LowNanos()));
        o.put("ci95HighNanos", round(m.ci95HighNanos()));
        o.put("opsPerSecond", round(m.opsPerSecond()));
        o.put("bytesPerSecond", round(m.bytesPerSecond()));
        o.put("elapsedNanos", m.elapsedNanos());
        o.put("histogram", m.encodedHistogram());
    }

    private static void putCounters(ObjectNode node, Map<String, Long> counters) {
        counters.forEach(node::put);
    }

    private static void putSpread(ObjectNode node, RankSpread spread) {
        node.put("ranks", spread.ranks());
        node.put("meanNanos", round(spread.meanNanos()));
        node.put("p99Nanos", spread.p99Nanos());
        node.put("minNanos", spread.minNanos());
        node.put("maxNanos", spread.maxNanos());
        node.put("fastestRank", spread.fastestRank());
        node.put("fastestRepetition", spread.fastestRepetition());
        node.put("slowestRank", spread.slowestRank());
        node.put("slowestRepetition", spread.slowestRepetition());
    }

    private static void putStalls(ArrayNode array, List<Stall> stalls) {
        for (Stall stall : stalls) {
            ObjectNode s = array.addObject();
            s.put("rank", stall.rank());
            s.put("operation", stall.operation());
            s.put("path", stall.path());
            s.put("startedAt", stall.startedAt().toString());
            s.put("durationNanos", stall.durationNanos());
            s.put("finished", stall.finished());
        }
    }

    /** Three decimals are finer than any clock PRISM reads and keep documents readable. */
    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
