package dev.prism.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Benchmark;
import dev.prism.DataSize;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.report.internal.QualificationFile;
import dev.prism.torch.ShardedCheckpoint;
import dev.prism.torch.TorchBenchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Will this filesystem hold up for the jobs a team is about to put on it? A requirements file describes the work in
 * the units a team thinks in — the job (nodes, GPUs per node), the model and its checkpoints (parameters, bytes per
 * parameter with optimizer state, interval, the stall a save may cost), the data (samples per second per GPU, bytes
 * and files per sample), the environment (repository files, the time an environment may take) and interactive
 * operations (stat, a directory listing, git status at a p99 the team accepts). Each requirement becomes the figure it
 * needs, as the sizing method teams qualify storage with derives it ("checkpoint 112.4 GB from 512 ranks within 30 s
 * ⇒ 4.68 GB/s aggregate, 9.15 MB/s per rank"), and the benchmark configuration that measures it; {@link #judge}
 * turns the results into a {@link Scorecard}.
 *
 * <p>Rates are measured per rank at the slowest rank (a checkpoint is done when its last rank is), latencies over all
 * ranks; a job of more ranks than ran is never hidden: the scorecard states the basis of any extrapolation.
 *
 * <pre>{@code
 * import dev.prism.report.Qualification;
 *
 * var q = Qualification.fromJson("""
 *     {"job": {"nodes": 64, "gpusPerNode": 8},
 *      "checkpoint": {"parameters": 8.03e9, "bytesPerParameter": 14, "stallSeconds": 30}}""");
 * q.requirements().forEach(r -> System.out.println(r.statement() + " ⇒ " + r.derivation()));
 * }</pre>
 */
public final class Qualification {
    /** The shipped profiles: a requirements file each, for a team to copy and edit. */
    public static final List<String> PROFILES = List.of("home", "project");

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.ALLOW_COMMENTS);

    private final String name;
    private final int jobRanks;
    private final List<Requirement> requirements;

    private Qualification(String name, int jobRanks, List<Requirement> requirements) {
        this.name = name;
        this.jobRanks = jobRanks;
        this.requirements = List.copyOf(requirements);
    }

    /** How a requirement's figure is read from its benchmark's results. */
    public enum Measure {
        /** bytes written per second by the slowest rank, over its timed phase (create, writes, fsync, close) */
        WRITE_BYTES_PER_RANK,
        /** bytes read per second by the slowest rank, over its timed phase */
        READ_BYTES_PER_RANK,
        /** files read per second by the slowest rank, over its timed phase */
        READ_FILES_PER_RANK,
        /** samples delivered per second by the slowest rank's DataLoader, over its epoch */
        SAMPLES_PER_RANK,
        /** the p99 of an operation's latency, over every rank */
        P99,
        /** the mean of an operation's latency (for operations a rank makes once or a few times) */
        MEAN,
        /**
         * the time of an operation at the slowest rank (its mean over the rank's occurrences in a repetition): a job's
         * checkpoint is done, and training resumes, when its last rank is
         */
        SLOWEST_RANK_TIME;

        /** @return whether higher is better */
        public boolean isRate() {
            return this == WRITE_BYTES_PER_RANK || this == READ_BYTES_PER_RANK || this == READ_FILES_PER_RANK
                    || this == SAMPLES_PER_RANK;
        }
    }

    /** How a checkpoint requirement is measured ({@code checkpoint.method} in a requirements file). */
    public enum CheckpointMethod {
        /**
         * The job's save: {@code fsdp_save} of the preset at the job's layout, the ranks run placed on its largest
         * shard, every piece in its job rank's file and the whole job's {@code .metadata} (needs torch).
         */
        DCP,
        /** One file per rank of the rank's share of the bytes, written with fsync ({@code create_files}). */
        FILE
    }

    /**
     * One requirement.
     *
     * @param id         a short name: {@code checkpoint}, {@code data_bytes}, {@code data_files}, {@code stat_p99},
     *                   {@code list_p99}, {@code git_status_p99}, {@code environment}
     * @param statement  the requirement in the team's units
     * @param derivation what it needs, derived
     * @param needed     the figure the measurement must reach: per second for a rate (per rank), nanoseconds for a
     *                   latency
     * @param measure    how the figure is read
     * @param benchmark  the benchmark configuration that measures it, made with the benchmark's typed builder
     * @param operation  the operation read (for latencies), or the operation whose bytes or files count (for rates)
     */
    public record Requirement(String id, String statement, String derivation, double needed, Measure measure,
                              Benchmark benchmark, String operation) {
        /** Checks that each component is there. */
        public Requirement {
            java.util.Objects.requireNonNull(id, "id");
            java.util.Objects.requireNonNull(benchmark, "benchmark");
            java.util.Objects.requireNonNull(measure, "measure");
            java.util.Objects.requireNonNull(operation, "operation");
        }

        /** @return {@code create_files files=1 file_size=1GiB …}: the configuration, as text */
        public String configuration() {
            return configuration(benchmark);
        }

        /**
         * @param tasks the ranks that run it
         * @return the benchmark as it runs at {@code tasks} ranks: a preset checkpoint's ranks placed to include the
         *         job's largest shard ({@link ShardedCheckpoint#placedOnLargestShard}), anything else as it is
         */
        public Benchmark benchmarkAt(int tasks) {
            return benchmark instanceof ShardedCheckpoint<?> c && c.parameters().get(TorchBenchmark.MODEL).isPreset()
                    ? c.placedOnLargestShard(tasks) : benchmark;
        }

        /** @return {@link #configuration()} as it runs at {@code tasks} ranks ({@link #benchmarkAt}) */
        public String configuration(int tasks) {
            return configuration(benchmarkAt(tasks));
        }

        private static String configuration(Benchmark b) {
            return b.name() + " " + dev.prism.spi.Formats.parameters(b.parameters().changedFromDefaults());
        }
    }

    /**
     * @param json a requirements file's text (JSON; {@code //} and {@code /* *}{@code /} comments allowed)
     * @throws IllegalArgumentException naming the field that is wrong and what it accepts
     */
    public static Qualification fromJson(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the requirements are not JSON: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
        QualificationFile file = QualificationFile.read(root);
        return new Qualification(file.name(), file.jobRanks(), file.requirements());
    }

    /** Reads a requirements file. */
    public static Qualification fromJson(Path file) throws IOException {
        String text = dev.prism.spi.InputFiles.readText(file, dev.prism.spi.InputFiles.MAX_SETTINGS_BYTES, "requirements file");
        try {
            return fromJson(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return a builder of requirements in Java, section by section as a requirements file has them (the same fields,
     *         the same derivation and checks): a job of {@code ranks} or {@code nodes × gpusPerNode}, then at least one of
     *         checkpoint, data, environment, interactive
     *
     * <pre>{@code
     * import dev.prism.DataSize;
     * import dev.prism.report.Qualification;
     * import java.time.Duration;
     *
     * var q = Qualification.builder().name("cluster-a").job(64, 8)
     *         .checkpoint("llama3-8b", Duration.ofSeconds(30))
     *         .data(2_000, DataSize.ofKiB(150), 1)
     *         .statP99(Duration.ofMillis(5))
     *         .build();
     * q.requirements().forEach(r -> System.out.println(r.id() + ": " + r.derivation()));
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds a {@link Qualification} as a requirements file describes one: each setter is one of the file's fields
     * (named in its Javadoc), checked at once for what it alone can be; {@link #build()} derives the requirements with the
     * file's own arithmetic and checks, naming the field.
     */
    public static final class Builder {
        private final com.fasterxml.jackson.databind.node.ObjectNode root = JSON.createObjectNode();

        private Builder() {
        }

        private com.fasterxml.jackson.databind.node.ObjectNode section(String name) {
            return root.has(name) ? (com.fasterxml.jackson.databind.node.ObjectNode) root.get(name) : root.putObject(name);
        }

        private static double positive(String field, double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(field + " must be a positive number, was " + value);
            }
            return value;
        }

        private static Duration positive(String field, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(field + " must be a positive duration, was " + value);
            }
            return value;
        }

        private static DataSize positive(String field, DataSize value) {
            if (value == null || value.bytes() <= 0) {
                throw new IllegalArgumentException(field + " must be a positive size, was " + value);
            }
            return value;
        }

        /** @param name the requirements' name ({@code name}) */
        public Builder name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must be non-blank, was " + (name == null ? "null" : "'" + name + "'"));
            }
            root.put("name", name);
            return this;
        }

        /** @param ranks the job's ranks ({@code job.ranks}), 1..1000000 */
        public Builder ranks(int ranks) {
            section("job").removeAll().put("ranks", (int) positive("job.ranks", ranks));
            return this;
        }

        /** @param nodes the job's nodes ({@code job.nodes}) @param gpusPerNode GPUs on each ({@code job.gpusPerNode}) */
        public Builder job(int nodes, int gpusPerNode) {
            section("job").removeAll().put("nodes", (int) positive("job.nodes", nodes))
                    .put("gpusPerNode", (int) positive("job.gpusPerNode", gpusPerNode));
            return this;
        }

        /** @param factor how much more than the job's need to ask for ({@code headroom}), 1..100 */
        public Builder headroom(double factor) {
            root.put("headroom", positive("headroom", factor));
            return this;
        }

        /**
         * @param model a preset ({@code checkpoint.model}: llama3-8b, llama3-70b, llama3-405b)
         * @param stall the stall a save may cost the job ({@code checkpoint.stallSeconds})
         */
        public Builder checkpoint(String model, Duration stall) {
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("checkpoint.model must name a preset, was " + model);
            }
            com.fasterxml.jackson.databind.node.ObjectNode c = section("checkpoint");
            c.remove("parameters");
            c.put("model", model).put("stallSeconds", positive("checkpoint.stallSeconds", stall).toNanos() / 1e9);
            return this;
        }

        /**
         * @param parameters        the model's parameters ({@code checkpoint.parameters})
         * @param bytesPerParameter with optimizer state ({@code checkpoint.bytesPerParameter}; 14 for Adam in mixed precision)
         * @param stall             the stall a save may cost the job ({@code checkpoint.stallSeconds})
         */
        public Builder checkpoint(double parameters, double bytesPerParameter, Duration stall) {
            com.fasterxml.jackson.databind.node.ObjectNode c = section("checkpoint");
            c.remove("model");
            c.put("parameters", positive("checkpoint.parameters", parameters))
                    .put("bytesPerParameter", positive("checkpoint.bytesPerParameter", bytesPerParameter))
                    .put("stallSeconds", positive("checkpoint.stallSeconds", stall).toNanos() / 1e9);
            return this;
        }

        /** @param interval how often the job checkpoints ({@code checkpoint.intervalMinutes}) */
        public Builder checkpointEvery(Duration interval) {
            section("checkpoint").put("intervalMinutes", positive("checkpoint.intervalMinutes", interval).toNanos() / 60e9);
            return this;
        }

        /** @param writers the ranks that write the checkpoint ({@code checkpoint.writers}; default every rank) */
        public Builder checkpointWriters(int writers) {
            section("checkpoint").put("writers", (int) positive("checkpoint.writers", writers));
            return this;
        }

        /**
         * @param method how the checkpoint is measured ({@code checkpoint.method}): the job's own save of a preset
         *               (the default with a model) or one file per rank with fsync (the default with parameters)
         */
        public Builder checkpointMethod(CheckpointMethod method) {
            section("checkpoint").put("method", Objects.requireNonNull(method, "method").name().toLowerCase(Locale.ROOT));
            return this;
        }

        /**
         * @param tp the job's tensor-parallel degree ({@code checkpoint.tp}, 1..1024)
         * @param pp its pipeline stages ({@code checkpoint.pp}, 1..1024); data parallelism takes the rest of its ranks
         */
        public Builder checkpointLayout(int tp, int pp) {
            section("checkpoint").put("tp", (int) positive("checkpoint.tp", tp)).put("pp", (int) positive("checkpoint.pp", pp));
            return this;
        }

        /**
         * @param async whether the job saves with {@code async_save} ({@code checkpoint.async}): the stall is then the
         *              time training is blocked, and with an interval each save must be durable before the next
         */
        public Builder checkpointAsync(boolean async) {
            section("checkpoint").put("async", async);
            return this;
        }

        /**
         * @param samplesPerSecondPerGpu what each GPU consumes ({@code data.samplesPerSecondPerGpu})
         * @param bytesPerSample         a sample's bytes ({@code data.bytesPerSample})
         * @param filesPerSample         the files a sample is read from ({@code data.filesPerSample})
         */
        public Builder data(double samplesPerSecondPerGpu, DataSize bytesPerSample, int filesPerSample) {
            section("data").put("samplesPerSecondPerGpu", positive("data.samplesPerSecondPerGpu", samplesPerSecondPerGpu))
                    .put("bytesPerSample", positive("data.bytesPerSample", bytesPerSample).bytes())
                    .put("filesPerSample", (int) positive("data.filesPerSample", filesPerSample));
            return this;
        }

        /**
         * @param format   the format the job trains from ({@code data.format}): with one other than files the data
         *                 requirement is measured by {@code dataloader} reading that format, samples of
         *                 {@code bytesPerSample}, and judged in samples per second per GPU
         * @param rowGroup parquet's row group ({@code data.rowGroup}); null: the dataloader's default
         */
        public Builder dataFormat(dev.prism.torch.TorchDataFormat format, DataSize rowGroup) {
            com.fasterxml.jackson.databind.node.ObjectNode d = section("data");
            d.put("format", Objects.requireNonNull(format, "format").text());
            if (rowGroup != null) {
                d.put("rowGroup", positive("data.rowGroup", rowGroup).bytes());
            }
            return this;
        }

        /**
         * @param packages the packages a Python environment installs ({@code environment.packages})
         * @param within   the time it may take ({@code environment.environmentSeconds})
         */
        public Builder environment(int packages, Duration within) {
            section("environment").put("packages", (int) positive("environment.packages", packages))
                    .put("environmentSeconds", positive("environment.environmentSeconds", within).toNanos() / 1e9);
            return this;
        }

        /** @param files the files of the team's repositories ({@code environment.repositoryFiles}), for git status */
        public Builder repositoryFiles(int files) {
            section("environment").put("repositoryFiles", (int) positive("environment.repositoryFiles", files));
            return this;
        }

        /** @param p99 a file's stat at the 99th percentile ({@code interactive.statP99}) */
        public Builder statP99(Duration p99) {
            section("interactive").put("statP99", dev.prism.spi.Formats.exactDuration(positive("interactive.statP99", p99)));
            return this;
        }

        /** @param p99 listing a directory ({@code interactive.listP99}) @param files its files ({@code interactive.listDirectoryFiles}) */
        public Builder listP99(Duration p99, int files) {
            section("interactive").put("listP99", dev.prism.spi.Formats.exactDuration(positive("interactive.listP99", p99)))
                    .put("listDirectoryFiles", (int) positive("interactive.listDirectoryFiles", files));
            return this;
        }

        /** @param p99 git status of a working tree ({@code interactive.gitStatusP99}) */
        public Builder gitStatusP99(Duration p99) {
            section("interactive").put("gitStatusP99", dev.prism.spi.Formats.exactDuration(positive("interactive.gitStatusP99", p99)));
            return this;
        }

        /**
         * @return the requirements, derived as from a file holding these fields
         * @throws IllegalArgumentException naming the field that is wrong (out of its range, a job missing, nothing to
         *                                  measure)
         */
        public Qualification build() {
            QualificationFile file = QualificationFile.read(root.deepCopy());
            return new Qualification(file.name(), file.jobRanks(), file.requirements());
        }

        /** @return the requirements file these settings make, as JSON: what {@link #fromJson(String)} reads back */
        public String toJson() {
            try {
                return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** @return the text of a shipped profile ({@link #PROFILES}), to copy and edit */
    public static String profileText(String profile) {
        if (!PROFILES.contains(profile)) {
            throw new IllegalArgumentException("profile must be one of " + String.join(", ", PROFILES) + ", was '" + profile + "'");
        }
        try (InputStream in = Qualification.class.getResourceAsStream("profiles/" + profile + ".json")) {
            return new String(Objects.requireNonNull(in, "profile resource").readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return a shipped profile */
    public static Qualification profile(String profile) {
        return fromJson(profileText(profile));
    }

    /** @return the requirements' name */
    public String name() {
        return name;
    }

    /** @return the ranks of the job the requirements describe */
    public int jobRanks() {
        return jobRanks;
    }

    /** @return every requirement, in the file's order */
    public List<Requirement> requirements() {
        return requirements;
    }

    /** @return the benchmark configurations that measure the requirements, each once, in order */
    public List<Benchmark> benchmarks() {
        Map<String, Benchmark> distinct = new LinkedHashMap<>();
        requirements.forEach(r -> distinct.computeIfAbsent(r.configuration(), k -> r.benchmark()));
        return List.copyOf(distinct.values());
    }

    /**
     * @param tasks the ranks that run them
     * @return {@link #benchmarks()} as they run at {@code tasks} ranks ({@link Requirement#benchmarkAt}), each once
     */
    public List<Benchmark> benchmarks(int tasks) {
        Map<String, Benchmark> distinct = new LinkedHashMap<>();
        requirements.forEach(r -> distinct.computeIfAbsent(r.configuration(tasks), k -> r.benchmarkAt(tasks)));
        return List.copyOf(distinct.values());
    }

    /**
     * @return a scenario of {@link #benchmarks(int)} on {@code target} at {@code tasks} ranks, {@code repetitions} each after
     *         a warm-up; set a launcher, labels or an output on it before it is built
     */
    public Scenario.Builder scenario(Path target, int tasks, int repetitions) {
        return Scenario.builder().target(target).benchmarks(benchmarks(tasks)).tasks(tasks).repetitions(repetitions).warmups(1);
    }

    /** @return what would run, and what each requirement needs, as lines */
    public String plan(int tasks) {
        StringBuilder out = new StringBuilder("qualification " + name + ": a job of " + jobRanks + " rank(s), measured at "
                + tasks + " task(s)\n");
        for (Requirement r : requirements) {
            out.append(String.format(Locale.ROOT, "  %-15s %s%n  %-15s ⇒ %s%n  %-15s measured by %s%n", r.id(), r.statement(),
                    "", r.derivation(), "", r.configuration(tasks)));
        }
        return out.toString();
    }

    /**
     * @param runs  the results of the scenario {@link #scenario} built (in its order), or of any earlier run holding
     *              the same configurations
     * @param tasks the task count whose results to judge
     * @return the scorecard: per requirement, needed, measured with its interval, margin, verdict and evidence
     */
    public Scorecard judge(List<RunResult> runs, int tasks) {
        List<Scorecard.Row> rows = new ArrayList<>();
        for (Requirement r : requirements) {
            rows.add(Scorecard.judge(r, runs, tasks, jobRanks));
        }
        return new Scorecard(name, jobRanks, tasks, rows);
    }
}
