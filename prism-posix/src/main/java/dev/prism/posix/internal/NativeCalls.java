package dev.prism.posix.internal;

import dev.prism.spi.Errno;
import dev.prism.posix.FileStat;
import dev.prism.posix.PageCacheResidency;
import dev.prism.posix.Posix;
import dev.prism.posix.PosixException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Calls libc through the {@link Binding} chosen for this JVM and turns a failure into a {@link PosixException} with errno's name. */
public final class NativeCalls {
    private static final int STATX_BASIC_STATS = 0x7ff;
    private static final int STATX_SIZE = 256;
    private static final int DIRENT_BUFFER_SIZE = 64 * 1024;
    private static final int SC_PAGESIZE = 30;
    private static final int PROT_READ = 1;
    private static final int MAP_SHARED = 1;

    /** A reusable buffer per thread, with its address found once. */
    private static final class Scratch {
        final ByteBuffer buffer;
        final long address;

        Scratch(int size) {
            buffer = ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
            address = Posix.address(buffer);
        }
    }

    private static final ThreadLocal<Scratch> STATX = ThreadLocal.withInitial(() -> new Scratch(STATX_SIZE));
    private static final ThreadLocal<Scratch> DIRENTS = ThreadLocal.withInitial(() -> new Scratch(DIRENT_BUFFER_SIZE));

    private static final SystemCalls C;

    static {
        Posix.requireSupported();
        C = Binding.CALLS;
    }

    private NativeCalls() {
    }

    private static PosixException failure(String function, String arguments, Path path) {
        int errno = C.lastErrno();
        return new PosixException(function, arguments, path == null ? null : path.toString(), errno, Errno.name(errno));
    }

    private static String quote(Path path) {
        return path == null ? "?" : "\"" + path + "\"";
    }

    public static int openat(int dirfd, Path path, int flags, int mode) {
        int fd = C.openat(dirfd, PathBuffers.first(path), flags, mode);
        if (fd < 0) {
            throw failure("openat", dirfdText(dirfd) + quote(path) + ", " + OpenFlags.describe(flags)
                    + ((flags & Posix.O_CREAT) != 0 ? ", 0" + Integer.toOctalString(mode) : ""), path);
        }
        return fd;
    }

    /**
     * As {@link #openat(int, Path, int, int)} for {@code path} beneath {@code dirfd}; a failure's message shows
     * {@code shown}, the whole path a person knows, in the name's place: {@code openat(39, "/data/shard-000/f.bin", …)}.
     */
    public static int openat(int dirfd, Path path, int flags, int mode, Path shown) {
        int fd = C.openat(dirfd, PathBuffers.first(path), flags, mode);
        if (fd < 0) {
            throw failure("openat", dirfdText(dirfd) + quote(shown) + ", " + OpenFlags.describe(flags)
                    + ((flags & Posix.O_CREAT) != 0 ? ", 0" + Integer.toOctalString(mode) : ""), shown);
        }
        return fd;
    }

    public static void close(int fd, Path path) {
        close(fd, path, null);
    }

    /**
     * As {@link #close(int, Path)} for the file {@code name} in the directory {@code path} (null: {@code path} is the
     * file), joined only for a failure: the timed create path makes no {@code Path} per file.
     */
    public static void close(int fd, Path path, String name) {
        if (C.close(fd) != 0) {
            Path shown = shown(path, name);
            throw failure("close", fd + " " + quote(shown), shown);
        }
    }

    /** @return {@code name} in {@code directory}, or {@code directory} itself where {@code name} is null */
    static Path shown(Path directory, String name) {
        return name == null || directory == null ? directory : directory.resolve(name);
    }

    public static long read(int fd, long address, long count, Path path) {
        long n = C.read(fd, address, count);
        if (n < 0) {
            throw failure("read", fd + " " + quote(path) + ", " + count, path);
        }
        return n;
    }

    public static long pread(int fd, long address, long count, long offset, Path path) {
        long n = C.pread(fd, address, count, offset);
        if (n < 0) {
            throw failure("pread", fd + " " + quote(path) + ", " + count + ", " + offset, path);
        }
        return n;
    }

