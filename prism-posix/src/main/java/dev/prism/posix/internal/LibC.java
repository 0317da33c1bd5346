package dev.prism.posix.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * libc through JNA direct mapping (static natives bound once), which skips the proxy and argument
 * conversion of interface mapping. Pointers, {@code size_t}, {@code ssize_t} and {@code off_t} are
 * {@code long}: PRISM supports only LP64 Linux (x86-64, aarch64). Buffers and paths are passed as
 * addresses of direct {@link java.nio.ByteBuffer}s (paths through {@link PathBuffers}), so no call
 * converts a String or allocates native memory. errno is read with
 * {@link Native#getLastError()} after a call returns -1.
 */
public final class LibC {
    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    /** Makes sure the library is bound; throws {@link UnsatisfiedLinkError} when it cannot be. */
    public static void load() {
        // the static initialiser does the work
    }

    static native int openat(int dirfd, long path, int flags, int mode);

    static native int close(int fd);

    static native long read(int fd, long buffer, long count);

    static native long pread(int fd, long buffer, long count, long offset);

    static native long write(int fd, long buffer, long count);

    static native long pwrite(int fd, long buffer, long count, long offset);

    static native int fsync(int fd);

    static native int fdatasync(int fd);

    /** Returns the error number itself (0 on success) and leaves errno alone. */
    static native int posix_fadvise(int fd, long offset, long length, int advice);

    static native int link(long existing, long newPath);

    static native int linkat(int existingDirfd, long existing, int newDirfd, long newPath, int flags);

    static native int flock(int fd, int operation);

    /** {@code struct statvfs} is 112 bytes on 64-bit glibc: eleven unsigned longs, then six ints of padding. */
    static native int statvfs(long path, long buffer);

    static native int renameat(int oldDirfd, long oldPath, int newDirfd, long newPath);

    static native int unlinkat(int dirfd, long path, int flags);

    static native int mkdirat(int dirfd, long path, int mode);

    static native int statx(int dirfd, long path, int flags, int mask, long statxBuffer);

    static native long getdents64(int fd, long buffer, long count);

    static native long mmap(long address, long length, int protection, int flags, int fd, long offset);

    static native int munmap(long address, long length);

    static native int mincore(long address, long length, long vector);

    static native long sysconf(int name);

    static native String strerror(int errnum);
}
