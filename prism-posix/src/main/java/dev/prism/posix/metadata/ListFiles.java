package dev.prism.posix.metadata;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.metadata.internal.ListFilesWorkload;

import java.util.List;

/**
 * {@code list_files}: readdir of a directory of N files, then stat of every entry; the directory is populated in setup, not timed.
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.listFiles().files(2000).access(Access.NIO);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class ListFiles extends FileSetBenchmark<ListFiles> {
    /** The operation listing the directory: {@value}, for gates and look-ups ({@code run.measurement(ListFiles.OP_READDIR)}). */
    public static final String OP_READDIR = "readdir";
    /** The operation one file's stat: {@value}, for gates and look-ups ({@code run.measurement(ListFiles.OP_STAT)}). */
    public static final String OP_STAT = "stat";

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ACCESS, FILES, FILE_SIZE, DIRECTORY);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private ListFiles(Parameters parameters) {
        super("list_files", "readdir of a directory of N files per rank, then stat of every entry (populated untimed)", parameters);
    }

    /** @return list_files with these parameter values (missing ones at their defaults) */
    public static ListFiles of(Parameters parameters) {
        return new ListFiles(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    /** @return true: with a duration it works until the time is up ({@link dev.prism.Pacing}) */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected ListFiles with(Parameters parameters) {
        return new ListFiles(parameters);
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_READDIR, OP_STAT);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("a file it cannot stat");
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new ListFilesWorkload(p.get(ACCESS), p.get(FILES), p.get(FILE_SIZE).bytes(), p.get(DIRECTORY) == DirectoryLayout.SHARED);
    }
}
