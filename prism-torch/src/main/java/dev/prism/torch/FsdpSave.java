package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code fsdp_save}: FSDP2 ranks write their shards in parallel with torch.distributed.checkpoint.save.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.fsdpSave().threadCount(4);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class FsdpSave extends DcpCheckpoint<FsdpSave> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "FSDP2 ranks write their shards in parallel with torch.distributed.checkpoint.save";

    FsdpSave(Parameters parameters, TorchRun torchRun) {
        super("fsdp_save", DESCRIPTION, parameters, torchRun);
    }

    @Override
    FsdpSave copy(Parameters parameters, TorchRun torchRun) {
        return new FsdpSave(parameters, torchRun);
    }
}
