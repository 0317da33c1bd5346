package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.SyscallTracing;

import static dev.prism.torch.TorchBenchmark.*;

/**
 * {@code hf_load}: every rank loads a Hugging Face model saved on the target (safetensors) with
 * {@code from_pretrained}, then runs its first forward pass.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchModel;
 *
 * var b = TorchBenchmarks.hfLoad().model(TorchModel.LLAMA).parameters(100_000_000);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class HfLoad extends TorchBenchmark {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "every rank loads a Hugging Face model saved on the target (safetensors) with"
            + " from_pretrained, then runs its first forward pass";

    HfLoad(Parameters parameters, TorchRun torchRun) {
        super("hf_load", DESCRIPTION, parameters, torchRun);
    }

    @Override
    HfLoad copy(Parameters parameters, TorchRun torchRun) {
        return new HfLoad(parameters, torchRun);
    }

    private <T> HfLoad with(Parameter<T> p, T value) {
        return copy(parameters().with(p, value), torchRun());
    }

    @Override
    public HfLoad torchRun(TorchRun torchRun) {
        return (HfLoad) super.torchRun(torchRun);
    }

    /** @param model gpt2, llama or bert */
    public HfLoad model(TorchModel model) {
        return with(HF_MODEL, model);
    }

    /** @param count parameters, approximately, 1000..1e11 */
    public HfLoad parameters(long count) {
        return with(PARAMS, count);
    }

    /** @param layers layers, 1..1000 */
    public HfLoad layers(int layers) {
        return with(LAYERS, layers);
    }

    /** @param batch batch size of the first forward pass, 1..4096 */
    public HfLoad batch(int batch) {
        return with(BATCH, batch);
    }

    /** @param size save_pretrained's max_shard_size, 64KiB..1TiB */
    public HfLoad shardSize(DataSize size) {
        return with(SHARD_SIZE, size);
    }

    /**
     * @param tracing whether and how the file system calls of the timed phase are attributed ({@link SyscallTracing}):
     *                off (the default), auto, kernel (bpftrace, root) or python (interposition in each rank)
     */
    public HfLoad syscalls(SyscallTracing tracing) {
        return with(SYSCALLS, tracing);
    }

    /** @param drop whether to drop the saved model from the page cache before loading */
    public HfLoad dropCache(boolean drop) {
        return with(DROP_CACHE, drop);
    }

    /** @param mmap load safetensors through mmap (from_pretrained's default); false: read each file into memory first */
    public HfLoad mmap(boolean mmap) {
        return with(HF_MMAP, mmap);
    }
}
