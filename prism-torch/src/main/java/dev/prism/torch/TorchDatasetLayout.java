package dev.prism.torch;

/**
 * How the {@code dataloader} benchmark lays out the dataset it generates when it is given no kept one.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchDatasetLayout;
 *
 * var b = TorchBenchmarks.dataloader().layout(TorchDatasetLayout.SHARDED).shards(100);
 * }</pre>
 */
public enum TorchDatasetLayout {
    /** Every file in one directory. */
    FLAT,
    /** Files dealt round-robin over {@code shards} subdirectories. */
    SHARDED
}
