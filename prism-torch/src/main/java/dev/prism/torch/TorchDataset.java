package dev.prism.torch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.DataSize;

import dev.prism.spi.PythonInterpreter;
import dev.prism.spi.TrustedPrograms;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A dataset in a training format ({@link TorchDataFormat}), written once by {@link #create} and read by many runs
 * ({@code dataloader -p dataset=DIR}): {@code prism dataset create --format}. Every sample's bytes follow from the seed
 * and the sample's index, and the sizes and CRC-32s recorded beside the files let each load check every sample it
 * delivers. The formats need the Python packages of the project's {@code .venv} (pyarrow, datasets, safetensors).
 * Immutable; the builder checks each value at once.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.torch.TorchDataFormat;
 * import dev.prism.torch.TorchDataset;
 *
 * var spec = TorchDataset.builder().format(TorchDataFormat.TAR_SHARDS).samples(1_000)
 *         .sampleSize(DataSize.ofKiB(32)).shardSize(DataSize.ofMiB(8)).build();
 * System.out.println(spec);   // tar-shards: 1000 samples of 32KiB in shards of 8MiB, seed 42
 * }</pre>
 *
 * @param format     the format
 * @param samples    samples, 1..1e8
 * @param sampleSize each sample's bytes (the mean with a jitter), 16 B..1 GiB
 * @param sizeJitter each sample's size drawn uniformly within ± this share of {@code sampleSize}, 0..0.9
 * @param shardSize  the largest shard file (parquet, arrow, tar shards, indexed {@code .bin}, safetensors)
 * @param rowGroup   parquet: bytes of samples per row group
 * @param classes    image folders: class directories
 * @param seed       the seed every sample's content and size follow from
 */
