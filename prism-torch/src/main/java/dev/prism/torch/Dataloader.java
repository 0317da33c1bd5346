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
 * {@code DataLoader} with worker processes: a dataset generated in the run, or a kept one.
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
    static final String DESCRIPTION = "every rank reads its DistributedSampler share of a dataset's files through a torch"
            + " DataLoader with worker processes";

    Dataloader(Parameters parameters, TorchRun torchRun) {
        super("dataloader", DESCRIPTION, checked(parameters), torchRun);
    }

    /** Checks what one parameter's range cannot: a kept dataset exists. */
    private static Parameters checked(Parameters p) {
        if (!p.get(DATASET).isEmpty() && !Files.isDirectory(Path.of(p.get(DATASET)))) {
            throw new IllegalArgumentException("dataset " + p.get(DATASET) + " is not an existing directory");
        }
        return p;
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

    /** @param shuffle whether the DistributedSampler shuffles */
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