    public static long write(int fd, long address, long count, Path path) {
        return write(fd, address, count, path, null);
    }

    /** As {@link #write(int, long, long, Path)}, naming as {@link #close(int, Path, String)} does. */
    public static long write(int fd, long address, long count, Path path, String name) {
        long n = C.write(fd, address, count);
        if (n < 0) {
            Path shown = shown(path, name);
            throw failure("write", fd + " " + quote(shown) + ", " + count, shown);
        }
        return n;
    }

    public static long pwrite(int fd, long address, long count, long offset, Path path) {
        long n = C.pwrite(fd, address, count, offset);
        if (n < 0) {
            throw failure("pwrite", fd + " " + quote(path) + ", " + count + ", " + offset, path);
        }
        return n;
    }

    public static void fsync(int fd, Path path) {
        fsync(fd, path, null);
    }

    /** As {@link #fsync(int, Path)}, naming as {@link #close(int, Path, String)} does. */
    public static void fsync(int fd, Path path, String name) {
        if (C.fsync(fd) != 0) {
            Path shown = shown(path, name);
            throw failure("fsync", fd + " " + quote(shown), shown);
        }
    }

    /**
     * Drops the open file {@code fd}'s pages from the page cache ({@code fdatasync}, then
     * {@code posix_fadvise(POSIX_FADV_DONTNEED)}) and closes it; {@code path} only names it in a failure.
     */
    public static void dropFromPageCache(int fd, Path path) {
        try {
            fdatasync(fd, path);
            fadvise(fd, 0, 0, Posix.POSIX_FADV_DONTNEED, path);
        } finally {
            close(fd, path);
        }
    }

    public static void fdatasync(int fd, Path path) {
        if (C.fdatasync(fd) != 0) {
            throw failure("fdatasync", fd + " " + quote(path), path);
        }
    }

    public static void fadvise(int fd, long offset, long length, int advice, Path path) {
        // posix_fadvise returns the error number rather than setting errno
        int error = C.posix_fadvise(fd, offset, length, advice);
        if (error != 0) {
            throw new PosixException("posix_fadvise", fd + " " + quote(path) + ", " + offset + ", " + length + ", "
                    + (advice == Posix.POSIX_FADV_DONTNEED ? "POSIX_FADV_DONTNEED" : String.valueOf(advice)),
                    path.toString(), error, Errno.name(error));
        }
    }

    public static void link(Path existing, Path newPath) {
        if (C.link(PathBuffers.first(existing), PathBuffers.second(newPath)) != 0) {
            throw failure("link", quote(existing) + ", " + quote(newPath), newPath);
        }
    }

    public static void linkat(int existingDirfd, Path existing, int newDirfd, Path newPath, int flags) {
        if (C.linkat(existingDirfd, PathBuffers.first(existing), newDirfd, PathBuffers.second(newPath), flags) != 0) {
            throw failure("linkat", dirfdText(existingDirfd) + quote(existing) + ", " + dirfdText(newDirfd)
                    + quote(newPath) + ", " + flags, newPath);
        }
    }

    /** Free space of the filesystem holding {@code path}, as an unprivileged user may use it. */
    public record Space(long blockSize, long availableBlocks, long availableInodes) {
        /** @return available bytes */
        public long availableBytes() {
            return FileWork.product(blockSize, availableBlocks, 1);
        }
    }

