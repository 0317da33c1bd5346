package dev.prism.posix.data;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.data.internal.Md5CheckWorkload;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code md5_check}: reads a dataset and computes the MD5 of every file, in sequential, seeded
 * random (reshuffled each epoch) or strided order, in chunks of {@code chunk_size}, with the page
 * cache kept or dropped before each file (optionally O_DIRECT). Before each read, {@code mincore}
 * tells how much of the file was cached, reported as counters, so a user sees whether the bypass
 * worked. Ranks partition the files; {@code read_others} makes each rank read files another rank
 * wrote. With a manifest, a wrong MD5 fails the run with VALIDATION naming the file. Without
 * {@code dataset}, it generates one in setup (as {@code create_dataset} would, untimed).
 * Timed: {@code file} (open to close, with hashing), {@code open}, {@code read} per chunk,
 * {@code close}, and {@code drop}.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.PageCache;
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.FileOrder;
 *
 * var b = (PosixBenchmarks.md5Check().order(FileOrder.RANDOM)
 *         .cache(PageCache.DROP).chunkSize(DataSize.ofKiB(32)).epochs(2));
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class Md5Check extends PosixBenchmark<Md5Check> {
    /** The operation one file, open to close, hashing included: {@value}, for gates and look-ups ({@code run.measurement(Md5Check.OP_FILE)}). */
    public static final String OP_FILE = "file";
    /** The operation its open: {@value}, for gates and look-ups ({@code run.measurement(Md5Check.OP_OPEN)}). */
    public static final String OP_OPEN = "open";
    /** The operation one chunk's read: {@value}, for gates and look-ups ({@code run.measurement(Md5Check.OP_READ)}). */
    public static final String OP_READ = "read";
    /** The operation its close: {@value}, for gates and look-ups ({@code run.measurement(Md5Check.OP_CLOSE)}). */
    public static final String OP_CLOSE = "close";

    /** An existing dataset directory to read, or empty to generate one. */
    public static final Parameter<String> DATASET = Parameter.ofString("dataset", "",
            "directory of files to read (read only; its manifest.json is used when present); empty: generate one in setup");
    /** Visit order. */
    public static final Parameter<FileOrder> ORDER = Parameter.ofEnum("order", FileOrder.class, FileOrder.SEQUENTIAL,
            "sequential, random (seeded, reshuffled each epoch) or strided");
    /** Distance between files in strided order. */
    public static final Parameter<Integer> STRIDE = Parameter.ofInt("stride", 7, 1, 1_000_000, "files",
            "distance between consecutive files in strided order");
    /** Passes over the files. */
    public static final Parameter<Integer> EPOCHS = Parameter.ofInt("epochs", 1, 1, 100_000, "epochs", "passes over the files");
    /** Bytes per read call. */
    public static final Parameter<DataSize> CHUNK_SIZE = Parameter.ofSize("chunk_size", DataSize.ofMiB(1),
            DataSize.ofBytes(512), DataSize.ofMiB(256), "bytes per read call (8KiB, 32KiB, 1MiB…)");
    /** Keep or drop the page cache. */
    public static final Parameter<PageCache> CACHE = Parameter.ofEnum("cache", PageCache.class, PageCache.KEEP,
            "keep, or drop each file from the page cache before reading it");
    /** O_DIRECT reads. */
    public static final Parameter<Boolean> DIRECT = Parameter.ofBoolean("direct", false,
            "read with O_DIRECT (chunk_size a multiple of 4KiB; not on tmpfs)");
    /** Hash every file, or read only. */
    public static final Parameter<Boolean> HASH = Parameter.ofBoolean("hash", true,
            "compute every file's MD5 (checked against the manifest); false: read only, the read path alone as fio reads");
    /** Read other ranks' files. */
    public static final Parameter<Boolean> READ_OTHERS = Parameter.ofBoolean("read_others", false,
            "each rank reads the files the next rank wrote, so no client reads back its own cache");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(ACCESS, DATASET, ORDER, STRIDE, EPOCHS, CHUNK_SIZE, CACHE, DIRECT, HASH, READ_OTHERS),
            CreateDataset.DATASET_PARAMETERS.stream()).toList();

    /** A benchmark with these parameters; {@link dev.prism.posix.PosixBenchmarks} gives the defaults. */
    public Md5Check(Parameters parameters) {
        super("md5_check", "read a dataset and MD5 every file: sequential, random or strided; page cache kept or dropped",
                parameters);
    }

    /** @return md5_check with these parameter values (missing ones at their defaults), checked */
    public static Md5Check of(Parameters parameters) {
        return new Md5Check(Parameters.defaults(PARAMETERS).withText(parameters.asText())).checked();
    }

    /** @return every parameter, but without the generator's when a kept dataset is read: its layout is noted as found */
    @Override
    public java.util.Map<String, String> recordedParameters() {
        java.util.Map<String, String> recorded = new java.util.LinkedHashMap<>(parameters().asText());
        if (!parameters().get(DATASET).isEmpty()) {
            CreateDataset.DATASET_PARAMETERS.forEach(p -> recorded.remove(p.name()));
        }
        return recorded;
    }

    /** @return true: with a duration it reads epoch after epoch until the time is up, rank 0 deciding each next epoch */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected Md5Check with(Parameters parameters) {
        return new Md5Check(parameters);
    }

    /** @param dataset an existing directory to read (read only), or null to generate one */
    public Md5Check dataset(Path dataset) {
        return set(DATASET, dataset == null ? "" : dataset.toAbsolutePath().toString());
    }

    /** @param order sequential, random or strided */
    public Md5Check order(FileOrder order) {
        return set(ORDER, order);
    }

    /** @param stride distance between files in strided order */
    public Md5Check stride(int stride) {
        return set(STRIDE, stride);
    }

    /** @param epochs passes over the files, 1..100000 */
    public Md5Check epochs(int epochs) {
        return set(EPOCHS, epochs);
    }

    /** @param chunkSize bytes per read call, 512B..256MiB */
    public Md5Check chunkSize(DataSize chunkSize) {
        return set(CHUNK_SIZE, chunkSize);
    }

    /** @param cache keep or drop the page cache before each file */
    public Md5Check cache(PageCache cache) {
        return set(CACHE, cache);
    }

    /** @param direct whether to read with O_DIRECT */
    public Md5Check direct(boolean direct) {
        return set(DIRECT, direct);
    }

    /** @param hash whether to compute (and check) every file's MD5; false reads only */
    public Md5Check hash(boolean hash) {
        return set(HASH, hash);
    }

    /** @param readOthers whether each rank reads files another rank wrote */
    public Md5Check readOthers(boolean readOthers) {
        return set(READ_OTHERS, readOthers);
    }

    /** @param spec the dataset to generate when no {@code dataset} directory is given */
    public Md5Check generate(DatasetSpec spec) {
        return set(CreateDataset.SIZE_CLASSES, spec.sizeClasses()).set(CreateDataset.FILES_PER_CLASS, spec.filesPerClass())
                .set(CreateDataset.TOTAL_SIZE, spec.totalSize()).set(CreateDataset.LAYOUT, spec.layout())
                .set(CreateDataset.SHARDS, spec.shards()).set(CreateDataset.CONTENT_SEED, spec.seed());
    }

    @Override
    protected void checkTogether() {
        checked();
    }

    /**
     * @return this benchmark when its parameters fit together
     * @throws IllegalArgumentException naming the parameter otherwise
     */
    public Md5Check checked() {
        Parameters p = parameters();
        if (p.get(DIRECT) && p.get(ACCESS).inPython()) {
            throw new IllegalArgumentException("direct=true reads with O_DIRECT into aligned buffers, which access="
                    + p.get(ACCESS).name().toLowerCase(java.util.Locale.ROOT) + " cannot: use access=native or nio");
        }
        if (p.get(DIRECT) && p.get(CHUNK_SIZE).bytes() % 4096 != 0) {
            throw new IllegalArgumentException("chunk_size must be a multiple of 4KiB with direct=true, was "
                    + p.get(CHUNK_SIZE));
        }
        if (p.get(DATASET).isEmpty()) {
            CreateDataset.specOf(p).requireListable();
        } else if (!java.nio.file.Files.isDirectory(Path.of(p.get(DATASET)))) {
            throw new IllegalArgumentException("dataset " + p.get(DATASET) + " is not an existing directory");
        }
        return this;
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_FILE, OP_OPEN, OP_READ, OP_CLOSE);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot open or read, or whose size it could not find before the timed pass");
    }

    @Override
    public Workload newWorkload() {
        checked();
        Parameters p = parameters();
        String dataset = p.get(DATASET);
        return new Md5CheckWorkload(p.get(ACCESS), dataset.isEmpty() ? null : Path.of(dataset),
                dataset.isEmpty() ? CreateDataset.specOf(p) : null, p.get(ORDER), p.get(STRIDE), p.get(EPOCHS),
                (int) p.get(CHUNK_SIZE).bytes(), p.get(CACHE) == PageCache.DROP, p.get(DIRECT), p.get(HASH), p.get(READ_OTHERS));
    }
}
