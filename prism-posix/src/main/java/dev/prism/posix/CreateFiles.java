package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.internal.CreateFilesWorkload;

import java.util.List;

/**
 * {@code create_files}: each rank creates N files of a given size, timing {@code open}
 * (create), {@code write}, optional {@code fsync} and {@code close} apart, and {@code create} for
 * the whole file; per-rank or shared directory. Immutable: each setter returns a new, checked copy.
 *
 * <pre>{@code
 * var createFiles = (dev.prism.posix.PosixBenchmarks.createFiles()
 *         .files(500).fileSize(dev.prism.DataSize.ofKiB(4)).directory(dev.prism.posix.DirectoryLayout.SHARED));
 * System.out.println(createFiles.parameters());
 * }</pre>
 */
public final class CreateFiles implements Benchmark {
    /** Files each rank creates. */
    public static final Parameter<Integer> FILES =
            Parameter.ofInt("files", 1000, 1, 100_000_000, "files", "files each rank creates");
    /** Bytes written into each file. */
    public static final Parameter<DataSize> FILE_SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(4),
            DataSize.ofBytes(1), DataSize.ofGiB(64), "bytes written into each file");
    /** Bytes per write call. */
    public static final Parameter<DataSize> BLOCK_SIZE = Parameter.ofSize("block_size", DataSize.ofMiB(1),
            DataSize.ofBytes(1), DataSize.ofMiB(256), "bytes per write call (a file larger than this takes several)");
    /** Per-rank or shared directory. */
    public static final Parameter<DirectoryLayout> DIRECTORY = Parameter.ofEnum("directory", DirectoryLayout.class,
            DirectoryLayout.PER_RANK, "per-rank: each rank in its own directory; shared: all ranks in one directory");
    /** Whether each file is fsynced before close. */
    public static final Parameter<Boolean> FSYNC =
            Parameter.ofBoolean("fsync", false, "fsync each file before closing it, timed as 'fsync'");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(FILES, FILE_SIZE, BLOCK_SIZE, DIRECTORY, FSYNC);

    private final Parameters parameters;

    CreateFiles(Parameters parameters) {
        this.parameters = parameters;
    }

    /** @return create_files with every parameter at its default */
    static CreateFiles defaults() {
        return new CreateFiles(Parameters.defaults(PARAMETERS));
    }

    /** @return create_files with the parameters of an already checked set */
    public static CreateFiles of(Parameters parameters) {
        return new CreateFiles(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    /** @param files files each rank creates, 1..100000000 */
    public CreateFiles files(int files) {
        return new CreateFiles(parameters.with(FILES, files));
    }

    /** @param fileSize bytes written into each file, 1B..64GiB */
    public CreateFiles fileSize(DataSize fileSize) {
        return new CreateFiles(parameters.with(FILE_SIZE, fileSize));
    }

    /** @param blockSize bytes per write call, 1B..256MiB */
    public CreateFiles blockSize(DataSize blockSize) {
        return new CreateFiles(parameters.with(BLOCK_SIZE, blockSize));
    }

    /** @param directory per-rank or shared directory */
    public CreateFiles directory(DirectoryLayout directory) {
        return new CreateFiles(parameters.with(DIRECTORY, directory));
    }

    /** @param fsync whether each file is fsynced before close */
    public CreateFiles fsync(boolean fsync) {
        return new CreateFiles(parameters.with(FSYNC, fsync));
    }

    @Override
    public String name() {
        return "create_files";
    }

    @Override
    public String description() {
        return "each rank creates N files of a size (open/write/close timed apart), per-rank or shared directory";
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public Workload newWorkload() {
        return new CreateFilesWorkload(parameters.get(FILES), parameters.get(FILE_SIZE).bytes(),
                (int) Math.min(parameters.get(BLOCK_SIZE).bytes(), parameters.get(FILE_SIZE).bytes()),
                parameters.get(DIRECTORY) == DirectoryLayout.SHARED, parameters.get(FSYNC));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CreateFiles && ((CreateFiles) o).parameters.equals(parameters);
    }

    @Override
    public int hashCode() {
        return parameters.hashCode();
    }

    @Override
    public String toString() {
        return name() + " " + parameters;
    }
}
