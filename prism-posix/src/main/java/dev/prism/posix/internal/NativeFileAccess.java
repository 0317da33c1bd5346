package dev.prism.posix.internal;

import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.Posix;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/** {@link FileAccess} through libc. Remembers the address of the last buffer, so reusing one allocates nothing. */
public final class NativeFileAccess implements FileAccess {
    private ByteBuffer lastBuffer;
    private long lastAddress;

    public NativeFileAccess() {
        Posix.requireSupported();
    }

    @Override
    public String name() {
        return "native";
    }

    private long address(ByteBuffer buffer) {
        if (buffer != lastBuffer) {
            lastAddress = Posix.address(buffer);
            lastBuffer = buffer;
        }
        return lastAddress;
    }

    @Override
    public OpenFile create(Path file) {
        return new NativeFile(NativeCalls.openat(Posix.AT_FDCWD, file,
                Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC, 0644), file);
    }

    @Override
    public OpenFile openRead(Path file) {
        return new NativeFile(NativeCalls.openat(Posix.AT_FDCWD, file, Posix.O_RDONLY | Posix.O_CLOEXEC, 0), file);
    }

    @Override
    public OpenFile openReadDirect(Path file) {
        return new NativeFile(NativeCalls.openat(Posix.AT_FDCWD, file,
                Posix.O_RDONLY | Posix.O_DIRECT | Posix.O_CLOEXEC, 0), file);
    }

    /**
     * Opens {@code name}, one component, in the directory open as {@code dirfd} for reading, without following a
     * link ({@code O_NOFOLLOW}; with {@code direct}, {@code O_DIRECT}): one {@code openat} that resolves one name.
     * Failures name {@code shown}.
     */
    public OpenFile openReadAt(int dirfd, Path name, boolean direct, Path shown) {
        return new NativeFile(NativeCalls.openat(dirfd, name, Posix.O_RDONLY | Posix.O_NOFOLLOW | Posix.O_CLOEXEC
                | (direct ? Posix.O_DIRECT : 0), 0, shown), shown);
    }

    @Override
    public OpenFile openReadWrite(Path file) {
        return new NativeFile(NativeCalls.openat(Posix.AT_FDCWD, file,
                Posix.O_RDWR | Posix.O_CREAT | Posix.O_CLOEXEC, 0644), file);
    }

    @Override
    public void mkdir(Path directory) {
        NativeCalls.mkdirat(Posix.AT_FDCWD, directory, 0755);
    }

    @Override
    public void rename(Path from, Path to) {
        NativeCalls.renameat(Posix.AT_FDCWD, from, Posix.AT_FDCWD, to);
    }

    @Override
    public void unlink(Path file) {
        NativeCalls.unlinkat(Posix.AT_FDCWD, file, 0);
    }

    @Override
    public void rmdir(Path directory) {
        NativeCalls.unlinkat(Posix.AT_FDCWD, directory, Posix.AT_REMOVEDIR);
    }

    @Override
    public FileStat stat(Path path) {
        return NativeCalls.statx(Posix.AT_FDCWD, path, Posix.AT_SYMLINK_NOFOLLOW);
    }

    @Override
    public List<String> list(Path directory) {
        return NativeCalls.listDirectory(directory);
    }

    @Override
    public void link(Path existing, Path link) {
        NativeCalls.link(existing, link);
    }

    private final class NativeFile implements OpenFile {
        private final int fd;
        private final Path path;
        private boolean closed;

        NativeFile(int fd, Path path) {
            this.fd = fd;
            this.path = path;
        }

        @Override
        public int write(ByteBuffer source) {
            int n = (int) NativeCalls.write(fd, address(source) + source.position(), source.remaining(), path);
            source.position(source.position() + n);
            return n;
        }

        @Override
        public int read(ByteBuffer target) {
            int n = (int) NativeCalls.read(fd, address(target) + target.position(), target.remaining(), path);
            target.position(target.position() + n);
            return n == 0 && target.remaining() > 0 ? -1 : n;
        }

        @Override
        public void sync() {
            NativeCalls.fsync(fd, path);
        }

        @Override
        public void lock(boolean exclusive) {
            NativeCalls.flock(fd, exclusive ? Posix.LOCK_EX : Posix.LOCK_SH, path);
        }

        @Override
        public void unlock() {
            NativeCalls.flock(fd, Posix.LOCK_UN, path);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                NativeCalls.close(fd, path);
            }
        }
    }
}
