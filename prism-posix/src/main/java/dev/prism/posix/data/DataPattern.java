package dev.prism.posix.data;


/**
 * What {@code create_synthetic_workload} writes, for filesystems that compress or deduplicate.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.DataPattern;
 *
 * var b = PosixBenchmarks.createSyntheticWorkload().pattern(DataPattern.COMPRESSIBLE).compressRatio(4);
 * }</pre>
 */
public enum DataPattern {
    /** Zeros. */
    ZEROS,
    /** Incompressible bytes (one seeded 1 MiB block, repeated). */
    RANDOM,
    /** Each 4 KiB page: 1/compress_ratio random bytes then zeros, so it compresses about compress_ratio:1. */
    COMPRESSIBLE
}
