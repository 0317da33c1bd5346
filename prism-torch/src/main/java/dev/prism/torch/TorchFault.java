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
    /** Rank 1 raises before training. */
    CRASH_RANK1
}
