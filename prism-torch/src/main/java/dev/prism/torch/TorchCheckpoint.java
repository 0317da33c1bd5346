package dev.prism.torch;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.SyscallTracing;

import static dev.prism.torch.TorchBenchmark.*;

/**
 * What the checkpoint benchmarks share ({@link DdpSave}, {@link DdpLoad}, {@link FsdpSave}, {@link FsdpLoad},
 * {@link RlLoad}): a model of a size with its optimizer state, DCP's writer settings, page-cache bypass and faults.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var save = TorchBenchmarks.fsdpSave().parameters(50_000_000).threadCount(4).syncFiles(true);
 * System.out.println(save.parameters());
 * }</pre>
 *
 * @param <B> the benchmark's own type, which every setter returns
 */
public abstract class TorchCheckpoint<B extends TorchCheckpoint<B>> extends TorchBenchmark {
    TorchCheckpoint(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, parameters, torchRun);
    }

    @Override
    abstract B copy(Parameters parameters, TorchRun torchRun);

    final <T> B with(Parameter<T> p, T value) {
        return copy(parameters().with(p, value), torchRun());
    }

    @Override
    @SuppressWarnings("unchecked")
    public B torchRun(TorchRun torchRun) {
        return (B) super.torchRun(torchRun);
    }

    /** @param model synthetic (linear layers), gpt2, llama or bert */
    public B model(TorchModel model) {
        return with(MODEL, model);
    }

    /** @param count parameters, approximately, 1000..1e11 */
    public B parameters(long count) {
        return with(PARAMS, count);
    }

    /** @param layers layers, 1..1000 */
    public B layers(int layers) {
        return with(LAYERS, layers);
    }

    /** @param batch batch size of the training iteration, 1..4096 */
    public B batch(int batch) {
        return with(BATCH, batch);
    }

    /** @param optimizer the optimizer whose state the checkpoint holds */
    public B optimizer(TorchOptimizer optimizer) {
        return with(OPTIMIZER, optimizer);
    }

    /** @param threads DCP writer threads (files per rank), 1..64 */
    public B threadCount(int threads) {
        return with(THREAD_COUNT, threads);
    }

    /** @param sync whether DCP fsyncs each file */
    public B syncFiles(boolean sync) {
        return with(SYNC_FILES, sync);
    }

    /**
     * @param tracing whether and how the file system calls of the timed phase are attributed ({@link SyscallTracing}):
     *                off (the default), auto, kernel (bpftrace, root) or python (interposition in each rank)
     */
    public B syscalls(SyscallTracing tracing) {
        return with(SYSCALLS, tracing);
    }

    /** @param drop whether to drop the checkpoint from the page cache before loading */
    public B dropCache(boolean drop) {
        return with(DROP_CACHE, drop);
    }

    /** @param fault a fault to inject */
    public B fault(TorchFault fault) {
        return with(FAULT, fault);
    }
}
