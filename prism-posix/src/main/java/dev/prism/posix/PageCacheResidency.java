package dev.prism.posix;

/**
 * How many of a file's pages were in the page cache, from {@code mincore}.
 *
 * <pre>{@code
 * import dev.prism.posix.PageCacheResidency;
 *
 * var r = new PageCacheResidency(256, 64);
 * System.out.println(r.fraction());
 * }</pre>
 *
 * @param pages         pages the file spans
 * @param residentPages pages that were cached
 */
public record PageCacheResidency(long pages, long residentPages) {
    /** @return resident / total, 0 for an empty file */
    public double fraction() {
        return pages == 0 ? 0 : (double) residentPages / pages;
    }
}