    /** @return {@code statvfs(path)}: the fragment size, the blocks and the inodes free to unprivileged users */
    public static Space statvfs(Path path) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(112).order(ByteOrder.nativeOrder());
        if (C.statvfs(PathBuffers.first(path), C.address(buffer)) != 0) {
            throw failure("statvfs", quote(path), path);
        }
        // f_bsize 0, f_frsize 8, f_blocks 16, f_bfree 24, f_bavail 32, f_files 40, f_ffree 48, f_favail 56
        return new Space(buffer.getLong(8), buffer.getLong(32), buffer.getLong(56));
    }

    public static void flock(int fd, int operation, Path path) {
        if (C.flock(fd, operation) != 0) {
            throw failure("flock", fd + " " + quote(path) + ", " + lockText(operation), path);
        }
    }

    public static void renameat(int oldDirfd, Path from, int newDirfd, Path to) {
        if (C.renameat(oldDirfd, PathBuffers.first(from), newDirfd, PathBuffers.second(to)) != 0) {
            throw failure("renameat", dirfdText(oldDirfd) + quote(from) + ", " + dirfdText(newDirfd) + quote(to), from);
        }
    }

    public static void unlinkat(int dirfd, Path path, int flags) {
        if (C.unlinkat(dirfd, PathBuffers.first(path), flags) != 0) {
            throw failure("unlinkat", dirfdText(dirfd) + quote(path)
                    + ((flags & Posix.AT_REMOVEDIR) != 0 ? ", AT_REMOVEDIR" : ", 0"), path);
        }
    }

    public static void mkdirat(int dirfd, Path path, int mode) {
        if (C.mkdirat(dirfd, PathBuffers.first(path), mode) != 0) {
            throw failure("mkdirat", dirfdText(dirfd) + quote(path) + ", 0" + Integer.toOctalString(mode), path);
        }
    }

    /**
     * The calls of the metadata benchmarks' timed path: a name already encoded as a C string at {@code name} (see
     * {@link EncodedNames}), relative to the directory open as {@code dirfd}, so the kernel resolves one component and
     * nothing is converted or allocated per call; {@code shown} (the whole path a person knows) is read only when the
     * call fails.
     *
     * @return the new descriptor
     */
    public static int openatName(int dirfd, long name, int flags, int mode, Path shown) {
        return openatName(dirfd, name, flags, mode, shown, null);
    }

    /** As {@link #openatName(int, long, int, int, Path)}, naming as {@link #close(int, Path, String)} does. */
    public static int openatName(int dirfd, long name, int flags, int mode, Path directory, String fileName) {
        int fd = C.openat(dirfd, name, flags, mode);
        if (fd < 0) {
            Path shown = shown(directory, fileName);
            throw failure("openat", dirfdText(dirfd) + quote(shown) + ", " + OpenFlags.describe(flags)
                    + ((flags & Posix.O_CREAT) != 0 ? ", 0" + Integer.toOctalString(mode) : ""), shown);
        }
        return fd;
    }

    /**
     * As {@link #openatName}: {@code unlinkat(dirfd, name, flags)}; a failure names {@code fileName} in {@code
     * directory}, joined only then.
     */
    public static void unlinkatName(int dirfd, long name, int flags, Path directory, String fileName) {
        if (C.unlinkat(dirfd, name, flags) != 0) {
            Path shown = shown(directory, fileName);
            throw failure("unlinkat", dirfdText(dirfd) + quote(shown)
                    + ((flags & Posix.AT_REMOVEDIR) != 0 ? ", AT_REMOVEDIR" : ", 0"), shown);
        }
    }

    /** As {@link #openatName}: {@code renameat(fromDirfd, fromName, toDirfd, toName)}. */
    public static void renameatName(int fromDirfd, long fromName, int toDirfd, long toName, Path shownFrom, Path shownTo) {
        if (C.renameat(fromDirfd, fromName, toDirfd, toName) != 0) {
            throw failure("renameat", dirfdText(fromDirfd) + quote(shownFrom) + ", " + dirfdText(toDirfd) + quote(shownTo),
                    shownFrom);
        }
    }

    /**
     * As {@link #openatName}: {@code statx(dirfd, name, flags)} into this thread's buffer, read back as the size alone,
     * so no {@link FileStat} is made per call; a failure names {@code fileName} in {@code directory}, joined only then.
     *
     * @return the file's size in bytes
     */
    public static long statxSizeName(int dirfd, long name, int flags, Path directory, String fileName) {
        Scratch scratch = STATX.get();
        if (C.statx(dirfd, name, flags, STATX_BASIC_STATS, scratch.address) != 0) {
            Path shown = shown(directory, fileName);
            throw failure("statx", dirfdText(dirfd) + quote(shown)
                    + ((flags & Posix.AT_SYMLINK_NOFOLLOW) != 0 ? ", AT_SYMLINK_NOFOLLOW" : ", 0"), shown);
        }
        return scratch.buffer.getLong(40);
    }

    /** As {@link #statx(int, Path, int)} for {@code path} beneath {@code dirfd}; a failure names {@code shown}. */
    public static FileStat statx(int dirfd, Path path, int flags, Path shown) {
        Scratch scratch = STATX.get();
        if (C.statx(dirfd, PathBuffers.first(path), flags, STATX_BASIC_STATS, scratch.address) != 0) {
            throw failure("statx", dirfdText(dirfd) + quote(shown)
                    + ((flags & Posix.AT_SYMLINK_NOFOLLOW) != 0 ? ", AT_SYMLINK_NOFOLLOW" : ", 0"), shown);
        }
        return stat(scratch.buffer);
    }

    /** As {@link #unlinkat(int, Path, int)} for {@code path} beneath {@code dirfd}; a failure names {@code shown}. */
    public static void unlinkat(int dirfd, Path path, int flags, Path shown) {
        if (C.unlinkat(dirfd, PathBuffers.first(path), flags) != 0) {
            throw failure("unlinkat", dirfdText(dirfd) + quote(shown)
                    + ((flags & Posix.AT_REMOVEDIR) != 0 ? ", AT_REMOVEDIR" : ", 0"), shown);
        }
    }

    /** As {@link #mkdirat(int, Path, int)} for {@code path} beneath {@code dirfd}; a failure names {@code shown}. */
    public static void mkdirat(int dirfd, Path path, int mode, Path shown) {
        if (C.mkdirat(dirfd, PathBuffers.first(path), mode) != 0) {
            throw failure("mkdirat", dirfdText(dirfd) + quote(shown) + ", 0" + Integer.toOctalString(mode), shown);
        }
    }

    /** As {@link #renameat(int, Path, int, Path)}; a failure names {@code shownFrom} and {@code shownTo}. */
    public static void renameat(int oldDirfd, Path from, int newDirfd, Path to, Path shownFrom, Path shownTo) {
        if (C.renameat(oldDirfd, PathBuffers.first(from), newDirfd, PathBuffers.second(to)) != 0) {
            throw failure("renameat", dirfdText(oldDirfd) + quote(shownFrom) + ", " + dirfdText(newDirfd) + quote(shownTo),
                    shownFrom);
        }
    }

    /** As {@link #linkat}; a failure names {@code shownExisting} and {@code shownLink}. */
    public static void linkat(int existingDirfd, Path existing, int newDirfd, Path link, Path shownExisting, Path shownLink) {
        if (C.linkat(existingDirfd, PathBuffers.first(existing), newDirfd, PathBuffers.second(link), 0) != 0) {
            throw failure("linkat", dirfdText(existingDirfd) + quote(shownExisting) + ", " + dirfdText(newDirfd)
                    + quote(shownLink) + ", 0", shownLink);
        }
    }

    public static FileStat statx(int dirfd, Path path, int flags) {
        Scratch scratch = STATX.get();
        if (C.statx(dirfd, PathBuffers.first(path), flags, STATX_BASIC_STATS, scratch.address) != 0) {
            throw failure("statx", dirfdText(dirfd) + quote(path)
                    + ((flags & Posix.AT_SYMLINK_NOFOLLOW) != 0 ? ", AT_SYMLINK_NOFOLLOW" : ", 0"), path);
        }
        return stat(scratch.buffer);
    }

    private static FileStat stat(ByteBuffer b) {
        // struct statx is the same on every architecture: nlink@16 mode@28 ino@32 size@40 blocks@48 mtime@112
        long mtimeNanos = b.getLong(112) * 1_000_000_000L + Integer.toUnsignedLong(b.getInt(120));
        return new FileStat(b.getLong(40), Short.toUnsignedInt(b.getShort(28)), Integer.toUnsignedLong(b.getInt(16)),
                b.getLong(32), b.getLong(48), mtimeNanos);
    }

    public static List<String> listDirectory(Path directory) {
        return listDirectory(Posix.AT_FDCWD, directory, directory);
    }

    /** @return the names in the directory {@code path} beneath {@code dirfd}, but . and ..; failures name {@code directory} */
    public static List<String> listDirectory(int dirfd, Path path, Path directory) {
        int fd = openat(dirfd, path, Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0, directory);
        List<String> names = new ArrayList<>();
        try {
            Scratch scratch = DIRENTS.get();
            ByteBuffer b = scratch.buffer;
            while (true) {
                long n = C.getdents64(fd, scratch.address, DIRENT_BUFFER_SIZE);
                if (n < 0) {
                    throw failure("getdents64", fd + " " + quote(directory) + ", " + DIRENT_BUFFER_SIZE, directory);
                }
                if (n == 0) {
                    return names;
                }
                // struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16 @16, d_type u8 @18, d_name @19
                for (int offset = 0; offset < n; ) {
                    int length = Short.toUnsignedInt(b.getShort(offset + 16));
                    int nameStart = offset + 19;
                    int nameEnd = nameStart;
                    while (b.get(nameEnd) != 0) {
                        nameEnd++;
                    }
                    byte[] name = new byte[nameEnd - nameStart];
                    b.get(nameStart, name);
                    String s = new String(name, StandardCharsets.UTF_8);
                    if (!s.equals(".") && !s.equals("..")) {
                        names.add(s);
                    }
                    offset += length;
                }
            }
        } finally {
            close(fd, directory);
        }
    }

    public static PageCacheResidency residency(Path file) {
        int fd = openat(Posix.AT_FDCWD, file, Posix.O_RDONLY | Posix.O_CLOEXEC, 0);
        try {
            return residency(fd, statx(Posix.AT_FDCWD, file, 0).sizeBytes(), file);
        } finally {
            close(fd, file);
        }
    }

    /** @return as {@link #residency(Path)} for the open file {@code fd} of {@code size} bytes ({@code file} names it in failures) */
    public static PageCacheResidency residency(int fd, long size, Path file) {
        long pageSize = C.sysconf(SC_PAGESIZE);
        long pages = (size + pageSize - 1) / pageSize;
        if (pages == 0) {
            return new PageCacheResidency(0, 0);
        }
        long address = C.mmap(0, size, PROT_READ, MAP_SHARED, fd, 0);
        if (address == -1) {
            throw failure("mmap", "NULL, " + size + ", PROT_READ, MAP_SHARED, " + fd + " " + quote(file) + ", 0", file);
        }
        try {
            ByteBuffer vector = ByteBuffer.allocateDirect((int) pages);
            if (C.mincore(address, size, Posix.address(vector)) != 0) {
                throw failure("mincore", Long.toHexString(address) + ", " + size + " " + quote(file), file);
            }
            long resident = 0;
            for (int i = 0; i < pages; i++) {
                resident += vector.get(i) & 1;
            }
            return new PageCacheResidency(pages, resident);
        } finally {
            C.munmap(address, size);
        }
    }

    /** @return what serves the calls, as {@link SystemCalls#description()} */
    public static String binding() {
        return C.description();
    }

    /** @return the address of a direct buffer's first byte */
    public static long address(ByteBuffer direct) {
        return C.address(direct);
    }

    /** @return libc's text for {@code errno}, e.g. "No space left on device" */
    public static String strerror(int errno) {
        return C.strerror(errno);
    }

    private static String dirfdText(int dirfd) {
        return dirfd == Posix.AT_FDCWD ? "AT_FDCWD, " : dirfd + ", ";
    }

    private static String lockText(int operation) {
        String base = (operation & Posix.LOCK_UN) != 0 ? "LOCK_UN" : (operation & Posix.LOCK_EX) != 0 ? "LOCK_EX" : "LOCK_SH";
        return (operation & Posix.LOCK_NB) != 0 ? base + "|LOCK_NB" : base;
    }
}
