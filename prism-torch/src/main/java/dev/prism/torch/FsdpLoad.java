package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.Parameters;

/**
 * {@code fsdp_load}: FSDP2 ranks load their shards with torch.distributed.checkpoint.load and verify every tensor
 * against its digest at save time; with {@code format=safetensors}, every rank loads the consolidated Hugging Face
 * files, through mmap or by reading them.
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
    static final String DESCRIPTION = "FSDP2 ranks load their shards with torch.distributed.checkpoint.load and verify"
            + " every tensor against its digest at save time";

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

    /** @param mmap with format=safetensors, load the full files through safetensors' mmap instead of reading them */
    public FsdpLoad mmap(boolean mmap) {
        return with(TorchBenchmark.MMAP, mmap);
    }

    @Override
    boolean loads() {
        return true;
    }

    /**
     * @param procedure PRISM's (the save untimed, the loads timed) or MLPerf Storage v3's checkpointing
     *                  ({@link TorchProcedure#MLPERF}: every save and every read timed, each checkpoint kept and read once)
     */
    public FsdpLoad procedure(TorchProcedure procedure) {
        return with(TorchBenchmark.PROCEDURE, procedure);
    }

    /** @param memory one accelerator's memory, 1 GiB..100,000 GiB: with procedure=mlperf the job's ranks × this must hold its checkpoint */
    public FsdpLoad acceleratorMemory(DataSize memory) {
        return with(TorchBenchmark.ACCELERATOR_MEMORY, memory);
    }

    @Override
    int checkpointsHeld() {
        // MLPerf's read phase reads every checkpoint the write phase wrote
        return mlperf() ? parameters().get(TorchBenchmark.SAVES) : super.checkpointsHeld();
    }

    private boolean mlperf() {
        return parameters().get(TorchBenchmark.PROCEDURE) == TorchProcedure.MLPERF;
    }

    /**
     * With procedure=mlperf, refuses what MLPerf Storage v3's rules refuse or what the procedure does not do: a model
     * that is no preset, a subset of the job's ranks for any model but llama3-8b (rule 4.3.5), accelerators that
     * cannot hold the checkpoint (rule 4.3.4, naming both figures), a restore into another layout, {@code loads}
     * (each checkpoint is read once), asynchronous saves, safetensors, and writes without fsync (rule 4.3.2).
     */
    @Override
    public java.util.Optional<dev.prism.Footprint> footprint(int tasks) {
        Parameters p = parameters();
        if (!mlperf()) {
            if (!p.get(TorchBenchmark.ACCELERATOR_MEMORY).equals(TorchBenchmark.ACCELERATOR_MEMORY.defaultValue())) {
                throw new IllegalArgumentException("accelerator_memory is MLPerf's check that the job's accelerators"
                        + " hold its checkpoint: it applies to procedure=mlperf");
            }
            return super.footprint(tasks);
        }
        TorchModel model = p.get(TorchBenchmark.MODEL);
        if (!model.isPreset()) {
            throw new IllegalArgumentException("procedure=mlperf runs MLPerf Storage's checkpointing of a preset"
                    + " (llama3-8b, llama3-70b, llama3-405b); " + model.label() + " is built whole on every rank");
        }
        if (p.get(TorchBenchmark.RESTORE_TP) != 0 || p.get(TorchBenchmark.RESTORE_PP) != 0
                || p.get(TorchBenchmark.RESTORE_DP) != 0 || p.get(TorchBenchmark.LOADS) != 1
                || p.get(TorchBenchmark.ASYNC_SAVE) || p.get(TorchBenchmark.FORMAT) != TorchCheckpointFormat.DCP
                || !p.get(TorchBenchmark.SYNC_FILES) || p.get(TorchBenchmark.FULL_STATE_DICT)) {
            throw new IllegalArgumentException("procedure=mlperf writes saves checkpoints with dcp.save and fsync, then"
                    + " reads each once at the layout saved; restore_tp/pp/dp, loads, async_save, format=safetensors,"
                    + " sync_files=false and full_state_dict do not apply");
        }
        if (!p.get(TorchBenchmark.DROP_CACHE)) {
            throw new IllegalArgumentException("procedure=mlperf reads its checkpoints back from storage, the page cache"
                    + " dropped on every node between its write and read phases: give drop_cache=true");
        }
        ParallelLayout layout = layout(tasks);
        if (tasks < layout.world() && model != TorchModel.LLAMA3_8B) {
            throw new IllegalArgumentException("MLPerf Storage v3 defines a subset run only for llama3-8b (rule 4.3.5): "
                    + model.label() + " runs every rank of its job, " + layout.world() + " at " + layout + ", not "
                    + tasks + "; or use procedure=prism, which plays any of the job's ranks");
        }
        long checkpoint = model.parameterCount() * p.get(TorchBenchmark.PRECISION).bytesPerParameter(p.get(TorchBenchmark.OPTIMIZER));
        DataSize each = p.get(TorchBenchmark.ACCELERATOR_MEMORY);
        double held = (double) each.bytes() * layout.world();
        if (held < checkpoint) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the job's %d accelerators of %s hold"
                    + " %s, less than its %s checkpoint (%s %s); MLPerf Storage v3 requires the accelerators' memory to"
                    + " hold it (rule 4.3.4): give a larger accelerator_memory or more data-parallel ranks",
                    layout.world(), each, dev.prism.spi.Formats.bytes((long) held), dev.prism.spi.Formats.bytes(checkpoint),
                    model.label(), layout));
        }
        return super.footprint(tasks);
    }

    /** @param loads loads of the last checkpoint one after another, 1..1000 */
    public FsdpLoad loads(int loads) {
        return with(TorchBenchmark.LOADS, loads);
    }
}
