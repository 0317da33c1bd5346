package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code ddp_save}: a training iteration, then rank 0 writes the full state dict with torch.save (atomically).
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchOptimizer;
 *
 * var b = TorchBenchmarks.ddpSave().parameters(50_000_000).optimizer(TorchOptimizer.SGD);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class DdpSave extends ShardedCheckpoint<DdpSave> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "a training iteration, then rank 0 writes the full state dict with torch.save (atomically);"
            + " with a preset, the first rank of each model-parallel shard writes it";

    DdpSave(Parameters parameters, TorchRun torchRun) {
        super("ddp_save", DESCRIPTION, parameters, torchRun);
    }

    @Override
    boolean fsdp() {
        return false;
    }

    @Override
    DdpSave copy(Parameters parameters, TorchRun torchRun) {
        return new DdpSave(parameters, torchRun);
    }
}
