package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.Parameters;

import static dev.prism.torch.TorchBenchmark.*;

/**
 * The checkpoints written through {@code torch.distributed.checkpoint} ({@link FsdpSave}, {@link FsdpLoad}): DCP's
 * {@code FileSystemWriter} as training configures it, and {@code dcp.async_save}.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.fsdpSave().singleFilePerRank(false).asyncSave(true);
 * System.out.println(b.parameters());
 * }</pre>
 *
 * @param <B> the benchmark's own type, which every setter returns
 */
public abstract class DcpCheckpoint<B extends DcpCheckpoint<B>> extends ShardedCheckpoint<B> {
    DcpCheckpoint(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, parameters, torchRun);
    }

    @Override
    final boolean fsdp() {
        return true;
    }

    /** Refuses an {@code async_mode} without {@code async_save}, then says what {@link ShardedCheckpoint} says. */
    @Override
    public java.util.Optional<dev.prism.Footprint> footprint(int tasks) {
        TorchAsyncMode mode = parameters().get(ASYNC_MODE);
        if (mode != TorchAsyncMode.THREAD && !parameters().get(ASYNC_SAVE)) {
            throw new IllegalArgumentException("async_mode=" + mode.name().toLowerCase(java.util.Locale.ROOT)
                    + " says how async_save hands the state over; with async_save=false the save is synchronous");
        }
        return super.footprint(tasks);
    }

    @Override
    int extraCopies() {
        return parameters().get(ASYNC_SAVE) ? 1 : 0;
    }

    /** @param single one file per rank and thread; false: one file per tensor */
    public B singleFilePerRank(boolean single) {
        return with(SINGLE_FILE_PER_RANK, single);
    }

    /** @param ahead bytes each writer thread stages ahead of its writes, 0..64 GiB */
    public B perThreadCopyAhead(DataSize ahead) {
        return with(PER_THREAD_COPY_AHEAD, ahead);
    }

    /**
     * @param whole true (the default): rank 0 writes the whole job's {@code .metadata}, as its coordinator does; false:
     *              only the pieces of the ranks played, quicker at tens of thousands of ranks and not the job's cost
     */
    public B jobMetadata(boolean whole) {
        return with(JOB_METADATA, whole);
    }

    /** @param async save with dcp.async_save: training given back before the checkpoint is durable */
    public B asyncSave(boolean async) {
        return with(ASYNC_SAVE, async);
    }

    /** @param mode how async_save takes the state off training's hands (with {@code asyncSave(true)}) */
    public B asyncMode(TorchAsyncMode mode) {
        return with(ASYNC_MODE, mode);
    }
}
