package dev.prism.posix.internal;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteBuffer;

/** {@link SystemCalls} through {@link LibC}'s JNA direct mapping; errno from {@link Native#getLastError()}. */
final class JnaSystemCalls implements SystemCalls {
    JnaSystemCalls() {
        LibC.load();
    }

    @Override
    public String description() {
        return "JNA " + Native.VERSION;
    }

    @Override
    public long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }

    @Override
    public int lastErrno() {
        return Native.getLastError();
    }

    @Override
    public int openat(int dirfd, long path, int flags, int mode) {
        return LibC.openat(dirfd, path, flags, mode);
    }

    @Override
    public int close(int fd) {
        return LibC.close(fd);
    }

    @Override
    public long read(int fd, long buffer, long count) {
        return LibC.read(fd, buffer, count);
    }

    @Override
    public long pread(int fd, long buffer, long count, long offset) {
        return LibC.pread(fd, buffer, count, offset);
    }

    @Override
    public long write(int fd, long buffer, long count) {
        return LibC.write(fd, buffer, count);
    }

    @Override
    public long pwrite(int fd, long buffer, long count, long offset) {
        return LibC.pwrite(fd, buffer, count, offset);
    }

    @Override
    public int fsync(int fd) {
        return LibC.fsync(fd);
    }

    @Override
    public int fdatasync(int fd) {
        return LibC.fdatasync(fd);
    }

    @Override
    public int posix_fadvise(int fd, long offset, long length, int advice) {
        return LibC.posix_fadvise(fd, offset, length, advice);
    }

    @Override
    public int link(long existing, long newPath) {
        return LibC.link(existing, newPath);
    }

    @Override
    public int linkat(int existingDirfd, long existing, int newDirfd, long newPath, int flags) {
        return LibC.linkat(existingDirfd, existing, newDirfd, newPath, flags);
    }

    @Override
    public int flock(int fd, int operation) {
        return LibC.flock(fd, operation);
    }

    @Override
    public int statvfs(long path, long buffer) {
        return LibC.statvfs(path, buffer);
    }

    @Override
    public int renameat(int oldDirfd, long oldPath, int newDirfd, long newPath) {
        return LibC.renameat(oldDirfd, oldPath, newDirfd, newPath);
    }

    @Override
    public int unlinkat(int dirfd, long path, int flags) {
        return LibC.unlinkat(dirfd, path, flags);
    }

    @Override
    public int mkdirat(int dirfd, long path, int mode) {
        return LibC.mkdirat(dirfd, path, mode);
    }

    @Override
    public int statx(int dirfd, long path, int flags, int mask, long statxBuffer) {
        return LibC.statx(dirfd, path, flags, mask, statxBuffer);
    }

    @Override
    public long getdents64(int fd, long buffer, long count) {
        return LibC.getdents64(fd, buffer, count);
    }

    @Override
    public long mmap(long address, long length, int protection, int flags, int fd, long offset) {
        return LibC.mmap(address, length, protection, flags, fd, offset);
    }

    @Override
    public int munmap(long address, long length) {
        return LibC.munmap(address, length);
    }

    @Override
    public int mincore(long address, long length, long vector) {
        return LibC.mincore(address, length, vector);
    }

    @Override
    public long sysconf(int name) {
        return LibC.sysconf(name);
    }

    @Override
    public String strerror(int errnum) {
        return LibC.strerror(errnum);
    }
}
