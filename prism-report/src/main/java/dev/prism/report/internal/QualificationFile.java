package dev.prism.report.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.Benchmark;
import dev.prism.DataSize;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmarks;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.FileOrder;
import dev.prism.posix.workflows.DevWorkflows;
import dev.prism.report.Qualification.Measure;
import dev.prism.report.Qualification.Requirement;
import dev.prism.torch.FsdpSave;
import dev.prism.torch.ParallelLayout;
import dev.prism.torch.TorchBenchmarks;
import dev.prism.torch.TorchDataFormat;
import dev.prism.torch.TorchModel;
import dev.prism.torch.TorchOptimizer;
import dev.prism.torch.TorchPrecision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a requirements file and derives each requirement's figure, the sizing method's arithmetic: a checkpoint's
 * bytes over the stall it may cost, shared by the ranks that write it; samples per second per GPU times the bytes and
 * files per sample; the interactive p99s as given. Every field is checked, naming it, its value and what is accepted.
 *
 * @param name         the requirements' name
 * @param jobRanks     the job's ranks
 * @param requirements the requirements derived
 */
public record QualificationFile(String name, int jobRanks, List<Requirement> requirements) {
    /** The model presets a checkpoint requirement names, prism-torch's: a requirement's parameters are the model's. */
    static final Map<String, TorchModel> PRESETS = java.util.Arrays.stream(TorchModel.values()).filter(TorchModel::isPreset)
            .collect(java.util.stream.Collectors.toMap(TorchModel::label, m -> m));
    private static final Set<String> SECTIONS = Set.of("name", "job", "headroom", "checkpoint", "data", "environment",
            "interactive");

    /** Copies. */
    public QualificationFile {
        requirements = List.copyOf(requirements);
    }

    /** @return the file's requirements, derived; throws IllegalArgumentException naming the field that is wrong */
    public static QualificationFile read(JsonNode root) {
        if (!root.isObject()) {
            throw new IllegalArgumentException("the requirements must be a JSON object with sections "
                    + String.join(", ", new java.util.TreeSet<>(SECTIONS)));
        }
        root.fieldNames().forEachRemaining(f -> {
            if (!SECTIONS.contains(f)) {
                throw new IllegalArgumentException("unknown section '" + f + "'; sections: "
                        + String.join(", ", new java.util.TreeSet<>(SECTIONS)));
            }
        });
        String name = root.path("name").asText("requirements");
        JsonNode job = root.path("job");
        known(job, "job", "ranks", "nodes", "gpusPerNode");
        int ranks;
        if (job.has("ranks")) {
            ranks = (int) integer(job, "job.ranks", 1, 1_000_000);
        } else {
            ranks = (int) (integer(job, "job.nodes", 1, 100_000) * integer(job, "job.gpusPerNode", 1, 64));
        }
        double headroom = root.has("headroom") ? number(root, "headroom", 1, 100) : 1.0;
        String room = headroom == 1 ? "" : String.format(Locale.ROOT, " (× %s headroom)", trim(headroom));
        List<Requirement> requirements = new ArrayList<>();
        if (root.has("checkpoint")) {
            requirements.addAll(checkpoint(root.path("checkpoint"), ranks, headroom, room));
        }
        if (root.has("data")) {
            requirements.addAll(data(root.path("data"), ranks, headroom, room));
        }
        if (root.has("environment")) {
            requirements.addAll(environment(root.path("environment")));
        }
        if (root.has("interactive")) {
            requirements.addAll(interactive(root.path("interactive"), root.path("environment")));
        }
        if (requirements.isEmpty()) {
            throw new IllegalArgumentException("the requirements name nothing to measure: give at least one of checkpoint,"
                    + " data, environment, interactive");
        }
        return new QualificationFile(name, ranks, requirements);
    }

