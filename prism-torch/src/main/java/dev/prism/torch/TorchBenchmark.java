package dev.prism.torch;

import dev.prism.AbstractBenchmark;
import dev.prism.DataSize;
import dev.prism.Launcher;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.SyscallTracing;
import dev.prism.Workload;
import dev.prism.torch.internal.TorchRunLauncher;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the PyTorch benchmarks (Table 3 of the paper) share: torchrun runs them with one process per rank executing
 * the real framework code paths — {@code torch.save}/{@code torch.load} and {@code torch.distributed.checkpoint} for
 * model and optimizer state, Hugging Face {@code from_pretrained}, a {@code torch.utils.data.DataLoader}. Each
 * benchmark has a type of its own ({@link DdpSave}, {@link FsdpLoad}, {@link HfLoad}, {@link Dataloader}…) whose
 * setters are the parameters it takes ({@link #parametersOf(String)}), so one it does not take does not compile.
 * Immutable: setters return checked copies.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmark;
 * import dev.prism.torch.TorchBenchmarks;
 *
 * TorchBenchmark b = TorchBenchmarks.ddpSave().parameters(100_000_000).layers(8);
 * System.out.println(b.name() + " " + b.parameters() + " via " + b.torchRun().python());
 * }</pre>
 */
public abstract class TorchBenchmark extends AbstractBenchmark {
    /** The model. */
    public static final Parameter<TorchModel> MODEL = Parameter.ofEnum("model", TorchModel.class, TorchModel.SYNTHETIC,
            "synthetic (linear layers), gpt2, llama or bert (built whole on every rank, from their config classes; needs"
                    + " transformers), or a preset at its real size: llama3-8b, llama3-70b, llama3-405b (each rank holds only"
                    + " its shard of the job laid out by tp, pp and dp)");
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
            "none, truncate_shard or flip_element (before loading) or crash_rank1: qualify how the path fails");
    /** The optimizer whose state the checkpoint holds. */
    public static final Parameter<TorchOptimizer> OPTIMIZER = Parameter.ofEnum("optimizer", TorchOptimizer.class,
            TorchOptimizer.ADAM, "adam (2 state tensors per parameter) or sgd (momentum, 1): saved and loaded with the model");
    /** hf_load's model: a Hugging Face architecture. */
    public static final Parameter<TorchModel> HF_MODEL = Parameter.ofEnum("model", TorchModel.class, TorchModel.GPT2,
            java.util.EnumSet.of(TorchModel.GPT2, TorchModel.LLAMA, TorchModel.BERT),
            "the Hugging Face architecture saved with save_pretrained and loaded with from_pretrained");
    /** hf_load: save_pretrained's max_shard_size. */
    public static final Parameter<DataSize> SHARD_SIZE = Parameter.ofSize("shard_size", DataSize.ofGiB(5),
            DataSize.ofKiB(64), DataSize.ofGiB(1024), "the largest safetensors file: hf_load's save_pretrained max_shard_size;"
                    + " fsdp_* with format=safetensors, the full files a consolidation writes");
    /** dataloader: a kept dataset. */
    public static final Parameter<String> DATASET = Parameter.ofString("dataset", "",
            "a kept dataset's directory (read only; its manifest.json lists the files when present); empty: generate one");
    /** dataloader: the format of a generated dataset (a kept one's manifest names its own). */
    public static final Parameter<TorchDataFormat> DATA_FORMAT = Parameter.ofEnum("format", TorchDataFormat.class,
            TorchDataFormat.FILES, "files (one file per sample, files and file_size), or a training format of samples"
                    + " and sample_size: parquet (by row group), arrow (datasets, mapped), tar-shards (streamed),"
                    + " indexed (Megatron .bin/.idx, mapped), image-folder (a file per sample in class directories),"
                    + " safetensors (a tensor per sample, by name)");
    /** dataloader of a format: samples of a generated dataset. */
    public static final Parameter<Integer> SAMPLES = Parameter.ofInt("samples", 1000, 1, 100_000_000, "samples",
            "a format's generated dataset: its samples");
    /** dataloader of a format: bytes of each sample. */
    public static final Parameter<DataSize> SAMPLE_SIZE = Parameter.ofSize("sample_size", DataSize.ofKiB(32),
            DataSize.ofBytes(16), DataSize.ofGiB(1), "a format's generated dataset: bytes of each sample (the mean with"
                    + " size_jitter)");
    /** dataloader of a format: the spread of sample sizes. */
    public static final Parameter<Double> SIZE_JITTER = Parameter.ofDouble("size_jitter", 0.0, 0.0, 0.9, "share",
            "a format's generated dataset: each sample's size drawn uniformly within ± this share of sample_size");
    /** dataloader of a format: bytes per shard file. */
    public static final Parameter<DataSize> DATA_SHARD_SIZE = Parameter.ofSize("shard_size", DataSize.ofMiB(64),
            DataSize.ofKiB(4), DataSize.ofGiB(1024), "a format's generated dataset: the largest shard file (parquet,"
                    + " arrow, tar-shards, indexed .bin, safetensors)");
    /** dataloader of parquet: bytes per row group. */
    public static final Parameter<DataSize> ROW_GROUP = Parameter.ofSize("row_group", DataSize.ofMiB(1),
            DataSize.ofKiB(1), DataSize.ofGiB(4), "parquet: the bytes of samples per row group, the unit it is read in");
    /** dataloader of image-folder: class directories. */
    public static final Parameter<Integer> CLASSES = Parameter.ofInt("classes", 100, 1, 1_000_000, "directories",
            "image-folder: class directories the samples are spread over");
    /** dataloader of tar-shards: samples held to shuffle a stream. */
    public static final Parameter<Integer> SHUFFLE_BUFFER = Parameter.ofInt("shuffle_buffer", 1000, 1, 10_000_000,
            "samples", "tar-shards with shuffle: WebDataset's shuffle buffer, samples held per worker");
    /** dataloader of safetensors: mmap or pread. */
    public static final Parameter<Boolean> DATA_MMAP = Parameter.ofBoolean("mmap", true,
            "safetensors: each tensor by safe_open's mmap (true) or by pread at its offsets (false)");
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
            "DataLoader batch_size: samples per batch");
    /** dataloader: shuffle. */
    public static final Parameter<Boolean> SHUFFLE = Parameter.ofBoolean("shuffle", true,
            "a new random order every epoch (of the files, or of a format's row groups, shards or samples), else in order");
    /** dataloader: passes over the dataset. */
    public static final Parameter<Integer> EPOCHS = Parameter.ofInt("epochs", 1, 1, 100_000, "epochs",
            "passes over the dataset (the page cache is dropped before each with drop_cache)");

    /** rl_load's model: one built whole, which every reader consolidates. */
    public static final Parameter<TorchModel> WHOLE_MODEL = Parameter.ofEnum("model", TorchModel.class, TorchModel.SYNTHETIC,
            java.util.EnumSet.of(TorchModel.SYNTHETIC, TorchModel.GPT2, TorchModel.LLAMA, TorchModel.BERT),
            "synthetic (linear layers), gpt2, llama or bert: the model every reader consolidates whole");
    /** A preset's weight precision. */
    public static final Parameter<TorchPrecision> PRECISION = Parameter.ofEnum("precision", TorchPrecision.class,
            TorchPrecision.MIXED, "presets: mixed (bf16 weights and an fp32 master copy: 14 bytes per parameter with Adam),"
                    + " bf16 (10) or fp32 (12)");
    /** A preset's tensor-parallel degree. */
    public static final Parameter<Integer> TP = Parameter.ofInt("tp", 1, 1, 1024, "ranks",
            "presets: the full job's tensor-parallel degree");
    /** A preset's pipeline stages. */
    public static final Parameter<Integer> PP = Parameter.ofInt("pp", 1, 1, 1024, "stages",
            "presets: the full job's pipeline-parallel stages");
    /** A preset's data-parallel degree. */
    public static final Parameter<Integer> DP = Parameter.ofInt("dp", 0, 0, 1_000_000, "ranks",
            "presets: the full job's data-parallel (FSDP) degree; 0: the ranks run ÷ (tp × pp), a job of exactly those ranks");
    /** The job rank local rank 0 plays. */
    public static final Parameter<Integer> FIRST_RANK = Parameter.ofInt("first_rank", 0, 0, 100_000_000, "rank",
            "presets: the full job's rank that rank 0 plays; rank i plays first_rank + i");
    /** fsdp_*: whether rank 0 writes the whole job's .metadata or only the pieces of the ranks played. */
    public static final Parameter<Boolean> JOB_METADATA = Parameter.ofBoolean("job_metadata", true,
            "presets under DCP: rank 0 writes the .metadata the whole job's coordinator writes, every rank's pieces in it"
                    + " (its size, planning and load cost grow with the job's ranks); false: only the pieces of the ranks"
                    + " played (quicker at tens of thousands of ranks, and not the job's restart cost)");
    /** fsdp_load: the tensor-parallel degree restored into. */
    public static final Parameter<Integer> RESTORE_TP = Parameter.ofInt("restore_tp", 0, 0, 1024, "ranks",
            "fsdp_load: the tensor-parallel degree of the layout the checkpoint is restored into; 0: as saved (tp)");
    /** fsdp_load: the pipeline stages restored into. */
    public static final Parameter<Integer> RESTORE_PP = Parameter.ofInt("restore_pp", 0, 0, 1024, "stages",
            "fsdp_load: the pipeline stages of the layout restored into; 0: as saved (pp)");
    /** fsdp_load: the data-parallel degree restored into. */
    public static final Parameter<Integer> RESTORE_DP = Parameter.ofInt("restore_dp", 0, 0, 1_000_000, "ranks",
            "fsdp_load: the data-parallel degree of the layout restored into (a restart on fewer nodes, evaluation);"
                    + " 0: as saved (dp)");
    /** Checkpoints written. */
    public static final Parameter<Integer> SAVES = Parameter.ofInt("saves", 1, 1, 1000, "checkpoints",
            "checkpoints written one after another (each into a fresh directory; the one before removed, untimed, once the next is whole)");
    /** Loads of the last checkpoint. */
    public static final Parameter<Integer> LOADS = Parameter.ofInt("loads", 1, 1, 1000, "loads",
            "loads of the last checkpoint one after another (with drop_cache each from a dropped page cache)");
    /** DCP writer: one file per rank (per thread) or one per tensor. */
    public static final Parameter<Boolean> SINGLE_FILE_PER_RANK = Parameter.ofBoolean("single_file_per_rank", true,
            "DCP FileSystemWriter single_file_per_rank: one file per rank and thread; false: one file per tensor");
    /** DCP writer: bytes each thread copies ahead. */
    public static final Parameter<DataSize> PER_THREAD_COPY_AHEAD = Parameter.ofSize("per_thread_copy_ahead",
            DataSize.ofBytes(10_000_000), DataSize.ofBytes(0), DataSize.ofGiB(64),
            "DCP FileSystemWriter per_thread_copy_ahead: bytes each writer thread stages ahead of its writes");
    /** DCP async_save. */
    public static final Parameter<Boolean> ASYNC_SAVE = Parameter.ofBoolean("async_save", false,
            "save with dcp.async_save (async_mode says how): training is given back before the checkpoint is durable;"
                    + " the four clocks of every save (blocked, staged, durable, visible) show when, the staging memory recorded");
    /** DCP async_save: how the state is taken off training's hands. */
    public static final Parameter<TorchAsyncMode> ASYNC_MODE = Parameter.ofEnum("async_mode", TorchAsyncMode.class,
            TorchAsyncMode.THREAD, "with async_save: thread (copy to CPU, write from a thread), process (copy, write"
                    + " from a process DCP keeps) or staged (DefaultStager: pinned memory on a CUDA stream, returns before"
                    + " staging ends; needs a GPU)");
    /** ddp_load: one replica reads each model-parallel shard and broadcasts it to the others. */
    public static final Parameter<Boolean> REPLICA_BROADCAST = Parameter.ofBoolean("replica_broadcast", false,
            "ddp_load of a preset: the first rank run with each model-parallel shard reads it and broadcasts it to the"
                    + " replicas among the ranks run, instead of every replica reading it from storage");
    /** fsdp_*: DCP's own files, or the model's weights as Hugging Face safetensors. */
    public static final Parameter<TorchCheckpointFormat> FORMAT = Parameter.ofEnum("format", TorchCheckpointFormat.class,
            TorchCheckpointFormat.DCP, "dcp: DCP's files of model and optimizer state; safetensors: the model's weights"
                    + " through DCP's HuggingFaceStorageWriter, a file per rank (models built whole)");
    /** fsdp_* with format=safetensors: who merges the ranks' files into full ones. */
    public static final Parameter<TorchConsolidation> CONSOLIDATE = Parameter.ofEnum("consolidate",
            TorchConsolidation.class, TorchConsolidation.NONE, "format=safetensors: merge the ranks' files into full"
                    + " files of at most shard_size, by rank 0 alone (one-rank) or each rank its share (every-rank);"
                    + " timed apart (consolidate, and consolidated: until every full file is written)");
    /** fsdp_load: PRISM's procedure or MLPerf Storage's. */
    public static final Parameter<TorchProcedure> PROCEDURE = Parameter.ofEnum("procedure", TorchProcedure.class,
            TorchProcedure.PRISM, "prism: the save untimed, the loads timed; mlperf: MLPerf Storage v3's checkpointing"
                    + " (saves checkpoints kept, the page cache dropped on every node, each read once within 30 s of the"
                    + " last write; duration the slowest rank's, throughput the lowest rank's)");
    /** fsdp_load with procedure=mlperf: one accelerator's memory, which the job's accelerators must hold the checkpoint in. */
    public static final Parameter<DataSize> ACCELERATOR_MEMORY = Parameter.ofSize("accelerator_memory", DataSize.ofGiB(80),
            DataSize.ofGiB(1), DataSize.ofGiB(100_000), "procedure=mlperf: one accelerator's memory; the job's ranks"
                    + " × this must hold its checkpoint (MLPerf Storage v3 rule 4.3.4; 80 for H100 and A100, 180 for B200,"
                    + " 288 for MI355)");
    /** ddp_load: torch.load through mmap. */
    public static final Parameter<Boolean> MMAP = Parameter.ofBoolean("mmap", false,
            "ddp_load: torch.load(mmap=True); fsdp_load with format=safetensors: safetensors' load_file; both map the"
                    + " checkpoint and fault its pages in, instead of reading it");
    /** hf_load: safetensors through mmap. */
    public static final Parameter<Boolean> HF_MMAP = Parameter.ofBoolean("mmap", true,
            "safetensors through mmap (from_pretrained's default); false: each file read into memory first (disable_mmap)");

    /** Nodes torchrun runs on: one agent per node through srun, inside a SLURM allocation. */
    public static final Parameter<Integer> NODES = Parameter.ofInt("nodes", 1, 1, 100_000, "nodes",
            "nodes torchrun runs on, one agent per node through srun inside a SLURM allocation (sbatch or salloc); the"
                    + " task count counts ranks on all of them, the same number on each");

    /** Attribution of the file system calls the ranks make in timed blocks ({@link SyscallTracing}) */
    public static final Parameter<SyscallTracing> SYSCALLS = SyscallTracing.PARAMETER;

    /** What every checkpoint benchmark takes (ddp_*, fsdp_*, rl_load), in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> CHECKPOINT_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            THREAD_COUNT, SYNC_FILES, DROP_CACHE, FAULT, NODES, SYSCALLS);
    /** rl_load's parameters. */
    public static final List<Parameter<?>> RL_LOAD_PARAMETERS = List.of(WHOLE_MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            THREAD_COUNT, SYNC_FILES, DROP_CACHE, FAULT, NODES, SYSCALLS);
    /** ddp_save's parameters. */
    public static final List<Parameter<?>> DDP_SAVE_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            PRECISION, TP, PP, DP, FIRST_RANK, SAVES, DROP_CACHE, FAULT, NODES, SYSCALLS);
    /** ddp_load's parameters. */
    public static final List<Parameter<?>> DDP_LOAD_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            PRECISION, TP, PP, DP, FIRST_RANK, SAVES, LOADS, MMAP, REPLICA_BROADCAST, DROP_CACHE, FAULT, NODES, SYSCALLS);
    /** fsdp_save's parameters. */
    public static final List<Parameter<?>> FSDP_SAVE_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            PRECISION, TP, PP, DP, FIRST_RANK, JOB_METADATA, SAVES, THREAD_COUNT, SINGLE_FILE_PER_RANK, SYNC_FILES,
            PER_THREAD_COPY_AHEAD, ASYNC_SAVE, ASYNC_MODE, FORMAT, CONSOLIDATE, SHARD_SIZE, DROP_CACHE, FAULT, NODES,
            SYSCALLS);
    /** fsdp_load's parameters. */
    public static final List<Parameter<?>> FSDP_LOAD_PARAMETERS = List.of(MODEL, PARAMS, LAYERS, BATCH, OPTIMIZER,
            PRECISION, TP, PP, DP, FIRST_RANK, JOB_METADATA, RESTORE_TP, RESTORE_PP, RESTORE_DP, SAVES, LOADS, THREAD_COUNT,
            SINGLE_FILE_PER_RANK, SYNC_FILES, PER_THREAD_COPY_AHEAD, ASYNC_SAVE, ASYNC_MODE, FORMAT, CONSOLIDATE, SHARD_SIZE,
            MMAP, PROCEDURE, ACCELERATOR_MEMORY, DROP_CACHE, FULL_STATE_DICT, FAULT, NODES, SYSCALLS);
    /** hf_load's parameters. */
    public static final List<Parameter<?>> HF_LOAD_PARAMETERS = List.of(HF_MODEL, PARAMS, LAYERS, BATCH, SHARD_SIZE,
            HF_MMAP, DROP_CACHE, NODES, SYSCALLS);
    /** dataloader's parameters. */
    public static final List<Parameter<?>> DATALOADER_PARAMETERS = List.of(DATASET, DATA_FORMAT, FILES, FILE_SIZE, LAYOUT,
            SHARDS, SAMPLES, SAMPLE_SIZE, SIZE_JITTER, DATA_SHARD_SIZE, ROW_GROUP, CLASSES, SHUFFLE_BUFFER, DATA_MMAP,
            NUM_WORKERS, BATCH_SIZE, SHUFFLE, DROP_CACHE, EPOCHS, NODES, SYSCALLS);

    /** @return the parameters the torch benchmark {@code name} takes */
    public static List<Parameter<?>> parametersOf(String name) {
        return TorchBenchmarks.parametersOf(name);
    }

    private final TorchRun torchRun;
    private final Launcher launcher;

    TorchBenchmark(String name, String description, Parameters parameters, TorchRun torchRun) {
        super(name, description, parameters);
        Objects.requireNonNull(torchRun, "torchRun");
        // the nodes parameter is what a run records and what a sweep or the command line sets; torchrun follows it
        this.torchRun = torchRun.nodes() == parameters.get(NODES) ? torchRun
                : torchRun.toBuilder().nodes(parameters.get(NODES)).build();
        this.launcher = new TorchRunLauncher(this.torchRun);
    }

    /** @return a copy of this benchmark with these parameters and torchrun */
    abstract TorchBenchmark copy(Parameters parameters, TorchRun torchRun);

    /** @return a copy with {@code parameters}, started by the same torchrun (its nodes following {@code nodes}) */
    @Override
    protected TorchBenchmark with(Parameters parameters) {
        return copy(parameters, torchRun);
    }

    /** @return a copy with {@code values} (text, by parameter name), each checked, started by the same torchrun */
    @Override
    public TorchBenchmark withText(java.util.Map<String, String> values) {
        return (TorchBenchmark) super.withText(values);
    }

    /** @return how torchrun is started */
    public TorchRun torchRun() {
        return torchRun;
    }

    /** @param torchRun how torchrun is started (interpreter, nodes, timeout, environment); its nodes become {@code nodes} */
    public TorchBenchmark torchRun(TorchRun torchRun) {
        Objects.requireNonNull(torchRun, "torchRun");
        return copy(parameters().with(NODES, torchRun.nodes()), torchRun);
    }

    /**
     * Checks, before any work, that torchrun can spread {@code tasks} ranks evenly over its nodes.
     *
     * @return nothing known before it runs, for benchmarks other than the presets' checkpoints
     * @throws IllegalArgumentException when {@code tasks} is not a multiple of {@code nodes}
     */
    @Override
    public Optional<dev.prism.Footprint> footprint(int tasks) {
        int nodes = torchRun.nodes();
        if (tasks % nodes != 0) {
            throw new IllegalArgumentException("nodes " + nodes + ": torchrun runs the same number of ranks on each node,"
                    + " so the task count must be a multiple of " + nodes + ", was " + tasks);
        }
        return Optional.empty();
    }

    /**
     * @return every parameter, but {@code nodes} on one node and a restore layout that is the saved one
     *         ({@code restore_tp}, {@code restore_pp}, {@code restore_dp} at 0): results written before they were
     *         parameters hold the same configuration, and a comparison, a gate or a history pairs them with these by
     *         their parameters
     */
    @Override
    public java.util.Map<String, String> recordedParameters() {
        java.util.Map<String, String> recorded = new java.util.LinkedHashMap<>(parameters().asText());
        for (Parameter<?> added : List.of(NODES, REPLICA_BROADCAST, RESTORE_TP, RESTORE_PP, RESTORE_DP, FORMAT, CONSOLIDATE,
                PROCEDURE)) {
            if (parameters().declared().contains(added) && parameters().get(added).equals(added.defaultValue())) {
                recorded.remove(added.name());
            }
        }
        if (recorded.containsKey(ASYNC_MODE.name()) && !parameters().get(ASYNC_SAVE)) {
            recorded.remove(ASYNC_MODE.name());
        }
        if (parameters().declared().contains(PROCEDURE) && parameters().get(PROCEDURE) != TorchProcedure.MLPERF) {
            recorded.remove(ACCELERATOR_MEMORY.name());
        }
        if (parameters().declared().contains(FORMAT) && parameters().get(FORMAT) == TorchCheckpointFormat.DCP) {
            // the safetensors files' size and loading apply to format=safetensors only
            recorded.remove(SHARD_SIZE.name());
            recorded.remove(MMAP.name());
        }
        return recorded;
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
