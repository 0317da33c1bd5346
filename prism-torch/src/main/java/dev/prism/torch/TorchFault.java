package dev.prism.torch;

/**
 * A fault to inject, to qualify how a checkpoint path fails: the run must FAIL naming the file or
 * carrying the worker's traceback, never hang.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchFault;
 *
 * var b = TorchBenchmarks.fsdpLoad().fault(TorchFault.TRUNCATE_SHARD);
 * }</pre>
 */
public enum TorchFault {
    /** No fault. */
    NONE,
    /** Cut a checkpoint file to an eighth of its size before it is loaded (into its model data, which every load reads). */
    TRUNCATE_SHARD,
    /**
     * Invert one byte inside a tensor's data in the checkpoint before it is loaded (DCP: the first model tensor's; a
     * torch.save file: its first tensor entry's): silent corruption the size of one element, which neither torch.load
     * nor dcp.load notices (they read no checksum) and the verification after the load must, naming the tensor.
     */
    FLIP_ELEMENT,
    /** Rank 1 raises before training. */
    CRASH_RANK1
}
