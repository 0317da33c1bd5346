package dev.prism.torch;

/**
 * How a preset's checkpoint stores its weights: the bytes per parameter beside the optimizer's fp32 state
 * (Adam: two tensors per parameter; SGD: one).
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchModel;
 * import dev.prism.torch.TorchOptimizer;
 * import dev.prism.torch.TorchPrecision;
 *
 * var p = TorchPrecision.BF16;
 * var b = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_8B).precision(p);
 * System.out.println(p.bytesPerParameter(TorchOptimizer.ADAM));
 * }</pre>
 */
public enum TorchPrecision {
    /** Weights in bf16 (2 bytes per parameter); with Adam 10 bytes per parameter in all. */
    BF16(2, false),
    /** Weights in fp32 (4 bytes); with Adam 12 bytes per parameter. */
    FP32(4, false),
    /**
     * bf16 weights and an fp32 master copy in the optimizer state (2 + 4 bytes); with Adam 14 bytes per parameter:
     * what mixed-precision training saves, and what MLPerf Storage's checkpoint sizes assume.
     */
    MIXED(2, true);

    final int weightBytes;
    final boolean master;

    TorchPrecision(int weightBytes, boolean master) {
        this.weightBytes = weightBytes;
        this.master = master;
    }

    /** @return checkpoint bytes per parameter with this optimizer's state */
    public int bytesPerParameter(TorchOptimizer optimizer) {
        return weightBytes + (master ? 4 : 0) + (optimizer == TorchOptimizer.ADAM ? 8 : 4);
    }
}