    private static List<Requirement> checkpoint(JsonNode c, int ranks, double headroom, String room) {
        known(c, "checkpoint", "model", "parameters", "bytesPerParameter", "stallSeconds", "intervalMinutes", "writers",
                "writeSize", "measureBytesPerRank", "method", "tp", "pp", "async");
        double parameters;
        String what;
        TorchModel preset = null;
        if (c.has("model")) {
            String model = c.path("model").asText();
            preset = PRESETS.get(model);
            if (preset == null) {
                throw new IllegalArgumentException("checkpoint.model must be one of " + String.join(", ",
                        new java.util.TreeSet<>(PRESETS.keySet())) + " (or give checkpoint.parameters), was '" + model + "'");
            }
            parameters = preset.parameterCount();
            what = model + " (" + count(parameters) + " parameters";
        } else {
            parameters = number(c, "checkpoint.parameters", 1, 1e15);
            what = "a model (" + count(parameters) + " parameters";
        }
        String method = c.has("method") ? c.path("method").asText() : preset != null ? "dcp" : "file";
        if (!method.equals("dcp") && !method.equals("file")) {
            throw new IllegalArgumentException("checkpoint.method must be dcp (the job's save, fsdp_save at its layout) or"
                    + " file (one file per rank with fsync), was " + c.path("method"));
        }
        double perParameter = c.has("bytesPerParameter") ? number(c, "checkpoint.bytesPerParameter", 0.5, 64) : 14;
        double bytes = parameters * perParameter;
        double stall = number(c, "checkpoint.stallSeconds", 0.001, 86_400);
        double minutes = c.has("intervalMinutes") ? number(c, "checkpoint.intervalMinutes", 0.1, 100_000) : 0;
        String interval = "";
        String share = "";
        if (minutes > 0) {
            interval = String.format(Locale.ROOT, ", every %s min", trim(minutes));
            share = String.format(Locale.ROOT, "; the stall is %.1f%% of training time", 100 * stall / (minutes * 60));
        }
        if (method.equals("dcp")) {
            String statement = String.format(Locale.ROOT, "checkpoint %s × %s B = %s) from %d rank(s) within %s s%s",
                    what, trim(perParameter), decimal(bytes), ranks, trim(stall), interval);
            return jobSave(c, preset, perParameter, ranks, headroom, stall, minutes, statement, share);
        }
        room += share;
        for (String dcpOnly : List.of("tp", "pp", "async")) {
            if (c.has(dcpOnly)) {
                throw new IllegalArgumentException("checkpoint." + dcpOnly + " applies to \"method\": \"dcp\" (the job's"
                        + " save of a preset model); this checkpoint is measured as files");
            }
        }
        int writers = c.has("writers") ? (int) integer(c, "checkpoint.writers", 1, ranks) : ranks;
        double aggregate = bytes * headroom / stall;
        double perRank = aggregate / writers;
        long shard = (long) Math.ceil(bytes / writers);
        long measured = Math.min(shard, size(c, "checkpoint.measureBytesPerRank", "1GiB"));
        long block = Math.min(measured, size(c, "checkpoint.writeSize", "16MiB"));
        Benchmark save = PosixBenchmarks.createFiles().files(1).fileSize(DataSize.ofBytes(measured))
                .blockSize(DataSize.ofBytes(Math.max(1, block))).fsync(true);
        String statement = String.format(Locale.ROOT, "checkpoint %s × %s B = %s) from %d rank(s) within %s s%s", what,
                trim(perParameter), decimal(bytes), writers, trim(stall), interval);
        String derivation = String.format(Locale.ROOT, "%s/s aggregate, %s/s per rank%s; each rank writes its %s shard%s"
                        + " as one file with fsync", decimal(aggregate), decimal(perRank), room,
                decimal(shard), measured < shard ? " (measured on its first " + decimal(measured) + ")" : "");
        return List.of(new Requirement("checkpoint", statement, derivation, perRank, Measure.WRITE_BYTES_PER_RANK, save,
                "write"));
    }

