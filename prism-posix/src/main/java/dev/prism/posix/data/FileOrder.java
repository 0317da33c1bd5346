package dev.prism.posix.data;


/**
 * The order {@code md5_check} reads a rank's files in.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.FileOrder;
 *
 * var b = PosixBenchmarks.md5Check().order(FileOrder.RANDOM).epochs(3);
 * }</pre>
 */
public enum FileOrder {
    /** By path. */
    SEQUENTIAL,
    /** A seeded shuffle, different in every epoch, the same in every run: what a data loader does. */
    RANDOM,
    /** 0, s, 2s, … then 1, 1+s, …: every file once, {@code stride} apart. */
    STRIDED
}
