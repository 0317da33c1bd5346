package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code fsdp_load}: FSDP2 ranks load their shards with torch.distributed.checkpoint.load and verify a checksum.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.fsdpLoad().fullStateDict(true);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class FsdpLoad extends DcpCheckpoint<FsdpLoad> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "FSDP2 ranks load their shards with torch.distributed.checkpoint.load and verify a checksum";

    FsdpLoad(Parameters parameters, TorchRun torchRun) {
        super("fsdp_load", DESCRIPTION, parameters, torchRun);
    }

    @Override
    FsdpLoad copy(Parameters parameters, TorchRun torchRun) {
        return new FsdpLoad(parameters, torchRun);
    }

    /** @param full also gather the full state dict after loading, timed as {@code full_state_dict} */
    public FsdpLoad fullStateDict(boolean full) {
        return with(TorchBenchmark.FULL_STATE_DICT, full);
    }

    /** @param loads loads of the last checkpoint one after another, 1..1000 */
    public FsdpLoad loads(int loads) {
        return with(TorchBenchmark.LOADS, loads);
    }
}