    /**
     * A checkpoint measured as the job saves it: fsdp_save of the preset at the job's layout (dp = the job's ranks ÷
     * (tp × pp)), every tensor's piece in its job rank's file and the whole job's .metadata, the ranks run placed on
     * the largest shard; the slowest rank's save (or, saving asynchronously, the time training was blocked) within
     * the stall, and an asynchronous save durable before the next one starts.
     */
    private static List<Requirement> jobSave(JsonNode c, TorchModel model, double perParameter, int ranks, double headroom,
                                             double stall, double minutes, String statement, String share) {
        if (model == null) {
            throw new IllegalArgumentException("checkpoint.method dcp saves a preset model at the job's layout: give"
                    + " checkpoint.model (" + String.join(", ", new java.util.TreeSet<>(PRESETS.keySet())) + "), or"
                    + " \"method\": \"file\" for a model of checkpoint.parameters");
        }
        for (String fileOnly : List.of("writers", "writeSize", "measureBytesPerRank")) {
            if (c.has(fileOnly)) {
                throw new IllegalArgumentException("checkpoint." + fileOnly + " applies to \"method\": \"file\"; the job's"
                        + " save (\"method\": \"dcp\") writes every rank's shard whole, as training does");
            }
        }
        TorchPrecision precision = null;
        for (TorchPrecision p : TorchPrecision.values()) {
            precision = p.bytesPerParameter(TorchOptimizer.ADAM) == perParameter ? p : precision;
        }
        if (precision == null) {
            throw new IllegalArgumentException("checkpoint.bytesPerParameter must be 10 (bf16 weights and Adam), 12 (fp32)"
                    + " or 14 (mixed precision) for the job's save, was " + trim(perParameter) + "; \"method\": \"file\""
                    + " writes any size");
        }
        int tp = c.has("tp") ? (int) integer(c, "checkpoint.tp", 1, 1024) : 1;
        int pp = c.has("pp") ? (int) integer(c, "checkpoint.pp", 1, 1024) : 1;
        if (ranks % (tp * pp) != 0) {
            throw new IllegalArgumentException("the job's " + ranks + " ranks are not a multiple of checkpoint.tp ×"
                    + " checkpoint.pp = " + tp * pp);
        }
        ParallelLayout layout = ParallelLayout.of(tp, pp, ranks / (tp * pp));
        String why = layout.unsplittable(model);
        if (why != null) {
            throw new IllegalArgumentException("checkpoint.tp and checkpoint.pp: " + why);
        }
        boolean async = c.has("async") && bool(c, "checkpoint.async");
        long largest = layout.largestShardRank(model, true, precision, TorchOptimizer.ADAM);
        long shardBytes = layout.shard(model, largest, true).bytes(precision, TorchOptimizer.ADAM);
        FsdpSave save = TorchBenchmarks.fsdpSave().model(model).layout(tp, pp, layout.dp()).precision(precision)
                .optimizer(TorchOptimizer.ADAM).asyncSave(async);
        double within = stall / headroom;
        String how = String.format(Locale.ROOT, "the job's save at %s: its largest shard %s (job rank %d) written by"
                + " torch.distributed.checkpoint%s, with the whole job's .metadata", layout, decimal(shardBytes), largest,
                async ? ".async_save" : ".save");
        String limit = headroom == 1 ? trim(stall) + " s" : String.format(Locale.ROOT, "%s s (%s s ÷ %s headroom)",
                trim(within), trim(stall), trim(headroom));
        List<Requirement> out = new ArrayList<>();
        out.add(new Requirement("checkpoint", statement, String.format(Locale.ROOT, "%s at the slowest rank within %s%s;"
                        + " %s", async ? "training blocked" : "the save", limit, share, how),
                within * 1e9, Measure.SLOWEST_RANK_TIME, save, async ? "blocked" : "save"));
        if (async && minutes > 0) {
            double next = minutes * 60 / headroom;
            out.add(new Requirement("checkpoint_durable", statement, String.format(Locale.ROOT, "each asynchronous save"
                            + " durable at the slowest rank before the next begins, within %s s (every %s min%s); %s",
                    trim(next), trim(minutes), headroom == 1 ? "" : " ÷ " + trim(headroom) + " headroom", how),
                    next * 1e9, Measure.SLOWEST_RANK_TIME, save, "durable"));
        }
        return out;
    }

