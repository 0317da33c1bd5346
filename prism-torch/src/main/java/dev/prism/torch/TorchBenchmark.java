package dev.prism.torch;

import dev.prism.AbstractBenchmark;
import dev.prism.Launcher;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.torch.internal.TorchRunLauncher;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One of the PyTorch checkpoint benchmarks (Table 3 of the paper), run by torchrun with one process
 * per rank executing the real {@code torch.save}/{@code torch.load} and
 * {@code torch.distributed.checkpoint} code paths. Immutable: setters return checked copies.
 *
 * <pre>{@code
 * var b = dev.prism.torch.TorchBenchmarks.ddpSave().parameters(100_000_000).layers(8);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class TorchBenchmark extends AbstractBenchmark {
    /** The model. */
    public static final Parameter<TorchModel> MODEL = Parameter.ofEnum("model", TorchModel.class, TorchModel.SYNTHETIC,
            "synthetic (linear layers), gpt2, llama or bert (built from their config classes; needs transformers)");
    /** Parameter count. */
    public static final Parameter<Long> PARAMS = Parameter.ofLong("params", 25_000_000, 1_000, 100_000_000_000L,
            "parameters", "model size in parameters, approximately (4 bytes each in fp32)");
    /** Layers. */
    public static final Parameter<Integer> LAYERS = Parameter.ofInt("layers", 4, 1, 1000, "layers", "layers (blocks) of the model");
    /** Batch size of the training iteration. */
    public static final Parameter<Integer> BATCH = Parameter.ofInt("batch", 4, 1, 4096, "samples", "batch size of the training iteration");
    /** DCP writer threads. */
    public static final Parameter<Integer> THREAD_COUNT = Parameter.ofInt("thread_count", 1, 1, 64, "threads",
            "DCP FileSystemWriter thread_count (files per rank)");
    /** DCP writer fsync. */
    public static final Parameter<Boolean> SYNC_FILES = Parameter.ofBoolean("sync_files", true,
            "DCP FileSystemWriter sync_files: fsync each file");
    /** Drop the checkpoint from the page cache before loading. */
    public static final Parameter<Boolean> DROP_CACHE = Parameter.ofBoolean("drop_cache", false,
            "drop the checkpoint from the page cache between save and load (fdatasync + POSIX_FADV_DONTNEED)");
    /** fsdp_load: gather a full state dict after loading. */
    public static final Parameter<Boolean> FULL_STATE_DICT = Parameter.ofBoolean("full_state_dict", false,
            "fsdp_load: also gather the full state dict after loading, timed as 'full_state_dict'");
    /** A fault to inject. */
    public static final Parameter<TorchFault> FAULT = Parameter.ofEnum("fault", TorchFault.class, TorchFault.NONE,
            "none, truncate_shard (before loading) or crash_rank1: qualify how the path fails");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, THREAD_COUNT, SYNC_FILES,
            DROP_CACHE, FULL_STATE_DICT, FAULT);

    private final TorchRun torchRun;
    private final Launcher launcher;

    TorchBenchmark(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, parameters);
        this.torchRun = torchRun;
        this.launcher = new TorchRunLauncher(torchRun);
    }

    private <T> TorchBenchmark with(Parameter<T> p, T value) {
        return new TorchBenchmark(name(), description(), parameters().with(p, value), torchRun);
    }

    /** @param model the model */
    public TorchBenchmark model(TorchModel model) {
        return with(MODEL, model);
    }

    /** @param count parameters, approximately, 1000..1e11 */
    public TorchBenchmark parameters(long count) {
        return with(PARAMS, count);
    }

    /** @param layers layers, 1..1000 */
    public TorchBenchmark layers(int layers) {
        return with(LAYERS, layers);
    }

    /** @param threads DCP writer threads, 1..64 */
    public TorchBenchmark threadCount(int threads) {
        return with(THREAD_COUNT, threads);
    }

    /** @param sync whether DCP fsyncs each file */
    public TorchBenchmark syncFiles(boolean sync) {
        return with(SYNC_FILES, sync);
    }

    /** @param drop whether to drop the checkpoint from the page cache before loading */
    public TorchBenchmark dropCache(boolean drop) {
        return with(DROP_CACHE, drop);
    }

    /** @param full fsdp_load: gather the full state dict after loading */
    public TorchBenchmark fullStateDict(boolean full) {
        return with(FULL_STATE_DICT, full);
    }

    /** @param fault a fault to inject */
    public TorchBenchmark fault(TorchFault fault) {
        return with(FAULT, fault);
    }

    /** @return how torchrun is started */
    public TorchRun torchRun() {
        return torchRun;
    }

    /** @param torchRun how torchrun is started (interpreter, nodes, timeout, environment) */
    public TorchBenchmark torchRun(TorchRun torchRun) {
        return new TorchBenchmark(name(), description(), parameters(), Objects.requireNonNull(torchRun, "torchRun"));
    }

    /** Torch ranks are torchrun's processes, never PRISM workloads. */
    @Override
    public Workload newWorkload() {
        throw new UnsupportedOperationException(name() + " runs its ranks through torchrun (its own launcher)");
    }

    @Override
    public Optional<Launcher> launcher() {
        return Optional.of(launcher);
    }
}
