package dev.prism.posix.data;


/**
 * How a dataset's files are arranged: all in one directory, or spread over N subdirectories
 * (§4.2.2 of the paper: sharding keeps directories small).
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.DatasetLayout;
 *
 * var b = PosixBenchmarks.createDataset().layout(DatasetLayout.SHARDED).shards(64);
 * }</pre>
 */
public enum DatasetLayout {
    /** {@code file-000001.bin}, … in one directory. */
    FLAT,
    /** {@code shard-000/file-000001.bin}, …: file {@code i} in shard {@code i mod shards}. */
    SHARDED
}
