package dev.prism.posix;

/**
 * Whether {@code md5_check} leaves the page cache alone or drops each file from it before reading.
 *
 * <pre>{@code
 * import dev.prism.posix.PageCache;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.md5Check().cache(PageCache.DROP);
 * }</pre>
 */
public enum PageCache {
    /** Read whatever is cached. */
    KEEP,
    /** fdatasync + posix_fadvise(POSIX_FADV_DONTNEED) before each file, so reads go to storage. */
    DROP
}
