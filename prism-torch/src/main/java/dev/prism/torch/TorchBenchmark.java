package dev.prism.torch;

import dev.prism.AbstractBenchmark;
import dev.prism.DataSize;
import dev.prism.Launcher;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.torch.internal.TorchRunLauncher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One of the PyTorch benchmarks (Table 3 of the paper), run by torchrun with one process per rank
 * executing the real framework code paths: {@code torch.save}/{@code torch.load} and
 * {@code torch.distributed.checkpoint} for model and optimizer state, Hugging Face
 * {@code from_pretrained}, a {@code torch.utils.data.DataLoader}. Each benchmark takes the parameters
 * {@link #parametersOf(String)} lists; a setter for another one fails naming it. Immutable: setters
 * return checked copies.
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
    public static final Parameter<Integer> BATCH = Parameter.ofInt("batch", 4, 1, 4096, "samples", "batch size of the training iteration (hf_load: of the first forward pass)");
    /** DCP writer threads. */
    public static final Parameter<Integer> THREAD_COUNT = Parameter.ofInt("thread_count", 1, 1, 64, "threads",
            "DCP FileSystemWriter thread_count (files per rank)");
    /** DCP writer fsync. */
    public static final Parameter<Boolean> SYNC_FILES = Parameter.ofBoolean("sync_files", true,
            "DCP FileSystemWriter sync_files: fsync each file");
    /** Drop what is read from the page cache before reading it. */
    public static final Parameter<Boolean> DROP_CACHE = Parameter.ofBoolean("drop_cache", false,
            "drop what is read from the page cache before reading it (POSIX_FADV_DONTNEED on every rank): the checkpoint"
                    + " between save and load, the saved model, each epoch's files");
    /** fsdp_load: gather a full state dict after loading. */
    public static final Parameter<Boolean> FULL_STATE_DICT = Parameter.ofBoolean("full_state_dict", false,
            "fsdp_load: also gather the full state dict after loading, timed as 'full_state_dict'");
    /** A fault to inject. */
    public static final Parameter<TorchFault> FAULT = Parameter.ofEnum("fault", TorchFault.class, TorchFault.NONE,
            "none, truncate_shard (before loading) or crash_rank1: qualify how the path fails");
    /** The optimizer whose state the checkpoint holds. */
    public static final Parameter<TorchOptimizer> OPTIMIZER = Parameter.ofEnum("optimizer", TorchOptimizer.class,
            TorchOptimizer.ADAM, "adam (2 state tensors per parameter) or sgd (momentum, 1): saved and loaded with the model");
    /** hf_load's model: a Hugging Face architecture. */
    public static final Parameter<TorchModel> HF_MODEL = Parameter.ofEnum("model", TorchModel.class, TorchModel.GPT2,
            java.util.EnumSet.of(TorchModel.GPT2, TorchModel.LLAMA, TorchModel.BERT),
            "the Hugging Face architecture saved with save_pretrained and loaded with from_pretrained");
    /** hf_load: save_pretrained's max_shard_size. */
    public static final Parameter<DataSize> SHARD_SIZE = Parameter.ofSize("shard_size", DataSize.ofGiB(5),
            DataSize.ofKiB(64), DataSize.ofGiB(1024), "save_pretrained max_shard_size: the largest safetensors file");
    /** dataloader: a kept dataset. */
    public static final Parameter<String> DATASET = Parameter.ofString("dataset", "",
            "a kept dataset's directory (read only; its manifest.json lists the files when present); empty: generate one");
    /** dataloader: files of a generated dataset. */
    public static final Parameter<Integer> FILES = Parameter.ofInt("files", 1000, 1, 100_000_000, "files",
            "files of the generated dataset (without dataset=DIR)");
    /** dataloader: bytes per generated file. */
    public static final Parameter<DataSize> FILE_SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(128),
            DataSize.ofBytes(1), DataSize.ofGiB(1), "bytes of each generated file");
    /** dataloader: layout of a generated dataset. */
    public static final Parameter<TorchDatasetLayout> LAYOUT = Parameter.ofEnum("layout", TorchDatasetLayout.class,
            TorchDatasetLayout.FLAT, "flat (one directory) or sharded (shards subdirectories) for the generated dataset");
    /** dataloader: subdirectories of a sharded generated dataset. */
    public static final Parameter<Integer> SHARDS = Parameter.ofInt("shards", 16, 1, 1_000_000, "directories",
            "subdirectories of a sharded generated dataset");
    /** dataloader: worker processes. */
    public static final Parameter<Integer> NUM_WORKERS = Parameter.ofInt("num_workers", 2, 0, 256, "processes",
            "DataLoader num_workers: reading processes per rank (0: the rank reads itself)");
    /** dataloader: samples per batch. */
    public static final Parameter<Integer> BATCH_SIZE = Parameter.ofInt("batch_size", 16, 1, 65_536, "samples",
            "DataLoader batch_size: files per batch");
    /** dataloader: shuffle. */
    public static final Parameter<Boolean> SHUFFLE = Parameter.ofBoolean("shuffle", true,
            "DistributedSampler shuffle: a new random order every epoch, else the files in order");
    /** dataloader: passes over the dataset. */
    public static final Parameter<Integer> EPOCHS = Parameter.ofInt("epochs", 1, 1, 100_000, "epochs",
            "passes over the dataset (the page cache is dropped before each with drop_cache)");

    /** The checkpoint benchmarks' parameters (ddp_*, fsdp_*, rl_load), in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> CHECKPOINT_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            THREAD_COUNT, SYNC_FILES, DROP_CACHE, FULL_STATE_DICT, FAULT);
    /** hf_load's parameters. */
    public static final List<Parameter<?>> HF_LOAD_PARAMETERS = List.of(HF_MODEL, PARAMS, LAYERS, BATCH, SHARD_SIZE,
            DROP_CACHE);
    /** dataloader's parameters. */
    public static final List<Parameter<?>> DATALOADER_PARAMETERS = List.of(DATASET, FILES, FILE_SIZE, LAYOUT, SHARDS,
            NUM_WORKERS, BATCH_SIZE, SHUFFLE, DROP_CACHE, EPOCHS);

    /** @return the parameters the torch benchmark {@code name} takes */
    public static List<Parameter<?>> parametersOf(String name) {
        return switch (name) {
            case "hf_load" -> HF_LOAD_PARAMETERS;
            case "dataloader" -> DATALOADER_PARAMETERS;
            default -> CHECKPOINT_PARAMETERS;
        };
    }

    private final TorchRun torchRun;
    private final Launcher launcher;

    TorchBenchmark(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, checked(name, parameters));
        this.torchRun = torchRun;
        this.launcher = new TorchRunLauncher(torchRun);
    }

    /** Checks what one parameter's range cannot: dataloader's kept dataset exists. */
    private static Parameters checked(String name, Parameters p) {
        if (name.equals("dataloader") && !p.get(DATASET).isEmpty() && !Files.isDirectory(Path.of(p.get(DATASET)))) {
            throw new IllegalArgumentException("dataset " + p.get(DATASET) + " is not an existing directory");
        }
        return p;
    }

    private <T> TorchBenchmark with(Parameter<T> p, T value) {
        return new TorchBenchmark(name(), description(), parameters().with(p, value), torchRun);
    }

    /** @param model the model (hf_load: gpt2, llama or bert) */
    public TorchBenchmark model(TorchModel model) {
        return with(parameters().declared().contains(HF_MODEL) ? HF_MODEL : MODEL, model);
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

    /** @param optimizer the optimizer whose state the checkpoint holds */
    public TorchBenchmark optimizer(TorchOptimizer optimizer) {
        return with(OPTIMIZER, optimizer);
    }

    /** @param size hf_load: save_pretrained's max_shard_size, 64KiB..1TiB */
    public TorchBenchmark shardSize(DataSize size) {
        return with(SHARD_SIZE, size);
    }

    /** @param directory dataloader: a kept dataset to read (never written); null: generate one in the run */
    public TorchBenchmark dataset(Path directory) {
        return with(DATASET, directory == null ? "" : directory.toAbsolutePath().toString());
    }

    /** @param files dataloader: files of the generated dataset, 1..1e8 */
    public TorchBenchmark files(int files) {
        return with(FILES, files);
    }

    /** @param size dataloader: bytes of each generated file, 1B..1GiB */
    public TorchBenchmark fileSize(DataSize size) {
        return with(FILE_SIZE, size);
    }

    /** @param layout dataloader: layout of the generated dataset */
    public TorchBenchmark layout(TorchDatasetLayout layout) {
        return with(LAYOUT, layout);
    }

    /** @param shards dataloader: subdirectories of a sharded generated dataset, 1..1000000 */
    public TorchBenchmark shards(int shards) {
        return with(SHARDS, shards);
    }

    /** @param workers dataloader: DataLoader num_workers, 0..256 */
    public TorchBenchmark numWorkers(int workers) {
        return with(NUM_WORKERS, workers);
    }

    /** @param size dataloader: DataLoader batch_size, 1..65536 */
    public TorchBenchmark batchSize(int size) {
        return with(BATCH_SIZE, size);
    }

    /** @param shuffle dataloader: whether the DistributedSampler shuffles */
    public TorchBenchmark shuffle(boolean shuffle) {
        return with(SHUFFLE, shuffle);
    }

    /** @param epochs dataloader: passes over the dataset, 1..100000 */
    public TorchBenchmark epochs(int epochs) {
        return with(EPOCHS, epochs);
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
