package dev.prism.posix.metadata;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.metadata.internal.MoveFilesWorkload;

import java.util.List;

/**
 * {@code move_files}: rename every one of N files into a second directory; the files are created in setup, not timed.
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.moveFiles().files(2000).access(Access.NIO);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class MoveFiles extends FileSetBenchmark<MoveFiles> {
    /** The operation moving one file: {@value}, for gates and look-ups ({@code run.measurement(MoveFiles.OP_RENAME)}). */
    public static final String OP_RENAME = "rename";

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ACCESS, FILES, FILE_SIZE, DIRECTORY);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private MoveFiles(Parameters parameters) {
        super("move_files", "rename N files per rank into a second directory (created untimed)", parameters);
    }

    /** @return move_files with these parameter values (missing ones at their defaults) */
    public static MoveFiles of(Parameters parameters) {
        return new MoveFiles(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    /** @return true: with a duration it goes on until the time is up ({@link dev.prism.Pacing}) */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected MoveFiles with(Parameters parameters) {
        return new MoveFiles(parameters);
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_RENAME);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot rename");
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new MoveFilesWorkload(p.get(ACCESS), p.get(FILES), p.get(FILE_SIZE).bytes(), p.get(DIRECTORY) == DirectoryLayout.SHARED);
    }
}