    private static List<Requirement> data(JsonNode d, int ranks, double headroom, String room) {
        known(d, "data", "samplesPerSecondPerGpu", "bytesPerSample", "filesPerSample", "measureFiles", "format", "rowGroup",
                "shardSize", "measureSamples");
        double samples = number(d, "data.samplesPerSecondPerGpu", 0.001, 1e7);
        long perSample = size(d, "data.bytesPerSample", null);
        TorchDataFormat format = TorchDataFormat.FILES;
        if (d.has("format")) {
            String given = d.path("format").asText();
            format = java.util.Arrays.stream(TorchDataFormat.values()).filter(f -> f.text().equals(given))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("data.format must be one of "
                            + String.join(", ", java.util.Arrays.stream(TorchDataFormat.values())
                            .map(TorchDataFormat::text).toList()) + ", was " + d.path("format")));
        }
        if (format != TorchDataFormat.FILES) {
            return formatData(d, format, samples, perSample, ranks, headroom, room);
        }
        for (String field : new String[]{"rowGroup", "shardSize", "measureSamples"}) {
            if (d.has(field)) {
                throw new IllegalArgumentException("data." + field + " applies to a data.format other than files");
            }
        }
        long files = d.has("filesPerSample") ? integer(d, "data.filesPerSample", 1, 100_000) : 1;
        long fileSize = Math.max(1, perSample / files);
        long measureFiles = d.has("measureFiles") ? integer(d, "data.measureFiles", 8, 1_000_000) : 512;
        double bytesPerGpu = samples * perSample * headroom;
        double filesPerGpu = samples * files * headroom;
        Benchmark read = PosixBenchmarks.md5Check().generate(DatasetSpec.builder().sizeClasses(DataSize.ofBytes(fileSize))
                        .filesPerClass((int) measureFiles).totalSize(DataSize.ofBytes(fileSize * measureFiles)).build())
                .cache(PageCache.DROP).order(FileOrder.RANDOM).chunkSize(DataSize.ofBytes(Math.max(512, Math.min(fileSize, 1L << 20))));
        String statement = String.format(Locale.ROOT, "data loading: %s samples/s per GPU × %s (%d file(s) of %s each), %d GPU(s)",
                trim(samples), asGiven(perSample), files, asGiven(fileSize), ranks);
        String how = String.format(Locale.ROOT, "; %d files of %s read with the page cache dropped, in random order, and"
                + " MD5'd, shared by the ranks", measureFiles, asGiven(fileSize));
        return List.of(
                new Requirement("data_bytes", statement, String.format(Locale.ROOT, "%s/s per GPU, %s/s aggregate%s%s",
                        decimal(bytesPerGpu), decimal(bytesPerGpu * ranks), room, how),
                        bytesPerGpu, Measure.READ_BYTES_PER_RANK, read, "file"),
                new Requirement("data_files", statement, String.format(Locale.ROOT, "%s files/s per GPU, %s files/s aggregate%s%s",
                        trim(filesPerGpu), trim(filesPerGpu * ranks), room, how),
                        filesPerGpu, Measure.READ_FILES_PER_RANK, read, "file"));
    }

    /**
     * A job that trains from a format: the GPUs' demand in samples and bytes per second, measured by the dataloader
     * reading that format with the page cache dropped, samples of the job's size, shared by the ranks run.
     */
    private static List<Requirement> formatData(JsonNode d, TorchDataFormat format, double samples, long perSample,
                                                int ranks, double headroom, String room) {
        if ((d.has("filesPerSample") && d.path("filesPerSample").asLong() != 1) || d.has("measureFiles")) {
            throw new IllegalArgumentException("data.filesPerSample and data.measureFiles apply to data.format files; a "
                    + format.text() + " sample is one record of its format");
        }
        long measureSamples = d.has("measureSamples") ? integer(d, "data.measureSamples", 64, 100_000_000) : 4096;
        dev.prism.torch.Dataloader read = TorchBenchmarks.dataloader().format(format).samples((int) measureSamples)
                .sampleSize(DataSize.ofBytes(Math.max(16, perSample))).dropCache(true);
        if (d.has("rowGroup")) {
            if (format != TorchDataFormat.PARQUET) {
                throw new IllegalArgumentException("data.rowGroup applies to data.format parquet, was "
                        + format.text());
            }
            read = read.rowGroup(DataSize.ofBytes(size(d, "data.rowGroup", null)));
        }
        if (d.has("shardSize")) {
            read = read.shardSize(DataSize.ofBytes(size(d, "data.shardSize", null)));
        }
        double samplesPerGpu = samples * headroom;
        double bytesPerGpu = samples * perSample * headroom;
        String name = format.text();
        String statement = String.format(Locale.ROOT, "data loading from %s: %s samples/s per GPU × %s, %d GPU(s)", name,
                trim(samples), asGiven(perSample), ranks);
        String how = String.format(Locale.ROOT, "; %d samples of %s in %s read by a DataLoader (2 workers per rank) with"
                + " the page cache dropped, shared by the ranks, every sample checked", measureSamples, asGiven(perSample), name);
        return List.of(
                new Requirement("data_samples", statement, String.format(Locale.ROOT, "%s samples/s per GPU, %s samples/s"
                        + " aggregate%s%s", trim(samplesPerGpu), trim(samplesPerGpu * ranks), room, how),
                        samplesPerGpu, Measure.SAMPLES_PER_RANK, read, "sample"),
                new Requirement("data_bytes", statement, String.format(Locale.ROOT, "%s/s per GPU, %s/s aggregate%s%s",
                        decimal(bytesPerGpu), decimal(bytesPerGpu * ranks), room, how),
                        bytesPerGpu, Measure.READ_BYTES_PER_RANK, read, "sample"));
    }

    private static List<Requirement> environment(JsonNode e) {
        known(e, "environment", "repositoryFiles", "environmentSeconds", "packages");
        if (!e.has("environmentSeconds")) {
            return List.of();
        }
        double seconds = number(e, "environment.environmentSeconds", 0.001, 86_400);
        long packages = e.has("packages") ? integer(e, "environment.packages", 1, 10_000) : 10;
        return List.of(new Requirement("environment", String.format(Locale.ROOT,
                "a Python environment with %d package(s) created within %s s", packages, trim(seconds)),
                "the mean of creating it and installing them, offline (uv, else venv + pip)", seconds * 1e9,
                Measure.MEAN, DevWorkflows.envCreate().with(DevWorkflows.PACKAGES, (int) packages), "create+install"));
    }

    private static List<Requirement> interactive(JsonNode i, JsonNode environment) {
        known(i, "interactive", "statP99", "listP99", "listDirectoryFiles", "gitStatusP99");
        List<Requirement> list = new ArrayList<>();
        long files = i.has("listDirectoryFiles") ? integer(i, "interactive.listDirectoryFiles", 1, 10_000_000) : 10_000;
        Benchmark listing = PosixBenchmarks.listFiles().files((int) files);
        if (i.has("statP99")) {
            Duration d = duration(i, "interactive.statP99");
            list.add(new Requirement("stat_p99", "stat of a file, p99 within " + dev.prism.spi.Formats.exactDuration(d),
                    "stat of every entry of a directory of " + files + " files, over every rank", d.toNanos(), Measure.P99,
                    listing, "stat"));
        }
        if (i.has("listP99")) {
            Duration d = duration(i, "interactive.listP99");
            list.add(new Requirement("list_p99", "listing a directory of " + files + " files, p99 within "
                    + dev.prism.spi.Formats.exactDuration(d), "readdir of the whole directory, once per rank and repetition",
                    d.toNanos(), Measure.P99, listing, "readdir"));
        }
        if (i.has("gitStatusP99")) {
            Duration d = duration(i, "interactive.gitStatusP99");
            long repository = environment.has("repositoryFiles")
                    ? integer(environment, "environment.repositoryFiles", 1, 1_000_000) : 5_000;
            list.add(new Requirement("git_status_p99", "git status of a " + repository + "-file working tree, p99 within "
                    + dev.prism.spi.Formats.exactDuration(d), "warm scans (the tree's metadata cached), over every rank",
                    d.toNanos(), Measure.P99, DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, (int) repository)
                            .with(DevWorkflows.SCANS, 10),
                    "status_warm"));
        }
        return list;
    }

    private static void known(JsonNode section, String name, String... fields) {
        if (section.isMissingNode()) {
            return;
        }
        if (!section.isObject()) {
            throw new IllegalArgumentException(name + " must be an object with " + String.join(", ", fields));
        }
        Set<String> allowed = Set.of(fields);
        section.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException("unknown field " + name + "." + f + "; " + name + " takes "
                        + String.join(", ", fields));
            }
        });
    }

    private static double number(JsonNode node, String path, double min, double max) {
        JsonNode v = node.path(path.substring(path.lastIndexOf('.') + 1));
        if (v.isMissingNode()) {
            throw new IllegalArgumentException(path + " is required (" + trim(min) + ".." + trim(max) + ")");
        }
        if (!v.isNumber() || !(v.asDouble() >= min && v.asDouble() <= max)) {
            throw new IllegalArgumentException(path + " must be a number in " + trim(min) + ".." + trim(max) + ", was " + v);
        }
        return v.asDouble();
    }

    private static boolean bool(JsonNode node, String path) {
        JsonNode v = node.path(path.substring(path.lastIndexOf('.') + 1));
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(path + " must be true or false, was " + v);
        }
        return v.asBoolean();
    }

    private static long integer(JsonNode node, String path, long min, long max) {
        double v = number(node, path, min, max);
        if (v != Math.rint(v)) {
            throw new IllegalArgumentException(path + " must be a whole number in " + min + ".." + max + ", was " + trim(v));
        }
        return (long) v;
    }

    private static long size(JsonNode node, String path, String fallback) {
        JsonNode v = node.path(path.substring(path.lastIndexOf('.') + 1));
        if (v.isMissingNode()) {
            if (fallback == null) {
                throw new IllegalArgumentException(path + " is required (a size such as 512KiB)");
            }
            return DataSize.parse(fallback).bytes();
        }
        try {
            long bytes = v.isNumber() ? v.asLong() : DataSize.parse(v.asText()).bytes();
            if (bytes < 1) {
                throw new IllegalArgumentException("not positive");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + " must be a size of at least 1 B such as 512KiB or 1GiB, was " + v, e);
        }
    }

    private static Duration duration(JsonNode node, String path) {
        JsonNode v = node.path(path.substring(path.lastIndexOf('.') + 1));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)").matcher(v.asText());
        if (!m.matches()) {
            throw new IllegalArgumentException(path + " must be a duration such as 5ms, 500us, 2s, was " + v);
        }
        double amount = Double.parseDouble(m.group(1));
        double nanos = amount * switch (m.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
        };
        if (nanos < 1 || nanos > 86_400e9) {
            throw new IllegalArgumentException(path + " must be between 1ns and 24h, was " + v);
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /**
     * @return a size in the unit it was most likely given in: a whole binary or decimal unit as such ({@code 512KiB},
     *         {@code 150kB}: a requirement of "150KB" is not restated as 146.5 KiB), else as the tables print sizes
     */
    static String asGiven(long bytes) {
        String whole = DataSize.ofBytes(bytes).toString();
        return bytes < 1024 || !whole.matches("\\d+B") ? whole : dev.prism.spi.Formats.bytes(bytes);
    }

    /** @return a size as teams size storage, in decimal units: {@code 112 GB}, {@code 9.15 MB} */
    public static String decimal(double bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        int u = 0;
        while (Math.abs(bytes) >= 1000 && u < units.length - 1) {
            bytes /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, bytes >= 100 || u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
    }

    private static String count(double n) {
        return n >= 1e9 ? String.format(Locale.ROOT, "%.3g G", n / 1e9) : n >= 1e6
                ? String.format(Locale.ROOT, "%.3g M", n / 1e6) : trim(n);
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                : new java.math.BigDecimal(String.format(Locale.ROOT, "%.4g", v)).stripTrailingZeros().toPlainString();
    }
}
