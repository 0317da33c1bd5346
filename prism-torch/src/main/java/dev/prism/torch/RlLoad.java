package dev.prism.torch;

import dev.prism.Parameters;

/**
 * {@code rl_load}: every rank consolidates the full model from a sharded DCP checkpoint, as RL rollout workers do.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.rlLoad().parameters(100_000_000);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class RlLoad extends TorchCheckpoint<RlLoad> {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "every rank consolidates the full model from a sharded DCP checkpoint, as RL rollout workers do";

    RlLoad(Parameters parameters, TorchRun torchRun) {
        super("rl_load", DESCRIPTION, parameters, torchRun);
    }

    @Override
    RlLoad copy(Parameters parameters, TorchRun torchRun) {
        return new RlLoad(parameters, torchRun);
    }

    /** @param model synthetic, gpt2, llama or bert: a model built whole, which every reader consolidates */
    @Override
    public RlLoad model(TorchModel model) {
        return with(TorchBenchmark.WHOLE_MODEL, model);
    }
}
