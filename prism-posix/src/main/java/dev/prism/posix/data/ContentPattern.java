package dev.prism.posix.data;


/**
 * What {@code create_dataset} writes: the verifiable generated content, or zeros (to measure what
 * generating costs).
 *
 * <pre>{@code
 * var b = dev.prism.posix.PosixBenchmarks.createDataset().pattern(dev.prism.posix.data.ContentPattern.ZEROS);
 * }</pre>
 */
public enum ContentPattern {
    /** {@link DatasetContent}: SHA-256-keyed blocks any reader can regenerate. */
    SHA256,
    /** Zeros: no generation at all. */
    ZEROS
}
