package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.SyscallTracing;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.prism.torch.TorchBenchmark.*;

/**
 * {@code dataloader}: every rank reads its DistributedSampler share of a dataset's files through a torch
 * {@code DataLoader} with worker processes: a dataset generated in the run, or a kept one. With a {@link #format}
 * other than files it reads a training format as training does ({@link TorchDataFormat}): each rank its share of the
 * epoch's units (row groups, tar shards or samples), every sample delivered checked against its seed's size and
 * CRC-32, the ranks together handed each sample once per epoch. It records each sample's and batch's latency, the
 * bytes delivered, and the kernel's counts beside them: {@code storage_read_bytes} and page faults of the rank and its
 * workers, for the read amplification.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var b = TorchBenchmarks.dataloader().files(200).fileSize(DataSize.ofKiB(64)).numWorkers(2).epochs(2);
 * System.out.println(b.name() + " " + b.parameters());
 * }</pre>
 */
public final class Dataloader extends TorchBenchmark {
    /** What it does, as {@code prism list} says it. */
    static final String DESCRIPTION = "every rank reads its share of a dataset through a torch DataLoader with worker"
            + " processes: files, or a training format (parquet, arrow, tar shards, indexed, image folder, safetensors)";

    Dataloader(Parameters parameters, TorchRun torchRun) {
        super("dataloader", DESCRIPTION, checked(parameters), torchRun);
    }

