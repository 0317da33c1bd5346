package dev.prism.posix;

import dev.prism.PrismException;
import dev.prism.spi.Errno;
import dev.prism.posix.internal.NativeCalls;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * libc's file calls, typed, for Linux on x86-64 and aarch64: {@code openat}, {@code read}/{@code pread},
 * {@code write}/{@code pwrite}, {@code fsync}, {@code posix_fadvise}, {@code link}, {@code flock},
 * {@code renameat}, {@code unlinkat}, {@code mkdirat}, {@code statx}, {@code getdents64} and
 * {@code mmap} + {@code mincore}. A failed call throws {@link PosixException} naming the function,
 * the path and errno, e.g. {@code openat("ckpt/0001.bin", O_RDONLY): ENOENT (2)}. Flag constants
 * carry this machine's values (they differ between x86-64 and aarch64).
 *
 * <pre>{@code
 * import dev.prism.posix.Posix;
 * import java.nio.file.Files;
 *
 * var dir = Files.createTempDirectory("posix");
 * int fd = Posix.open(dir.resolve("a.bin"),
 *         Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL, 0644);
 * Posix.close(fd, dir.resolve("a.bin"));
 * System.out.println(Posix.listDirectory(dir) + " " + Posix.lstat(dir.resolve("a.bin")));
 * }</pre>
 */
public final class Posix {
    /** The architecture whose constants apply: {@code x86_64} or {@code aarch64}; null elsewhere. */
    public static final String ARCH = detectArch();

    /** Open for reading only. */
    public static final int O_RDONLY = 0;
    /** Open for writing only. */
    public static final int O_WRONLY = 1;
    /** Open for reading and writing. */
    public static final int O_RDWR = 2;
    /** Create the file if it does not exist. */
    public static final int O_CREAT = 0100;
    /** With O_CREAT: fail with EEXIST if the file exists. */
    public static final int O_EXCL = 0200;
    /** Truncate to length 0. */
    public static final int O_TRUNC = 01000;
    /** Append on each write. */
    public static final int O_APPEND = 02000;
    /** Writes complete as for fdatasync. */
    public static final int O_DSYNC = 010000;
    /** Writes complete as for fsync (includes O_DSYNC's bit). */
    public static final int O_SYNC = 04010000;
    /** Close on exec. */
    public static final int O_CLOEXEC = 02000000;
    /** Bypass the page cache (buffers, offsets and sizes must be aligned). Differs by architecture. */
    public static final int O_DIRECT = "aarch64".equals(ARCH) ? 0200000 : 040000;
    /** Fail unless the path is a directory. Differs by architecture. */
    public static final int O_DIRECTORY = "aarch64".equals(ARCH) ? 040000 : 0200000;
    /** Fail if the last path component is a symbolic link. Differs by architecture. */
    public static final int O_NOFOLLOW = "aarch64".equals(ARCH) ? 0100000 : 0400000;

    /** The "current directory" descriptor for the *at calls. */
    public static final int AT_FDCWD = -100;
    /** unlinkat: remove a directory. */
    public static final int AT_REMOVEDIR = 0x200;
    /** statx, linkat's opposite: do not follow a final symbolic link. */
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    /** linkat: follow a final symbolic link of the existing path. */
    public static final int AT_SYMLINK_FOLLOW = 0x400;

    /** posix_fadvise: the data will be accessed soon. */
    public static final int POSIX_FADV_WILLNEED = 3;
    /** posix_fadvise: drop the file's clean pages from the page cache. */
    public static final int POSIX_FADV_DONTNEED = 4;

    /** flock: shared lock. */
    public static final int LOCK_SH = 1;
    /** flock: exclusive lock. */
    public static final int LOCK_EX = 2;
    /** flock: fail with EWOULDBLOCK instead of waiting. */
    public static final int LOCK_NB = 4;
    /** flock: release. */
    public static final int LOCK_UN = 8;

    private Posix() {
    }

