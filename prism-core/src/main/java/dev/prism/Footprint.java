package dev.prism;

/**
 * What one configuration of a benchmark needs before it runs: bytes on the target at its peak and memory on each
 * node, with a line saying where the figures come from. A scenario refuses a configuration whose footprint the
 * target's free space or the node's available memory cannot hold, before anything is written; {@code prism suite
 * --plan} prints it.
 *
 * <pre>{@code
 * import dev.prism.Footprint;
 *
 * var f = new Footprint(3L << 30, 5L << 30, "two ranks' shards of 1.6 GiB");
 * System.out.println(f.targetBytes() + " " + f.summary());
 * }</pre>
 *
 * @param targetBytes        bytes the configuration writes on the target at its peak, at least 0
 * @param memoryBytesPerNode memory its ranks on one node hold at their peak, at least 0
 * @param summary            where the figures come from, e.g. {@code ranks 0-1 of 512, llama3-405b tp=8 pp=16 dp=4:
 *                           11.2 GB per rank}
 */
public record Footprint(long targetBytes, long memoryBytesPerNode, String summary) {
    /** Checks the figures. */
    public Footprint {
        if (targetBytes < 0) {
            throw new IllegalArgumentException("targetBytes must be at least 0, was " + targetBytes);
        }
        if (memoryBytesPerNode < 0) {
            throw new IllegalArgumentException("memoryBytesPerNode must be at least 0, was " + memoryBytesPerNode);
        }
        java.util.Objects.requireNonNull(summary, "summary");
    }
}
