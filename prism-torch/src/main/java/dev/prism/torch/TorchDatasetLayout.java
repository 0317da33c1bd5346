package dev.prism.torch;

/**
 * How the {@code dataloader} benchmark lays out the dataset it generates when it is given no kept one.
 *
 * <pre>{@code
 * var b = dev.prism.torch.TorchBenchmarks.dataloader().layout(dev.prism.torch.TorchDatasetLayout.SHARDED).shards(100);
 * }</pre>
 */
public enum TorchDatasetLayout {
    /** Every file in one directory. */
    FLAT,
    /** Files dealt round-robin over {@code shards} subdirectories. */
    SHARDED
}
