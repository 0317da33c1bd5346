package dev.prism.posix;

import dev.prism.posix.internal.NativeFileAccess;
import dev.prism.posix.internal.NioFileAccess;

/**
 * Which interface a benchmark's file calls go through: {@code NIO} (java.nio.file, the JVM's own
 * layer) or {@code NATIVE} (libc through JNA). Running a benchmark both ways measures what the
 * abstraction costs, as the paper does with fsspec against native calls.
 *
 * <pre>{@code
 * var files = dev.prism.posix.Access.NATIVE.newFileAccess();
 * System.out.println(files.name());
 * }</pre>
 */
public enum Access {
    /** java.nio.file: FileChannel, Files.move, Files.newDirectoryStream… */
    NIO,
    /** libc through JNA: openat, renameat, getdents64, statx… */
    NATIVE;

    /** @return a new {@link FileAccess} of this kind, for one rank (it may cache per-thread state) */
    public FileAccess newFileAccess() {
        return this == NIO ? new NioFileAccess() : new NativeFileAccess();
    }
}
