package dev.prism.posix.data;

import dev.prism.DataSize;

import java.util.ArrayList;
import java.util.List;

/**
 * What a generated dataset holds: up to {@code filesPerClass} files of each size class, filled in
 * rounds — one file of each class in order, then a second of each, … — each file added only while
 * the running total stays within {@code totalSize}, so every class that fits once is present even
 * when the total cannot hold all rounds of the large ones; laid out flat or sharded; its
 * content given by {@link DatasetContent} with {@code seed}. File {@code i} is written by rank
 * {@code i mod tasks}.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.data.DatasetLayout;
 * import dev.prism.posix.data.DatasetSpec;
 * import java.util.List;
 *
 * var spec = new DatasetSpec(List.of(DataSize.ofKiB(8), DataSize.ofMiB(1)),
 *         3, DataSize.ofMiB(4), DatasetLayout.SHARDED, 4, 42);
 * System.out.println(spec.files());
 * }</pre>
 *
 * @param sizeClasses   file sizes, in the order each round fills them
 * @param filesPerClass at most this many files of each size
 * @param totalSize     the dataset's size at most
 * @param layout        flat or sharded
 * @param shards        subdirectories when sharded
 * @param seed          the content's seed
 */
public record DatasetSpec(List<DataSize> sizeClasses, int filesPerClass, DataSize totalSize, DatasetLayout layout,
                          int shards, long seed) {
    /** One file of the dataset. @param path relative, with '/' @param sizeBytes its size @param index its number */
    public record File(String path, long sizeBytes, int index) {
    }

    /**
     * Copies the list and checks each value as {@code create_dataset}'s parameters do.
     *
     * @throws IllegalArgumentException naming the component, its value and the accepted range
     */
    public DatasetSpec {
        if (sizeClasses == null || sizeClasses.isEmpty()) {
            throw new IllegalArgumentException("sizeClasses must name at least one file size, was " + sizeClasses);
        }
        sizeClasses = List.copyOf(CreateDataset.SIZE_CLASSES.check(List.copyOf(sizeClasses)));
        CreateDataset.FILES_PER_CLASS.check(filesPerClass);
        CreateDataset.TOTAL_SIZE.check(java.util.Objects.requireNonNull(totalSize, "totalSize"));
        java.util.Objects.requireNonNull(layout, "layout");
        CreateDataset.SHARDS.check(shards);
    }

    /**
     * @return a builder starting from {@code create_dataset}'s defaults (the paper's six size classes, 8 KiB to 1 GiB,
     *         4 files each, at most 2 GiB, 16 shards, seed 42), each setter checked at once
     *
     * <pre>{@code
     * import dev.prism.DataSize;
     * import dev.prism.posix.data.DatasetLayout;
     * import dev.prism.posix.data.DatasetSpec;
     *
     * var spec = DatasetSpec.builder().sizeClasses(DataSize.ofKiB(32)).filesPerClass(1000)
     *         .totalSize(DataSize.ofMiB(32)).layout(DatasetLayout.FLAT).build();
     * System.out.println(spec.fileCount() + " files");   // 1000 files
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link DatasetSpec}; each setter checks its argument at once, naming it, its value and the range. */
    public static final class Builder {
        private List<DataSize> sizeClasses = CreateDataset.SIZE_CLASSES.defaultValue();
        private int filesPerClass = CreateDataset.FILES_PER_CLASS.defaultValue();
        private DataSize totalSize = CreateDataset.TOTAL_SIZE.defaultValue();
        private DatasetLayout layout = CreateDataset.LAYOUT.defaultValue();
        private int shards = CreateDataset.SHARDS.defaultValue();
        private long seed = CreateDataset.CONTENT_SEED.defaultValue();

        private Builder() {
        }

        /** @param sizes file sizes, each 1 B..64 GiB, in the order each round fills them */
        public Builder sizeClasses(DataSize... sizes) {
            if (sizes == null || sizes.length == 0) {
                throw new IllegalArgumentException("sizeClasses must name at least one file size, was none");
            }
            this.sizeClasses = CreateDataset.SIZE_CLASSES.check(List.of(sizes));
            return this;
        }

        /** @param files at most this many files of each size class, 1..10000000 */
        public Builder filesPerClass(int files) {
            this.filesPerClass = CreateDataset.FILES_PER_CLASS.check(files);
            return this;
        }

        /** @param size the dataset's size at most; a file that would pass it is left out */
        public Builder totalSize(DataSize size) {
            this.totalSize = CreateDataset.TOTAL_SIZE.check(size);
            return this;
        }

        /** @param layout flat, or sharded into {@link #shards} subdirectories */
        public Builder layout(DatasetLayout layout) {
            this.layout = CreateDataset.LAYOUT.check(layout);
            return this;
        }

        /** @param shards subdirectories of a sharded dataset, 1..1000000 */
        public Builder shards(int shards) {
            this.shards = CreateDataset.SHARDS.check(shards);
            return this;
        }

        /** @param seed the content's seed: the same seed gives the same bytes everywhere */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * @return the spec
         * @throws IllegalArgumentException when not even one file of the smallest class fits the total size
         */
        public DatasetSpec build() {
            DatasetSpec spec = new DatasetSpec(sizeClasses, filesPerClass, totalSize, layout, shards, seed);
            spec.requireAFile(spec.fileCount());
            return spec;
        }
    }

    /**
     * The checks {@link #files()} makes before it lists, counted without listing (a list of the paper's 800,000 files
     * is not made to check a configuration).
     *
     * @throws dev.prism.RefusedException   when this JVM could not hold a record of every file
     * @throws IllegalArgumentException naming total_size when not even the smallest file fits
     */
    void requireListable() {
        long count = fileCount();
        long limit = maxFilesInMemory();
        if (count > limit) {
            throw new dev.prism.RefusedException("the dataset would hold " + count + " files; this JVM keeps a record"
                    + " of each and can hold at most " + limit + " (about 1 KiB of heap each, -Xmx"
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + "m); lower files_per_class or total_size");
        }
        requireAFile(count);
    }

    /** @throws IllegalArgumentException naming total_size when {@code count}, the dataset's files, is none */
    private void requireAFile(long count) {
        if (count == 0) {
            DataSize smallest = sizeClasses.stream().min(DataSize::compareTo).orElseThrow();
            throw new IllegalArgumentException("total_size " + totalSize + " is smaller than one file of the smallest"
                    + " size class (" + smallest + "); raise total_size or add a smaller class");
        }
    }

    /**
     * @return every file, in index order
     * @throws IllegalArgumentException naming total_size when not even the smallest file fits
     */
    public List<File> files() {
        requireListable();
        List<File> files = new ArrayList<>();
        long total = 0;
        for (int round = 0; round < filesPerClass; round++) {
            for (DataSize size : sizeClasses) {
                if (total + size.bytes() <= totalSize.bytes()) {
                    int index = files.size();
                    files.add(new File(path(index), size.bytes(), index));
                    total += size.bytes();
                }
            }
        }
        return files;
    }

    /** @return the relative path of file {@code index} */
    public String path(int index) {
        String name = String.format("file-%06d.bin", index);
        return layout == DatasetLayout.SHARDED ? String.format("shard-%03d/%s", index % shards, name) : name;
    }

    /** @return the bytes of all files, counted without listing them */
    public long bytes() {
        return tally()[1];
    }

    /** @return how many files the dataset holds, counted without listing them */
    public long fileCount() {
        return tally()[0];
    }

    /** @return the most files a dataset may hold in this JVM: its heap over 1 KiB per file record */
    public static long maxFilesInMemory() {
        return Runtime.getRuntime().maxMemory() / 1024;
    }

    private long[] tally() {
        long files = 0;
        long total = 0;
        for (int round = 0; round < filesPerClass; round++) {
            boolean added = false;
            for (DataSize size : sizeClasses) {
                if (total + size.bytes() <= totalSize.bytes()) {
                    files++;
                    total += size.bytes();
                    added = true;
                }
            }
            if (!added) {
                break; // no class fits any more: later rounds add nothing either
            }
        }
        return new long[]{files, total};
    }
}
