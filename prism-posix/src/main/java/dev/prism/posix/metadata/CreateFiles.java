package dev.prism.posix.metadata;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.metadata.internal.CreateFilesWorkload;

import java.util.List;

/**
 * {@code create_files}: each rank creates N files of a given size, timing {@code open} (create),
 * {@code write}, optional {@code fsync} and {@code close} apart, and {@code create} for the whole
 * file; per-rank or shared directory; optionally drops each file from the page cache afterwards.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.metadata.DirectoryLayout;
 *
 * var createFiles = (PosixBenchmarks.createFiles()
 *         .files(500).fileSize(DataSize.ofKiB(4)).directory(DirectoryLayout.SHARED));
 * System.out.println(createFiles.parameters());
 * }</pre>
 */
public final class CreateFiles extends FileSetBenchmark<CreateFiles> {
    /** The operation the whole file: open, write, optional fsync and close: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_CREATE)}). */
    public static final String OP_CREATE = "create";
    /** The operation the open that creates the file: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_OPEN)}). */
    public static final String OP_OPEN = "open";
    /** The operation writing its bytes: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_WRITE)}). */
    public static final String OP_WRITE = "write";
    /** The operation the fsync, with fsync=true: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_FSYNC)}). */
    public static final String OP_FSYNC = "fsync";
    /** The operation the close: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_CLOSE)}). */
    public static final String OP_CLOSE = "close";
    /** The operation dropping it from the page cache after, with drop_cache=true: {@value}, for gates and look-ups ({@code run.measurement(CreateFiles.OP_DROP_CACHE)}). */
    public static final String OP_DROP_CACHE = "drop_cache";

    /** Bytes per write call. */
    public static final Parameter<DataSize> BLOCK_SIZE = Parameter.ofSize("block_size", DataSize.ofMiB(1),
            DataSize.ofBytes(1), DataSize.ofMiB(256), "bytes per write call (a file larger than this takes several)");
    /** Whether each file is fsynced before close. */
    public static final Parameter<Boolean> FSYNC =
            Parameter.ofBoolean("fsync", false, "fsync each file before closing it, timed as 'fsync'");
    /** Whether each file is dropped from the page cache after it is written. */
    public static final Parameter<Boolean> DROP_CACHE = Parameter.ofBoolean("drop_cache", false,
            "after closing, write back and drop each file from the page cache (fdatasync + POSIX_FADV_DONTNEED), timed as 'drop_cache'");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(ACCESS, FILES, FILE_SIZE, BLOCK_SIZE, DIRECTORY, FSYNC, DROP_CACHE);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private CreateFiles(Parameters parameters) {
        super("create_files", "each rank creates N files of a size (open/write/close timed apart), per-rank or shared directory",
                parameters);
    }

    /** @return create_files with these parameter values (missing ones at their defaults) */
    public static CreateFiles of(Parameters parameters) {
        return new CreateFiles(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    /** @return true: with a duration it works until the time is up ({@link dev.prism.Pacing}) */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected CreateFiles with(Parameters parameters) {
        return new CreateFiles(parameters);
    }

    /** @param blockSize bytes per write call, 1B..256MiB */
    public CreateFiles blockSize(DataSize blockSize) {
        return set(BLOCK_SIZE, blockSize);
    }

    /** @param fsync whether each file is fsynced before close */
    public CreateFiles fsync(boolean fsync) {
        return set(FSYNC, fsync);
    }

    /** @param dropCache whether each file is dropped from the page cache after it is written */
    public CreateFiles dropCache(boolean dropCache) {
        return set(DROP_CACHE, dropCache);
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_CREATE, OP_OPEN, OP_WRITE, OP_FSYNC, OP_CLOSE, OP_DROP_CACHE);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot create, write or close");
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new CreateFilesWorkload(p.get(ACCESS), p.get(FILES), p.get(FILE_SIZE).bytes(),
                (int) Math.min(p.get(BLOCK_SIZE).bytes(), p.get(FILE_SIZE).bytes()),
                p.get(DIRECTORY) == DirectoryLayout.SHARED, p.get(FSYNC), p.get(DROP_CACHE));
    }
}
