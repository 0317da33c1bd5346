package dev.prism.posix;

import dev.prism.WorkloadContext;
import dev.prism.posix.internal.NativeFileAccess;
import dev.prism.posix.internal.NioFileAccess;

/**
 * Which interface a benchmark's file calls go through: {@code NIO} (java.nio.file, the JVM's own
 * layer), {@code NATIVE} (libc through java.lang.foreign on JDK 22+, JNA before), and in a Python worker per rank {@code PYTHON}
 * (open and os.*, the calls researchers' scripts make) or {@code FSSPEC} (fsspec's local
 * filesystem, the layer data libraries go through). Running a benchmark several ways measures what
 * each layer costs, as the paper's §4.4 does with fsspec against native calls; the Python ones serve
 * create_files, list_files, move_files, delete_files and md5_check.
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 *
 * var files = Access.NATIVE.newFileAccess();
 * System.out.println(files.name());
 * }</pre>
 */
public enum Access {
    /** java.nio.file: FileChannel, Files.move, Files.newDirectoryStream… */
    NIO,
    /** libc (java.lang.foreign on JDK 22+, JNA before): openat, renameat, getdents64, statx… */
    NATIVE,
    /** Python's open and os.* (os.listdir, os.stat, os.rename, os.unlink), timed in a Python worker per rank */
    PYTHON,
    /** fsspec's local filesystem (fs.open, fs.ls, fs.info, fs.mv, fs.rm_file), timed in a Python worker per rank */
    FSSPEC;

    /** @return whether this interface's timed calls run in a Python worker of the rank */
    public boolean inPython() {
        return this == PYTHON || this == FSSPEC;
    }

    /**
     * @return a new {@link FileAccess} of this kind, for one rank (it may cache per-thread state); for the Python
     *         interfaces, the native one, which serves what their benchmarks do untimed around the worker (setup, checks)
     */
    public FileAccess newFileAccess() {
        return this == NIO ? new NioFileAccess() : new NativeFileAccess();
    }

    /**
     * @return as {@link #newFileAccess()}, and for {@code NATIVE} the binding that serves it noted in {@code ctx}'s
     *         results among the programs' versions (note {@value #BINDING_NOTE}, e.g. "java.lang.foreign (JDK 25.0.1)")
     */
    public FileAccess newFileAccess(WorkloadContext ctx) {
        // NATIVE reaches every path beneath the run directory relative to the descriptor the rank holds for it
        FileAccess files = this == NIO ? new NioFileAccess() : new NativeFileAccess(ctx.heldRunDirectory());
        if (this == NATIVE) {
            ctx.noteProgram(BINDING_NOTE, Posix.binding());
        }
        return files;
    }

    /** The note that names what served the libc calls of a run. */
    public static final String BINDING_NOTE = "libc binding";
}
