package dev.prism.posix.metadata;


/**
 * Where a metadata benchmark's ranks put their files: each in its own directory, or all in one
 * shared directory (where the filesystem must serialise directory updates between clients).
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.metadata.DirectoryLayout;
 *
 * var b = PosixBenchmarks.createFiles().directory(DirectoryLayout.SHARED);
 * }</pre>
 */
public enum DirectoryLayout {
    /** {@code rank-<r>/} for each rank. */
    PER_RANK,
    /** one {@code shared/} directory for all ranks. */
    SHARED
}