    /**
     * Checks what one parameter's range cannot: a kept dataset exists; one of a training format sets the format and
     * the sample parameters to its manifest's, so what a run prints and records is the dataset read.
     */
    private static Parameters checked(Parameters p) {
        if (p.get(DATASET).isEmpty()) {
            return p;
        }
        Path dir = Path.of(p.get(DATASET));
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("dataset " + p.get(DATASET) + " is not an existing directory");
        }
        if (!TorchDataset.presentIn(dir)) {
            if (p.get(DATA_FORMAT) != TorchDataFormat.FILES) {
                throw new IllegalArgumentException("dataset " + dir + " holds no prism-dataset.json, so it is a dataset of"
                        + " files, not format " + p.get(DATA_FORMAT).text());
            }
            return p;
        }
        TorchDataset kept;
        try {
            kept = TorchDataset.read(dir);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("dataset " + dir + ": cannot read its prism-dataset.json: " + e.getMessage());
        }
        if (p.get(DATA_FORMAT) != TorchDataFormat.FILES && p.get(DATA_FORMAT) != kept.format()) {
            throw new IllegalArgumentException("dataset " + dir + " is a " + kept.format().text()
                    + " dataset, not format " + p.get(DATA_FORMAT).text());
        }
        return p.with(DATA_FORMAT, kept.format()).with(SAMPLES, kept.samples()).with(SAMPLE_SIZE, kept.sampleSize())
                .with(SIZE_JITTER, kept.sizeJitter()).with(DATA_SHARD_SIZE, kept.shardSize())
                .with(ROW_GROUP, kept.rowGroup()).with(CLASSES, kept.classes());
    }

    /**
     * @return the parameters of the dataset read: a dataset of files records those of files (as before formats were
     *         a parameter, so earlier results pair with it), one of a format its samples and the settings of that
     *         format only
     */
    @Override
    public java.util.Map<String, String> recordedParameters() {
        java.util.Map<String, String> recorded = super.recordedParameters();
        TorchDataFormat format = parameters().get(DATA_FORMAT);
        java.util.List<Parameter<?>> unused = new java.util.ArrayList<>();
        if (format == TorchDataFormat.FILES) {
            unused.addAll(java.util.List.of(DATA_FORMAT, SAMPLES, SAMPLE_SIZE, SIZE_JITTER, DATA_SHARD_SIZE, ROW_GROUP,
                    CLASSES, SHUFFLE_BUFFER, DATA_MMAP));
        } else {
            unused.addAll(java.util.List.of(FILES, FILE_SIZE, LAYOUT, SHARDS));
            if (format != TorchDataFormat.PARQUET) {
                unused.add(ROW_GROUP);
            }
            if (format != TorchDataFormat.IMAGE_FOLDER) {
                unused.add(CLASSES);
            } else {
                unused.add(DATA_SHARD_SIZE);
            }
            if (format != TorchDataFormat.TAR_SHARDS) {
                unused.add(SHUFFLE_BUFFER);
            }
            if (format != TorchDataFormat.SAFETENSORS) {
                unused.add(DATA_MMAP);
            }
        }
        unused.forEach(p -> recorded.remove(p.name()));
        return recorded;
    }

    @Override
    Dataloader copy(Parameters parameters, TorchRun torchRun) {
        return new Dataloader(parameters, torchRun);
    }

    private <T> Dataloader with(Parameter<T> p, T value) {
        return copy(parameters().with(p, value), torchRun());
    }

    @Override
    public Dataloader torchRun(TorchRun torchRun) {
        return (Dataloader) super.torchRun(torchRun);
    }

    /** @param directory a kept dataset to read (never written); null: generate one in the run */
    public Dataloader dataset(Path directory) {
        return with(DATASET, directory == null ? "" : directory.toAbsolutePath().toString());
    }

    /** @param format the format of the generated dataset ({@link TorchDataFormat}; a kept dataset's manifest names its own) */
    public Dataloader format(TorchDataFormat format) {
        return with(DATA_FORMAT, format);
    }

    /** @param samples samples of a format's generated dataset, 1..1e8 */
    public Dataloader samples(int samples) {
        return with(SAMPLES, samples);
    }

    /** @param size bytes of each sample of a format's generated dataset (the mean with a jitter), 16B..1GiB */
    public Dataloader sampleSize(DataSize size) {
        return with(SAMPLE_SIZE, size);
    }

    /** @param jitter each sample's size drawn uniformly within ± this share of the sample size, 0..0.9 */
    public Dataloader sizeJitter(double jitter) {
        return with(SIZE_JITTER, jitter);
    }

    /** @param size the largest shard file of a format's generated dataset, 4KiB..1TiB */
    public Dataloader shardSize(DataSize size) {
        return with(DATA_SHARD_SIZE, size);
    }

    /** @param size parquet: bytes of samples per row group, 1KiB..4GiB */
    public Dataloader rowGroup(DataSize size) {
        return with(ROW_GROUP, size);
    }

    /** @param classes image-folder: class directories, 1..1e6 */
    public Dataloader classes(int classes) {
        return with(CLASSES, classes);
    }

    /** @param samples tar-shards: WebDataset's shuffle buffer per worker, 1..1e7 samples */
    public Dataloader shuffleBuffer(int samples) {
        return with(SHUFFLE_BUFFER, samples);
    }

    /** @param mmap safetensors: read each tensor through mmap (true) or by pread at its offsets */
    public Dataloader mmap(boolean mmap) {
        return with(DATA_MMAP, mmap);
    }

    /** @param files files of the generated dataset, 1..1e8 */
    public Dataloader files(int files) {
        return with(FILES, files);
    }

    /** @param size bytes of each generated file, 1B..1GiB */
    public Dataloader fileSize(DataSize size) {
        return with(FILE_SIZE, size);
    }

    /** @param layout layout of the generated dataset */
    public Dataloader layout(TorchDatasetLayout layout) {
        return with(LAYOUT, layout);
    }

    /** @param shards subdirectories of a sharded generated dataset, 1..1000000 */
    public Dataloader shards(int shards) {
        return with(SHARDS, shards);
    }

    /** @param workers DataLoader num_workers, 0..256 */
    public Dataloader numWorkers(int workers) {
        return with(NUM_WORKERS, workers);
    }

    /** @param size DataLoader batch_size, 1..65536 */
    public Dataloader batchSize(int size) {
        return with(BATCH_SIZE, size);
    }

    /** @param shuffle whether each epoch has a new random order (the DistributedSampler's, or of a format's units) */
    public Dataloader shuffle(boolean shuffle) {
        return with(SHUFFLE, shuffle);
    }

    /**
     * @param tracing whether and how the file system calls of the timed phase are attributed ({@link SyscallTracing}):
     *                off (the default), auto, kernel (bpftrace, root) or python (interposition in each rank)
     */
    public Dataloader syscalls(SyscallTracing tracing) {
        return with(SYSCALLS, tracing);
    }

    /** @param drop whether to drop each epoch's files from the page cache before reading them */
    public Dataloader dropCache(boolean drop) {
        return with(DROP_CACHE, drop);
    }

    /** @param epochs passes over the dataset, 1..100000 */
    public Dataloader epochs(int epochs) {
        return with(EPOCHS, epochs);
    }
}
