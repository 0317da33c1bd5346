package dev.prism.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.report.internal.QualificationFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
        /** the p99 of an operation's latency, over every rank */
        P99,
        /** the mean of an operation's latency (for operations a rank makes once or a few times) */
        MEAN;

        /** @return whether higher is better */
        public boolean isRate() {
            return this == WRITE_BYTES_PER_RANK || this == READ_BYTES_PER_RANK || this == READ_FILES_PER_RANK;
        }
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
     * @param benchmark  the benchmark that measures it
     * @param parameters its parameters
     * @param operation  the operation read (for latencies), or the operation whose bytes or files count (for rates)
     */
    public record Requirement(String id, String statement, String derivation, double needed, Measure measure,
                              String benchmark, Map<String, String> parameters, String operation) {
        /** Copies. */
        public Requirement {
            parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        }

        /** @return the benchmark configuration, from the registry of every provider on the class path */
        public Benchmark create() {
            return Benchmarks.create(benchmark, parameters);
        }

        /** @return {@code create_files files=1 file_size=…}: the configuration, as text */
        public String configuration() {
            return benchmark + " " + dev.prism.spi.Formats.parameters(parameters);
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
        requirements.forEach(r -> distinct.computeIfAbsent(r.configuration(), k -> r.create()));
        return List.copyOf(distinct.values());
    }

    /**
     * @return a scenario of {@link #benchmarks()} on {@code target} at {@code tasks} ranks, {@code repetitions} each after
     *         a warm-up; set a launcher, labels or an output on it before it is built
     */
    public Scenario.Builder scenario(Path target, int tasks, int repetitions) {
        return Scenario.builder().target(target).benchmarks(benchmarks()).tasks(tasks).repetitions(repetitions).warmups(1);
    }

    /** @return what would run, and what each requirement needs, as lines */
    public String plan(int tasks) {
        StringBuilder out = new StringBuilder("qualification " + name + ": a job of " + jobRanks + " rank(s), measured at "
                + tasks + " task(s)\n");
        for (Requirement r : requirements) {
            out.append(String.format(Locale.ROOT, "  %-15s %s%n  %-15s ⇒ %s%n  %-15s measured by %s%n", r.id(), r.statement(),
                    "", r.derivation(), "", r.configuration()));
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
