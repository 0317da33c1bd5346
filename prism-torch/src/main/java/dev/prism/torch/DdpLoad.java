package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code ddp_load}: all ranks torch.load the same checkpoint, train an iteration and verify a parameter checksum.
 *
 * <pre>{@code
 * var b = dev.prism.torch.TorchBenchmarks.ddpLoad().parameters(50_000_000).dropCache(true);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class DdpLoad extends TorchCheckpoint<DdpLoad> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "all ranks torch.load the same checkpoint, train an iteration and verify a parameter checksum";

    DdpLoad(Parameters parameters, TorchRun torchRun) {
        super("ddp_load", DESCRIPTION, parameters, torchRun);
    }

    @Override
    DdpLoad copy(Parameters parameters, TorchRun torchRun) {
        return new DdpLoad(parameters, torchRun);
    }
}
