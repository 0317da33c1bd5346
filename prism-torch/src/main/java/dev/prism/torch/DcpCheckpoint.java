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

    /**
     * Refuses an {@code async_mode} without {@code async_save}, and what the format does not take (consolidation, a
     * file size or mmap for DCP's files; a preset, async_save or an injected truncation for safetensors), then says
     * what {@link ShardedCheckpoint} says.
     */
    @Override
    public java.util.Optional<dev.prism.Footprint> footprint(int tasks) {
        Parameters p = parameters();
        TorchAsyncMode mode = p.get(ASYNC_MODE);
        if (mode != TorchAsyncMode.THREAD && !p.get(ASYNC_SAVE)) {
            throw new IllegalArgumentException("async_mode=" + mode.name().toLowerCase(java.util.Locale.ROOT)
                    + " says how async_save hands the state over; with async_save=false the save is synchronous");
        }
        if (p.get(FORMAT) == TorchCheckpointFormat.DCP) {
            if (p.get(CONSOLIDATE) != TorchConsolidation.NONE || !p.get(SHARD_SIZE).equals(SHARD_SIZE.defaultValue())
                    || p.declared().contains(MMAP) && p.get(MMAP)) {
                throw new IllegalArgumentException("consolidate, shard_size and mmap apply to format=safetensors; DCP's"
                        + " files (format=dcp) are read by dcp.load as written");
            }
        } else {
            if (p.get(MODEL).isPreset()) {
                throw new IllegalArgumentException("format=safetensors saves the weights of a model built whole on every"
                        + " rank; " + p.get(MODEL).label() + " is a preset whose job has ranks not run, whose shards a"
                        + " consolidation needs");
            }
            if (p.get(ASYNC_SAVE) || p.get(FAULT) == TorchFault.TRUNCATE_SHARD
                    || p.get(FAULT) == TorchFault.FLIP_ELEMENT) {
                throw new IllegalArgumentException("async_save, fault=truncate_shard and fault=flip_element apply to"
                        + " format=dcp; format=safetensors saves with dcp.save and merges afterwards");
            }
            if (loads() && (p.get(CONSOLIDATE) == TorchConsolidation.NONE || p.get(FULL_STATE_DICT))) {
                throw new IllegalArgumentException("fsdp_load of format=safetensors loads the full files, as an"
                        + " evaluation or inference job does: give consolidate=one-rank or every-rank, and no"
                        + " full_state_dict");
            }
        }
        return super.footprint(tasks);
    }

    /** @return whether this benchmark loads what it saved */
    boolean loads() {
        return false;
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

    /** @param format DCP's own files (the default) or the model's weights as Hugging Face safetensors */
    public B format(TorchCheckpointFormat format) {
        return with(FORMAT, format);
    }

    /** @param who merges the ranks' safetensors files into full ones (with {@code format(SAFETENSORS)}) */
    public B consolidate(TorchConsolidation who) {
        return with(CONSOLIDATE, who);
    }

    /** @param size the largest full safetensors file a consolidation writes, 64 KiB..1 TiB (default 5 GiB) */
    public B shardSize(DataSize size) {
        return with(SHARD_SIZE, size);
    }

    /** @param mode how async_save takes the state off training's hands (with {@code asyncSave(true)}) */
    public B asyncMode(TorchAsyncMode mode) {
        return with(ASYNC_MODE, mode);
    }
}
