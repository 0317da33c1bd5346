package dev.prism.posix.metadata;

import dev.prism.DataSize;
import dev.prism.Parameters;
import dev.prism.posix.PosixBenchmark;

/**
 * A POSIX benchmark over N files of a size per rank, in per-rank or shared directories:
 * {@code create_files}, {@code list_files}, {@code move_files}, {@code delete_files}.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 * import dev.prism.posix.metadata.DirectoryLayout;
 *
 * var b = PosixBenchmarks.deleteFiles().files(10_000).directory(DirectoryLayout.SHARED);
 * }</pre>
 *
 * @param <B> the concrete benchmark type, so setters keep it
 */
public abstract class FileSetBenchmark<B extends FileSetBenchmark<B>> extends PosixBenchmark<B> {
    FileSetBenchmark(String name, String description, Parameters parameters) {
        super(name, description, parameters);
    }

    /** @param files files each rank works on, 1..100000000 */
    public B files(int files) {
        return set(FILES, files);
    }

    /** @param fileSize bytes in each file, 1B..64GiB */
    public B fileSize(DataSize fileSize) {
        return set(FILE_SIZE, fileSize);
    }

    /** @param directory per-rank or shared directory */
    public B directory(DirectoryLayout directory) {
        return set(DIRECTORY, directory);
    }
}
