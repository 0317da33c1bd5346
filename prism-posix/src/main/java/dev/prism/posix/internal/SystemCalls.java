package dev.prism.posix.internal;

import java.nio.ByteBuffer;

/**
 * The libc functions PRISM calls, as one binding serves them: {@link JnaSystemCalls} (JNA's direct mapping, any
 * JDK from 17) or {@link ForeignSystemCalls} ({@code java.lang.foreign} downcalls, JDK 22 and later), chosen once per
 * JVM by {@link Binding}. Pointers, {@code size_t}, {@code ssize_t} and {@code off_t} are {@code long}: PRISM supports
 * only LP64 Linux. A call that returns -1 leaves its errno for {@link #lastErrno()} on the same thread, read before
 * the thread's next call.
 */
public interface SystemCalls {
    /** @return what serves the calls, e.g. "java.lang.foreign (JDK 25.0.1)" or "JNA 5.18.1" */
    String description();

    /** @return the address of a direct buffer's first byte */
    long address(ByteBuffer direct);

    /** @return errno as the last failed call on this thread left it */
    int lastErrno();

    int openat(int dirfd, long path, int flags, int mode);

    int close(int fd);

    long read(int fd, long buffer, long count);

    long pread(int fd, long buffer, long count, long offset);

    long write(int fd, long buffer, long count);

    long pwrite(int fd, long buffer, long count, long offset);

    int fsync(int fd);

    int fdatasync(int fd);

    /** Returns the error number itself (0 on success) and leaves errno alone. */
    int posix_fadvise(int fd, long offset, long length, int advice);

    int link(long existing, long newPath);

    int linkat(int existingDirfd, long existing, int newDirfd, long newPath, int flags);

    int flock(int fd, int operation);

    /** {@code struct statvfs} is 112 bytes on 64-bit glibc. */
    int statvfs(long path, long buffer);

    int renameat(int oldDirfd, long oldPath, int newDirfd, long newPath);

    int unlinkat(int dirfd, long path, int flags);

    int mkdirat(int dirfd, long path, int mode);

    int statx(int dirfd, long path, int flags, int mask, long statxBuffer);

    long getdents64(int fd, long buffer, long count);

    long mmap(long address, long length, int protection, int flags, int fd, long offset);

    int munmap(long address, long length);

    int mincore(long address, long length, long vector);

    long sysconf(int name);

    String strerror(int errnum);
}
