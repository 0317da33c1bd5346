package dev.prism.posix;

import dev.prism.AbstractBenchmark;
import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.posix.metadata.DirectoryLayout;

/**
 * What every POSIX benchmark shares: immutable parameters, each setter returning a checked copy,
 * and the choice of file-access interface ({@link #access(Access)}).
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var nio = PosixBenchmarks.listFiles().access(Access.NIO);
 * System.out.println(nio.parameters());
 * }</pre>
 *
 * @param <B> the concrete benchmark type, so setters keep it
 */
public abstract class PosixBenchmark<B extends PosixBenchmark<B>> extends AbstractBenchmark {
    /** The file-access interface: {@code native} (libc) or {@code nio} (java.nio.file). */
    public static final Parameter<Access> ACCESS = Parameter.ofEnum("access", Access.class, Access.NATIVE,
            "file calls through native (libc via JNA), nio (java.nio.file), python (open, os.*) or fsspec, the last two"
                    + " timed in a Python worker per rank");
    /** The file-access interface of benchmarks only Java runs: {@code native} or {@code nio}. */
    public static final Parameter<Access> JAVA_ACCESS = Parameter.ofEnum("access", Access.class, Access.NATIVE,
            java.util.EnumSet.of(Access.NIO, Access.NATIVE), "file calls through native (libc via JNA) or nio (java.nio.file)");
    /** Files each rank works on. */
    public static final Parameter<Integer> FILES =
            Parameter.ofInt("files", 1000, 1, 100_000_000, "files", "files each rank works on");
    /** Bytes in each file. */
    public static final Parameter<DataSize> FILE_SIZE = Parameter.ofSize("file_size", DataSize.ofKiB(4),
            DataSize.ofBytes(1), DataSize.ofGiB(64), "bytes written into each file");
    /** Per-rank or shared directory. */
    public static final Parameter<DirectoryLayout> DIRECTORY = Parameter.ofEnum("directory", DirectoryLayout.class,
            DirectoryLayout.PER_RANK, "per-rank: each rank in its own directory; shared: all ranks in one directory");

    protected PosixBenchmark(String name, String description, Parameters parameters) {
        super(name, description, parameters);
    }

    /** @return a copy of this benchmark with {@code parameters}: what every setter and {@link #withText} make */
    @Override
    protected abstract B with(Parameters parameters);

    /** @return a copy with {@code values} (text, by parameter name), each checked, of this benchmark's type */
    @Override
    @SuppressWarnings("unchecked")
    public B withText(java.util.Map<String, String> values) {
        return (B) super.withText(values);
    }

    /**
     * Checks the rules between this benchmark's parameters that no single setter can (a tree too large for its depth
     * and breadth, a dataset directory that is not there); {@code Scenario.build()} calls it, through {@link
     * #footprint}, before any work. Nothing by default.
     *
     * @throws IllegalArgumentException naming the parameters and what is wrong
     */
    protected void checkTogether() {
    }

    /** @return nothing known before it runs, once {@link #checkTogether()} passed */
    @Override
    public java.util.Optional<dev.prism.Footprint> footprint(int tasks) {
        checkTogether();
        return java.util.Optional.empty();
    }

    /** @return a copy with one parameter changed (checked) */
    protected final <T> B set(Parameter<T> parameter, T value) {
        return with(parameters().with(parameter, value));
    }

    /**
     * @param access native (libc), nio (java.nio.file), or where the benchmark has a Python worker (create, list, move
     *               and delete files, md5_check) python or fsspec
     */
    @SuppressWarnings("unchecked")
    public B access(Access access) {
        // the benchmark's own declaration decides what it accepts (folder_bench and open_contention: Java's two)
        Parameter<Access> declared = (Parameter<Access>) parameters().declared().stream()
                .filter(p -> p.name().equals(ACCESS.name())).findFirst().orElse(ACCESS);
        return set(declared, access);
    }
}
