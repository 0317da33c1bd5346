package dev.prism.torch;

/**
 * The optimizer whose state a checkpoint holds beside the model: what makes a training checkpoint two
 * to three times the size of the weights alone.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchOptimizer;
 *
 * var b = TorchBenchmarks.ddpSave().optimizer(TorchOptimizer.SGD);
 * }</pre>
 */
public enum TorchOptimizer {
    /** {@code torch.optim.Adam}: two state tensors per parameter (exp_avg, exp_avg_sq), as most training uses. */
    ADAM,
    /** {@code torch.optim.SGD} with momentum 0.9: one state tensor per parameter (the momentum buffer). */
    SGD
}