public record TorchDataset(TorchDataFormat format, int samples, DataSize sampleSize, double sizeJitter, DataSize shardSize,
                           DataSize rowGroup, int classes, long seed) {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The seed every sample's content and size follow from, as {@code prism dataset create -p seed=} takes it. */
    public static final dev.prism.Parameter<Long> SEED = dev.prism.Parameter.ofLong("seed", 42, 0, 1L << 62, "",
            "the seed every sample's content and size follow from");

    /** Checks every value (the builder's ranges), so a record made directly holds them too. */
    public TorchDataset {
        Objects.requireNonNull(format, "format");
        if (format == TorchDataFormat.FILES) {
            throw new IllegalArgumentException("format files is md5_check's dataset: prism dataset create without"
                    + " --format, or dev.prism.posix.data.Datasets; accepted: a training format ("
                    + String.join(", ", List.of(TorchDataFormat.values()).subList(1, TorchDataFormat.values().length)
                    .stream().map(TorchDataFormat::text).toList()) + ")");
        }
        TorchBenchmark.SAMPLES.check(samples);
        TorchBenchmark.SAMPLE_SIZE.check(sampleSize);
        TorchBenchmark.SIZE_JITTER.check(sizeJitter);
        TorchBenchmark.DATA_SHARD_SIZE.check(shardSize);
        TorchBenchmark.ROW_GROUP.check(rowGroup);
        TorchBenchmark.CLASSES.check(classes);
        SEED.check(seed);
    }

    /** @return a builder with {@code dataloader}'s defaults: 1,000 samples of 32 KiB, shards of 64 MiB, seed 42 */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the bytes of the samples when every one has {@code sampleSize} (the mean with a jitter) */
    public long nominalBytes() {
        return (long) samples * sampleSize.bytes();
    }

    /** @return {@code dataloader}'s parameters for generating this dataset in a run instead of keeping it */
    public Dataloader benchmark() {
        return TorchBenchmarks.dataloader().format(format).samples(samples).sampleSize(sampleSize).sizeJitter(sizeJitter)
                .shardSize(shardSize).rowGroup(rowGroup).classes(classes);
    }

    @Override
    public String toString() {
        String layout = switch (format) {
            case PARQUET -> " in shards of " + shardSize + ", row groups of " + rowGroup;
            case IMAGE_FOLDER -> " in " + classes + " class directories";
            default -> " in shards of " + shardSize;
        };
        return format.text() + ": " + samples + " samples of " + sampleSize
                + (sizeJitter > 0 ? String.format(Locale.ROOT, " ± %.0f%%", sizeJitter * 100) : "") + layout + ", seed " + seed;
    }

    /**
     * What {@link #create} wrote.
     *
     * @param directory   the dataset's directory
     * @param sampleBytes the samples' bytes
     * @param files       files holding them (its manifest and checksums not counted)
     * @param fileBytes   those files' bytes: the samples and the format's own framing
     * @param took        how long the writing took
     */
    public record Created(Path directory, long sampleBytes, int files, long fileBytes, Duration took) {
    }

    /**
     * Writes the dataset into {@code directory} (made, or an empty one; never a symbolic link) with the interpreter of
     * {@code torchRun}, after checking its filesystem has room for it.
     *
     * @throws dev.prism.TargetException when the directory is a link or not empty, or another user could change a
     *                                   directory on its path (one others may write, not sticky)
     * @throws dev.prism.RefusedException when the filesystem lacks the room
     * @throws TorchException when the interpreter fails, with its last line
     */
    public Created create(Path directory, TorchRun torchRun) throws IOException {
        Path dir = directory.toAbsolutePath().normalize();
        dev.prism.spi.Directories.refuseSwappable(dir, "dataset directory");
        if (Files.isSymbolicLink(dir)) {
            throw new dev.prism.TargetException("dataset directory " + dir + " is a symbolic link; give the directory itself");
        }
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new dev.prism.TargetException("dataset directory " + dir + " is not empty; give a new or empty directory");
                }
            }
        } else {
            Files.createDirectory(dir);
        }
        long need = (long) (nominalBytes() * (1 + sizeJitter) * 1.05) + (format == TorchDataFormat.ARROW ? nominalBytes() : 0);
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < need) {
            throw new dev.prism.RefusedException(String.format(Locale.ROOT, "the dataset needs about %s on %s (%s for arrow's"
                    + " staging copy); %s is free", DataSize.ofBytes(need), dir, format == TorchDataFormat.ARROW ? "twice" : "once",
                    DataSize.ofBytes(free)));
        }
        long start = System.nanoTime();
        JsonNode r = script(List.of("create", dir.toString(), "--format", format.label(), "--samples", String.valueOf(samples),
                "--sample-size", String.valueOf(sampleSize.bytes()), "--size-jitter", String.valueOf(sizeJitter),
                "--shard-size", String.valueOf(shardSize.bytes()), "--row-group", String.valueOf(rowGroup.bytes()),
                "--classes", String.valueOf(classes), "--seed", String.valueOf(seed)), dir, torchRun,
                "writing the " + format.text() + " dataset into " + dir);
        return new Created(dir, r.path("bytes").asLong(), r.path("files").asInt(), r.path("fileBytes").asLong(),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * @return the dataset described by the manifest in {@code directory} (a regular file of at most 256 MiB, opened
     *         without following a link)
     * @throws IllegalArgumentException when it is missing, too large or not a manifest of a training format
     */
    public static TorchDataset read(Path directory) throws IOException {
        Path manifest = directory.resolve("prism-dataset.json");
        JsonNode m;
        try (var channel = java.nio.channels.FileChannel.open(manifest, java.nio.file.StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS) || channel.size() > (256L << 20)) {
                throw new IllegalArgumentException(manifest + " is not a regular file of at most 256 MiB");
            }
            m = topLevelFields(java.nio.channels.Channels.newInputStream(channel));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(directory + " holds no prism-dataset.json: not a dataset written by"
                    + " 'prism dataset create --format'");
        }
        String format = m.path("format").asText();
        if (!"prism.formatdataset/1".equals(m.path("schema").asText()) || java.util.Arrays.stream(TorchDataFormat.values())
                .noneMatch(f -> f != TorchDataFormat.FILES && f.label().equals(format))) {
            throw new IllegalArgumentException(manifest + " is not a prism.formatdataset/1 manifest of a training format");
        }
        return new TorchDataset(TorchDataFormat.valueOf(format.toUpperCase(Locale.ROOT)), m.path("samples").asInt(),
                DataSize.ofBytes(m.path("sampleSize").asLong()), m.path("sizeJitter").asDouble(),
                DataSize.ofBytes(m.path("shardSize").asLong()), DataSize.ofBytes(m.path("rowGroup").asLong()),
                m.path("classes").asInt(), m.path("seed").asLong());
    }

    /**
     * @return the manifest's top-level fields that are not arrays or objects: streamed, so a manifest listing many
     *         shards is read in one pass without holding its lists (a benchmark reads it on every copy)
     */
    private static JsonNode topLevelFields(InputStream in) throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode fields = JSON.createObjectNode();
        try (com.fasterxml.jackson.core.JsonParser p = JSON.getFactory().createParser(in)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return fields;
            }
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                com.fasterxml.jackson.core.JsonToken value = p.nextToken();
                if (value == com.fasterxml.jackson.core.JsonToken.START_ARRAY
                        || value == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    p.skipChildren();
                } else {
                    fields.set(name, JSON.readTree(p));
                }
            }
        }
        return fields;
    }

    /** @return whether {@code directory} holds a dataset of a training format (its {@code prism-dataset.json}) */
    public static boolean presentIn(Path directory) {
        return Files.isRegularFile(directory.resolve("prism-dataset.json"), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * What reading a kept dataset of a training format back found.
     *
     * @param samples  samples read
     * @param bytes    their bytes
     * @param problems each sample that differs from its seed's content, is missing or came twice (at most 20)
     */
    public record Verification(long samples, long bytes, List<String> problems) {
        /** Copies. */
        public Verification {
            problems = List.copyOf(problems);
        }

        /** @return whether every sample is there once, with its seed's content */
        public boolean passed() {
            return problems.isEmpty();
        }
    }

    /**
     * Reads every sample of the dataset in {@code directory} in its format's order (never writing) and checks each
     * against what its seed makes and the CRC-32 recorded at creation.
     *
     * @throws TorchException when the interpreter fails
     */
    public static Verification verify(Path directory, TorchRun torchRun) throws IOException {
        Path dir = directory.toAbsolutePath().normalize();
        if (!presentIn(dir)) {
            throw new IllegalArgumentException(dir + " holds no prism-dataset.json: not a dataset written by"
                    + " 'prism dataset create --format'");
        }
        JsonNode r = script(List.of("verify", dir.toString()), dir, torchRun, "reading the dataset in " + dir);
        List<String> problems = new ArrayList<>();
        r.path("problems").forEach(n -> problems.add(n.asText()));
        return new Verification(r.path("samples").asLong(), r.path("bytes").asLong(), problems);
    }

    /** Runs prism_formats.py (handed over on standard input: nothing written outside {@code dir}) and returns its JSON. */
    private static JsonNode script(List<String> arguments, Path dir, TorchRun torchRun, String what) throws IOException {
        // isolated (-I), from a fixed owner-checked path, in a private directory of its own: the dataset's directory
        // (which others may write) is an argument, never the working directory, where a planted module would be found
        List<String> command = PythonInterpreter.command(torchRun.python(), "-");
        command.addAll(arguments);
        Path workingDirectory = Files.createTempDirectory("prism-python-");
        ProcessBuilder pb;
        try {
            pb = new ProcessBuilder(TrustedPrograms.resolve(command)).directory(workingDirectory.toFile());
        } catch (IOException e) {
            Files.deleteIfExists(workingDirectory);
            throw new TorchException("cannot run " + torchRun.python() + " (" + e.getMessage() + "): create the project's"
                    + " .venv with scripts/python-venv.sh, or set PRISM_PYTHON", -1);
        }
        pb.environment().clear();
        pb.environment().putAll(TrustedPrograms.environment());
        pb.environment().putAll(torchRun.environment());
        // datasets and huggingface_hub keep their caches under HF_HOME: inside the dataset's directory, removed after
        Path staging = dir.resolve(".staging-hf");
        pb.environment().put("HF_HOME", staging.toString());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Files.deleteIfExists(workingDirectory);
            throw new TorchException("cannot run " + torchRun.python() + " (" + e.getMessage() + "): create the project's"
                    + " .venv with scripts/python-venv.sh, or set PRISM_PYTHON", -1);
        }
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread drain = new Thread(() -> {
            try {
                err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.complete(e.getMessage());
            }
        }, "prism-dataset-stderr");
        drain.setDaemon(true);
        drain.start();
        try (OutputStream in = p.getOutputStream(); InputStream script = TorchDataset.class.getResourceAsStream("prism_formats.py")) {
            script.transferTo(in);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code;
        try {
            if (!p.waitFor(torchRun.timeout().toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new TorchException(what + " took longer than " + dev.prism.spi.Formats.exactDuration(torchRun.timeout()), -1);
            }
            code = p.exitValue();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted: " + what);
        } finally {
            removeStaging(staging);
            Files.deleteIfExists(workingDirectory);
        }
        if (code != 0) {
            String text = err.join().strip();
            String last = text.isEmpty() ? "exit code " + code : text.substring(text.lastIndexOf('\n') + 1);
            throw new TorchException(what + " failed: " + last, code);
        }
        String[] lines = out.strip().split("\n");
        return JSON.readTree(lines[lines.length - 1]);
    }

    /** Removes what the interpreter left under {@code staging}, never following a link. */
    private static void removeStaging(Path staging) throws IOException {
        if (!Files.exists(staging, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(staging)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p); // Files.walk does not follow links; delete removes a link itself
            }
        }
    }

    /** Builds a {@link TorchDataset}, checking each value as it is given. */
    public static final class Builder {
        private TorchDataFormat format = TorchDataFormat.PARQUET;
        private int samples = TorchBenchmark.SAMPLES.defaultValue();
        private DataSize sampleSize = TorchBenchmark.SAMPLE_SIZE.defaultValue();
        private double sizeJitter = TorchBenchmark.SIZE_JITTER.defaultValue();
        private DataSize shardSize = TorchBenchmark.DATA_SHARD_SIZE.defaultValue();
        private DataSize rowGroup = TorchBenchmark.ROW_GROUP.defaultValue();
        private int classes = TorchBenchmark.CLASSES.defaultValue();
        private long seed = SEED.defaultValue();

        private Builder() {
        }

        /** @param format a training format (not files) */
        public Builder format(TorchDataFormat format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /** @param samples samples, 1..1e8 */
        public Builder samples(int samples) {
            this.samples = TorchBenchmark.SAMPLES.check(samples);
            return this;
        }

        /** @param size each sample's bytes, 16 B..1 GiB */
        public Builder sampleSize(DataSize size) {
            this.sampleSize = TorchBenchmark.SAMPLE_SIZE.check(size);
            return this;
        }

        /** @param jitter the share of the sample size each one's size may differ by, 0..0.9 */
        public Builder sizeJitter(double jitter) {
            this.sizeJitter = TorchBenchmark.SIZE_JITTER.check(jitter);
            return this;
        }

        /** @param size the largest shard file, 4 KiB..1 TiB */
        public Builder shardSize(DataSize size) {
            this.shardSize = TorchBenchmark.DATA_SHARD_SIZE.check(size);
            return this;
        }

        /** @param size parquet: bytes per row group, 1 KiB..4 GiB */
        public Builder rowGroup(DataSize size) {
            this.rowGroup = TorchBenchmark.ROW_GROUP.check(size);
            return this;
        }

        /** @param classes image folders: class directories, 1..1e6 */
        public Builder classes(int classes) {
            this.classes = TorchBenchmark.CLASSES.check(classes);
            return this;
        }

        /** @param seed the seed of every sample's content and size, 0..2^62 */
        public Builder seed(long seed) {
            this.seed = SEED.check(seed);
            return this;
        }

        /** @return the dataset */
        public TorchDataset build() {
            return new TorchDataset(format, samples, sampleSize, sizeJitter, shardSize, rowGroup, classes, seed);
        }
    }
}
