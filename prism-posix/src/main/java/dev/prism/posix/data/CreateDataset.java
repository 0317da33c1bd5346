package dev.prism.posix.data;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.data.internal.CreateDatasetWorkload;

import java.util.List;

/**
 * {@code create_dataset}: writes a dataset of files from 8 KiB to 1 GiB (the size classes are a
 * parameter), several per class up to a total size, spread over ranks (file {@code i} by rank
 * {@code i mod tasks}), flat or sharded into subdirectories, with content any reader can verify
 * ({@link DatasetContent}), and a {@code manifest.json} of every file's size and MD5. Timed:
 * {@code open}, {@code generate} and {@code write} per 1 MiB chunk, {@code close}, and
 * {@code file_<class>} for each whole file.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.PosixBenchmarks;
 * import java.util.List;
 *
 * var b = (PosixBenchmarks.createDataset()
 *         .sizeClasses(List.of(DataSize.ofKiB(8), DataSize.ofMiB(1)))
 *         .filesPerClass(10).totalSize(DataSize.ofMiB(64)));
 * System.out.println(b.spec().files().size());
 * }</pre>
 */
public final class CreateDataset extends PosixBenchmark<CreateDataset> {
    /** The size classes, smallest first. */
    public static final Parameter<List<DataSize>> SIZE_CLASSES = Parameter.ofSizes("size_classes",
            List.of(DataSize.ofKiB(8), DataSize.ofKiB(64), DataSize.ofMiB(1), DataSize.ofMiB(16), DataSize.ofMiB(128),
                    DataSize.ofGiB(1)), DataSize.ofBytes(1), DataSize.ofGiB(64),
            "file sizes; each round adds one file of each, in this order");
    /** Files per size class. */
    public static final Parameter<Integer> FILES_PER_CLASS =
            Parameter.ofInt("files_per_class", 4, 1, 10_000_000, "files", "files of each size class at most");
    /** The dataset's total size. */
    public static final Parameter<DataSize> TOTAL_SIZE = Parameter.ofSize("total_size", DataSize.ofGiB(2),
            DataSize.ofBytes(1), DataSize.ofGiB(1L << 20),
            "the dataset's size at most; a file that would pass it is left out (the default holds every class once)");
    /** Flat or sharded. */
    public static final Parameter<DatasetLayout> LAYOUT = Parameter.ofEnum("layout", DatasetLayout.class,
            DatasetLayout.SHARDED, "flat: one directory; sharded: file i in shard-(i mod shards)/");
    /** Subdirectories when sharded. */
    public static final Parameter<Integer> SHARDS =
            Parameter.ofInt("shards", 16, 1, 1_000_000, "directories", "subdirectories of a sharded dataset");
    /** The content's seed. */
    public static final Parameter<Long> CONTENT_SEED = Parameter.ofLong("content_seed", 42, Long.MIN_VALUE,
            Long.MAX_VALUE, null, "seed of the generated content: the same seed gives the same bytes everywhere");
    /** Generated content or zeros. */
    public static final Parameter<ContentPattern> PATTERN = Parameter.ofEnum("pattern", ContentPattern.class,
            ContentPattern.SHA256, "sha256: verifiable generated content; zeros: no generation (to measure its cost)");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(ACCESS, SIZE_CLASSES, FILES_PER_CLASS, TOTAL_SIZE, LAYOUT, SHARDS, CONTENT_SEED, PATTERN);

    /** What a dataset is — its sizes, layout and seed — as md5_check generates one and {@code prism dataset create} writes it. */
    public static final List<Parameter<?>> DATASET_PARAMETERS =
            List.of(SIZE_CLASSES, FILES_PER_CLASS, TOTAL_SIZE, LAYOUT, SHARDS, CONTENT_SEED);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private CreateDataset(Parameters parameters) {
        super("create_dataset", "write a dataset of files from 8 KiB to 1 GiB with verifiable content and a manifest",
                parameters);
    }

    /** @return create_dataset with these parameter values (missing ones at their defaults), checked */
    public static CreateDataset of(Parameters parameters) {
        CreateDataset b = new CreateDataset(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
        b.spec().requireListable();
        return b;
    }

    @Override
    protected CreateDataset with(Parameters parameters) {
        return new CreateDataset(parameters);
    }

    /** @param sizeClasses file sizes; each round adds one file of each, in this order */
    public CreateDataset sizeClasses(List<DataSize> sizeClasses) {
        return set(SIZE_CLASSES, sizeClasses);
    }

    /** @param filesPerClass files of each size at most, 1..10000000 */
    public CreateDataset filesPerClass(int filesPerClass) {
        return set(FILES_PER_CLASS, filesPerClass);
    }

    /** @param totalSize the dataset's size at most */
    public CreateDataset totalSize(DataSize totalSize) {
        return set(TOTAL_SIZE, totalSize);
    }

    /** @param layout flat or sharded */
    public CreateDataset layout(DatasetLayout layout) {
        return set(LAYOUT, layout);
    }

    /** @param shards subdirectories when sharded, 1..1000000 */
    public CreateDataset shards(int shards) {
        return set(SHARDS, shards);
    }

    /** @param seed the content's seed */
    public CreateDataset contentSeed(long seed) {
        return set(CONTENT_SEED, seed);
    }

    /** @param pattern generated content or zeros */
    public CreateDataset pattern(ContentPattern pattern) {
        return set(PATTERN, pattern);
    }

    /** @return the dataset these parameters describe */
    public DatasetSpec spec() {
        return specOf(parameters());
    }

    static DatasetSpec specOf(Parameters p) {
        return new DatasetSpec(p.get(SIZE_CLASSES), p.get(FILES_PER_CLASS), p.get(TOTAL_SIZE), p.get(LAYOUT),
                p.get(SHARDS), p.get(CONTENT_SEED));
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of("file_*", "open", "generate", "write", "close");
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot write");
    }

    @Override
    public Workload newWorkload() {
        return new CreateDatasetWorkload(parameters().get(ACCESS), spec(), parameters().get(PATTERN) == ContentPattern.ZEROS);
    }
}
