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

    /** @param async save with dcp.async_save: staging and durability timed apart */
    public B asyncSave(boolean async) {
        return with(ASYNC_SAVE, async);
    }
}
