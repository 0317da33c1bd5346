package dev.prism.posix;

/**
 * Whether {@code md5_check} leaves the page cache alone or drops each file from it before reading.
 *
 * <pre>{@code
 * var b = dev.prism.posix.PosixBenchmarks.md5Check().cache(dev.prism.posix.PageCache.DROP);
 * }</pre>
 */
public enum PageCache {
    /** Read whatever is cached. */
    KEEP,
    /** fdatasync + posix_fadvise(POSIX_FADV_DONTNEED) before each file, so reads go to storage. */
    DROP
}
