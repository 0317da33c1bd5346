package dev.prism.posix.data;


/**
 * What {@code create_dataset} writes: the verifiable generated content, or zeros (to measure what
 * generating costs).
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.data.ContentPattern;
 *
 * var b = PosixBenchmarks.createDataset().pattern(ContentPattern.ZEROS);
 * }</pre>
 */
public enum ContentPattern {
    /** {@link DatasetContent}: SHA-256-keyed blocks any reader can regenerate. */
    SHA256,
    /** Zeros: no generation at all. */
    ZEROS
}
