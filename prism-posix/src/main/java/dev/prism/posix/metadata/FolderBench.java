package dev.prism.posix.metadata;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.metadata.internal.FolderBenchWorkload;

import java.util.List;

/**
 * {@code folder_bench}: each rank builds a directory tree of {@code depth} levels with
 * {@code breadth} subdirectories each (and {@code files_per_leaf} files in every leaf), walks it
 * (readdir + stat of every entry) and removes it; {@code mkdir}, {@code create}, {@code readdir},
 * {@code stat}, {@code unlink} and {@code rmdir} are timed apart.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.folderBench().depth(3).breadth(8).filesPerLeaf(4);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class FolderBench extends PosixBenchmark<FolderBench> {
    /** Most directories one rank's tree may have. */
    public static final long MAX_DIRECTORIES = 1_000_000;
    /** Levels below the root. */
    public static final Parameter<Integer> DEPTH = Parameter.ofInt("depth", 3, 1, 64, "levels", "levels of directories below the root");
    /** Subdirectories per directory. */
    public static final Parameter<Integer> BREADTH =
            Parameter.ofInt("breadth", 4, 1, 100_000, "directories", "subdirectories in every directory above the leaves");
    /** Files in each leaf directory. */
    public static final Parameter<Integer> FILES_PER_LEAF =
            Parameter.ofInt("files_per_leaf", 0, 0, 100_000, "files", "files created in every leaf directory");
    /** Bytes in each file. */
    public static final Parameter<DataSize> LEAF_FILE_SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(4),
            DataSize.ofBytes(1), DataSize.ofGiB(1), "bytes in each leaf file");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(JAVA_ACCESS, DEPTH, BREADTH, FILES_PER_LEAF, LEAF_FILE_SIZE);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private FolderBench(Parameters parameters) {
        super("folder_bench", "build a directory tree of depth × breadth (× files per leaf), walk it, remove it",
                parameters);
    }

    /** @return folder_bench with these parameter values (missing ones at their defaults), the tree size checked */
    public static FolderBench of(Parameters parameters) {
        return new FolderBench(Parameters.defaults(PARAMETERS).withText(parameters.asText())).checked();
    }

    @Override
    protected FolderBench with(Parameters parameters) {
        return new FolderBench(parameters);
    }

    /** @param depth levels below the root, 1..64 */
    public FolderBench depth(int depth) {
        return set(DEPTH, depth);
    }

    /** @param breadth subdirectories per directory, 1..100000 */
    public FolderBench breadth(int breadth) {
        return set(BREADTH, breadth);
    }

    /** @param filesPerLeaf files in each leaf, 0..100000 */
    public FolderBench filesPerLeaf(int filesPerLeaf) {
        return set(FILES_PER_LEAF, filesPerLeaf);
    }

    /** @param fileSize bytes in each leaf file, 1B..1GiB */
    public FolderBench fileSize(DataSize fileSize) {
        return set(LEAF_FILE_SIZE, fileSize);
    }

    @Override
    protected void checkTogether() {
        checked();
    }

    /**
     * @return this benchmark when its tree has at most {@link #MAX_DIRECTORIES} directories
     * @throws IllegalArgumentException naming depth and breadth otherwise
     */
    public FolderBench checked() {
        int depth = parameters().get(DEPTH);
        int breadth = parameters().get(BREADTH);
        long directories = FolderBenchWorkload.directories(depth, breadth);
        if (directories > MAX_DIRECTORIES) {
            throw new IllegalArgumentException("depth=" + depth + " and breadth=" + breadth + " make "
                    + (directories == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(directories))
                    + " directories per rank; at most " + MAX_DIRECTORIES + ": lower depth or breadth");
        }
        return this;
    }

    @Override
    public Workload newWorkload() {
        checked();
        Parameters p = parameters();
        return new FolderBenchWorkload(p.get(JAVA_ACCESS), p.get(DEPTH), p.get(BREADTH), p.get(FILES_PER_LEAF),
                p.get(LEAF_FILE_SIZE).bytes());
    }
}
