package dev.prism.posix.metadata;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.metadata.internal.DeleteFilesWorkload;

import java.util.List;

/**
 * {@code delete_files}: unlink every one of N files; the files are created in setup, not timed.
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.deleteFiles().files(2000).access(Access.NIO);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class DeleteFiles extends FileSetBenchmark<DeleteFiles> {
    /** The operation removing one file: {@value}, for gates and look-ups ({@code run.measurement(DeleteFiles.OP_UNLINK)}). */
    public static final String OP_UNLINK = "unlink";

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ACCESS, FILES, FILE_SIZE, DIRECTORY);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private DeleteFiles(Parameters parameters) {
        super("delete_files", "unlink N files per rank (created untimed)", parameters);
    }

    /** @return delete_files with these parameter values (missing ones at their defaults) */
    public static DeleteFiles of(Parameters parameters) {
        return new DeleteFiles(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    @Override
    protected DeleteFiles with(Parameters parameters) {
        return new DeleteFiles(parameters);
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_UNLINK);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot unlink");
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new DeleteFilesWorkload(p.get(ACCESS), p.get(FILES), p.get(FILE_SIZE).bytes(), p.get(DIRECTORY) == DirectoryLayout.SHARED);
    }
}
