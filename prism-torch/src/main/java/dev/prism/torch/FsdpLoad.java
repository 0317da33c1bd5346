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

    /**
     * Restores the checkpoint into another layout, as a restart on fewer nodes or an evaluation job does: the ranks run
     * play job ranks {@code first_rank}… of this layout and load their pieces resharded from the saved ones; the
     * untimed save before writes the saved job ranks those pieces are read from.
     *
     * @param tp tensor-parallel degree restored into, 1..1024 (0: as saved)
     * @param pp pipeline stages restored into, 1..1024 (0: as saved)
     * @param dp data-parallel degree restored into, 1..1e6 (0: as saved)
     */
    public FsdpLoad restoreInto(int tp, int pp, int dp) {
        return copy(parameters().with(TorchBenchmark.RESTORE_TP, tp).with(TorchBenchmark.RESTORE_PP, pp)
                .with(TorchBenchmark.RESTORE_DP, dp), torchRun());
    }

    @Override
    ParallelLayout restoredInto(ParallelLayout saved) {
        int tp = parameters().get(TorchBenchmark.RESTORE_TP);
        int pp = parameters().get(TorchBenchmark.RESTORE_PP);
        int dp = parameters().get(TorchBenchmark.RESTORE_DP);
        return ParallelLayout.of(tp == 0 ? saved.tp() : tp, pp == 0 ? saved.pp() : pp, dp == 0 ? saved.dp() : dp);
    }

    /** @param loads loads of the last checkpoint one after another, 1..1000 */
    public FsdpLoad loads(int loads) {
        return with(TorchBenchmark.LOADS, loads);
    }
}