    private static String detectArch() {
        return archOf(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** @return {@code x86_64} or {@code aarch64} for Linux on those, null for anything else */
    static String archOf(String osName, String osArch) {
        if (!osName.toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        switch (osArch) {
            case "amd64": case "x86_64": return "x86_64";
            case "aarch64": case "arm64": return "aarch64";
            default: return null;
        }
    }

    /**
     * @throws PrismException saying what is supported when this is not Linux on x86-64 or aarch64
     */
    public static void requireSupported() {
        requireSupported(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    static void requireSupported(String osName, String osArch) {
        if (archOf(osName, osArch) == null) {
            throw new PrismException("the NATIVE file access (libc through java.lang.foreign or JNA) supports Linux on x86-64 and"
                    + " aarch64; this is " + osName + " on " + osArch + ": use access=nio");
        }
    }

    /**
     * @return what serves these calls in this JVM: "java.lang.foreign (JDK …)" on JDK 22 and later, "JNA …" before;
     *         the system property {@code prism.posix.binding} ({@code ffm}, {@code jna}, {@code auto}) forces one
     */
    public static String binding() {
        return NativeCalls.binding();
    }

    /** @return the address of a direct buffer's first byte (not its position) */
    public static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("buffer must be direct (ByteBuffer.allocateDirect) to pass to libc");
        }
        return NativeCalls.address(direct);
    }

    /** {@code openat(AT_FDCWD, path, flags, mode)}; @return the file descriptor */
    public static int open(Path path, int flags, int mode) {
        return NativeCalls.openat(AT_FDCWD, path, flags, mode);
    }

    /** {@code openat(dirfd, path, flags, mode)}; @return the file descriptor */
    public static int openat(int dirfd, Path path, int flags, int mode) {
        return NativeCalls.openat(dirfd, path, flags, mode);
    }

    /** {@code close(fd)}; {@code path} only names the file in a failure. */
    public static void close(int fd, Path path) {
        NativeCalls.close(fd, path);
    }

    /** {@code read} into {@code buffer} from its position to its limit, advancing the position; @return bytes read, 0 at end of file */
    public static long read(int fd, ByteBuffer buffer, Path path) {
        long n = NativeCalls.read(fd, address(buffer) + buffer.position(), buffer.remaining(), path);
        buffer.position(buffer.position() + (int) n);
        return n;
    }

    /** {@code pread} into {@code buffer} at {@code offset}, advancing the buffer's position; @return bytes read */
    public static long pread(int fd, ByteBuffer buffer, long offset, Path path) {
        long n = NativeCalls.pread(fd, address(buffer) + buffer.position(), buffer.remaining(), offset, path);
        buffer.position(buffer.position() + (int) n);
        return n;
    }

    /** {@code write} from {@code buffer}'s position to its limit, advancing the position; @return bytes written */
    public static long write(int fd, ByteBuffer buffer, Path path) {
        long n = NativeCalls.write(fd, address(buffer) + buffer.position(), buffer.remaining(), path);
        buffer.position(buffer.position() + (int) n);
        return n;
    }

    /** {@code pwrite} from {@code buffer} at {@code offset}, advancing the buffer's position; @return bytes written */
    public static long pwrite(int fd, ByteBuffer buffer, long offset, Path path) {
        long n = NativeCalls.pwrite(fd, address(buffer) + buffer.position(), buffer.remaining(), offset, path);
        buffer.position(buffer.position() + (int) n);
        return n;
    }

    /** {@code fsync(fd)} */
    public static void fsync(int fd, Path path) {
        NativeCalls.fsync(fd, path);
    }

    /** {@code fdatasync(fd)} */
    public static void fdatasync(int fd, Path path) {
        NativeCalls.fdatasync(fd, path);
    }

    /** {@code posix_fadvise(fd, offset, length, advice)}; length 0 means to the end of the file. */
    public static void fadvise(int fd, long offset, long length, int advice, Path path) {
        NativeCalls.fadvise(fd, offset, length, advice, path);
    }

    /** {@code link(existing, newPath)}: a hard link. */
    public static void link(Path existing, Path newPath) {
        NativeCalls.link(existing, newPath);
    }

    /** {@code linkat(existingDirfd, existing, newDirfd, newPath, flags)} */
    public static void linkat(int existingDirfd, Path existing, int newDirfd, Path newPath, int flags) {
        NativeCalls.linkat(existingDirfd, existing, newDirfd, newPath, flags);
    }

    /** {@code flock(fd, operation)}: {@link #LOCK_SH}, {@link #LOCK_EX} or {@link #LOCK_UN}, optionally | {@link #LOCK_NB}. */
    public static void flock(int fd, int operation, Path path) {
        NativeCalls.flock(fd, operation, path);
    }

    /** {@code renameat(AT_FDCWD, from, AT_FDCWD, to)} */
    public static void rename(Path from, Path to) {
        NativeCalls.renameat(AT_FDCWD, from, AT_FDCWD, to);
    }

    /** {@code renameat(oldDirfd, from, newDirfd, to)} */
    public static void renameat(int oldDirfd, Path from, int newDirfd, Path to) {
        NativeCalls.renameat(oldDirfd, from, newDirfd, to);
    }

    /** {@code unlinkat(AT_FDCWD, path, 0)} */
    public static void unlink(Path path) {
        NativeCalls.unlinkat(AT_FDCWD, path, 0);
    }

    /** {@code unlinkat(AT_FDCWD, path, AT_REMOVEDIR)} */
    public static void rmdir(Path path) {
        NativeCalls.unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
    }

    /** {@code unlinkat(dirfd, path, flags)} */
    public static void unlinkat(int dirfd, Path path, int flags) {
        NativeCalls.unlinkat(dirfd, path, flags);
    }

    /** {@code mkdirat(AT_FDCWD, path, mode)} */
    public static void mkdir(Path path, int mode) {
        NativeCalls.mkdirat(AT_FDCWD, path, mode);
    }

    /** {@code mkdirat(dirfd, path, mode)} */
    public static void mkdirat(int dirfd, Path path, int mode) {
        NativeCalls.mkdirat(dirfd, path, mode);
    }

    /** {@code statx} following a final symbolic link, like stat(2). */
    public static FileStat stat(Path path) {
        return NativeCalls.statx(AT_FDCWD, path, 0);
    }

    /** {@code statx} with AT_SYMLINK_NOFOLLOW, like lstat(2). */
    public static FileStat lstat(Path path) {
        return NativeCalls.statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW);
    }

    /** The names in {@code directory} (without {@code .} and {@code ..}), read with {@code getdents64}. */
    public static List<String> listDirectory(Path directory) {
        return NativeCalls.listDirectory(directory);
    }

    /** How much of {@code file} is in the page cache now ({@code mmap} + {@code mincore}); reading nothing. */
    public static PageCacheResidency residency(Path file) {
        return NativeCalls.residency(file);
    }

    /**
     * Writes back and then drops {@code file}'s pages from the page cache: {@code fdatasync} then
     * {@code posix_fadvise(POSIX_FADV_DONTNEED)}. Clean pages go at once; a filesystem may ignore the advice.
     */
    public static void dropFromPageCache(Path file) {
        NativeCalls.dropFromPageCache(open(file, O_RDONLY | O_CLOEXEC, 0), file);
    }

    /** @return the symbolic name of an errno value, e.g. {@code ENOSPC} for 28 */
    public static String errnoName(int errno) {
        return Errno.name(errno);
    }
}
