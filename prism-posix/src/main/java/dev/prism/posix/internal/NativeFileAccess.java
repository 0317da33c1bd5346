package dev.prism.posix.internal;

import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.Posix;
import dev.prism.spi.HeldDirectory;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link FileAccess} through libc. Remembers the address of the last buffer, so reusing one allocates nothing.
 *
 * <p>Given the run directory held by its descriptor ({@link #NativeFileAccess(HeldDirectory)}), every path beneath it
 * is reached relative to that descriptor ({@code openat(runfd, "rank-0/f.dat", …)}): renaming the run directory, or a
 * directory above it, and putting a link in its place changes nothing this access touches. The run directory is this
 * user's and 0700, so nobody else can plant anything on the way below it. The metadata benchmarks' timed path goes
 * further ({@link #createAt}, {@link #statSizeAt}, {@link #renameAt}, {@link #unlinkAt}): a name encoded once
 * ({@link EncodedNames}) relative to its own directory's descriptor ({@link #openDirectory}), one component for the
 * kernel to resolve, and no object made per call.
 */
public final class NativeFileAccess implements FileAccess {
    private ByteBuffer lastBuffer;
    private long lastAddress;
    /** The run directory held, and its path: paths beneath it are reached relative to it; null: by path */
    private final HeldDirectory anchor;
    private final Path anchorPath;
    /** The descriptor the path {@link #beneath} returned last is relative to */
    private int at = Posix.AT_FDCWD;
    /** The one open file of the timed create path, reused: {@link #createAt} makes no object per call */
    private final NativeFile reused = new NativeFile(-1, null);

    public NativeFileAccess() {
        this(null);
    }

    /** @param runDirectory the run directory held by its descriptor, or null to reach every file by path */
    public NativeFileAccess(HeldDirectory runDirectory) {
        Posix.requireSupported();
        this.anchor = runDirectory;
        this.anchorPath = runDirectory == null ? null : runDirectory.path().toAbsolutePath().normalize();
        reused.closed = true;
    }

    @Override
    public String name() {
        return "native";
    }

    /** @return whether this access reaches the run directory through its descriptor */
    public boolean holdsRunDirectory() {
        return anchor != null;
    }

    /**
     * @return {@code file} relative to the held run directory when it lies beneath it (then {@link #at} is its
     *         descriptor), else {@code file} itself (then {@link #at} is AT_FDCWD)
     */
    private Path beneath(Path file) {
        if (anchor != null && file.isAbsolute() && file.startsWith(anchorPath) && file.getNameCount() > anchorPath.getNameCount()) {
            at = anchor.descriptor();
            return file.subpath(anchorPath.getNameCount(), file.getNameCount());
        }
        at = Posix.AT_FDCWD;
        return file;
    }

    /**
     * @return the directory {@code directory}, beneath the held run directory, opened by descriptor (no link
     *         followed on the way); the caller closes it
     * @throws IllegalStateException when no run directory is held or {@code directory} is not beneath it
     */
    public HeldDirectory openDirectory(Path directory) throws java.io.IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        if (anchor == null || !absolute.startsWith(anchorPath) || absolute.equals(anchorPath)) {
            throw new IllegalStateException(directory + " is not beneath the held run directory " + anchorPath);
        }
        return anchor.openDirectory(absolute.subpath(anchorPath.getNameCount(), absolute.getNameCount()).toString());
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
        Path relative = beneath(file);
        return new NativeFile(NativeCalls.openat(at, relative,
                Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC, 0644, file), file);
    }

    /**
     * Creates the file {@code name} (encoded, see {@link EncodedNames}) in the directory open as {@code dirfd}, as
     * {@link #create} does; {@code shown} names it in a failure.
     *
     * @return the open file: one object, reused by the next call, so close it first
     */
    public OpenFile createAt(int dirfd, long name, Path shown) {
        return createAt(dirfd, name, shown, null);
    }

    /**
     * As {@link #createAt(int, long, Path)}, for the file {@code fileName} in {@code directory}: its failures name the
     * two joined, and no {@link Path} is made before one.
     */
    public OpenFile createAt(int dirfd, long name, Path directory, String fileName) {
        if (!reused.closed) {
            throw new IllegalStateException("createAt: the file it returned last (" + reused.shown() + ") is still open");
        }
        reused.fd = NativeCalls.openatName(dirfd, name, Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC,
                0644, directory, fileName);
        reused.path = directory;
        reused.name = fileName;
        reused.closed = false;
        return reused;
    }

    /**
     * @return the size of {@code name} in the directory open as {@code dirfd} ({@code statx}, not following a link); a
     *         failure names {@code fileName} in {@code directory}, with no path made before
     */
    public long statSizeAt(int dirfd, long name, Path directory, String fileName) {
        return NativeCalls.statxSizeName(dirfd, name, Posix.AT_SYMLINK_NOFOLLOW, directory, fileName);
    }

    /** Renames {@code fromName} in {@code fromDirfd} to {@code toName} in {@code toDirfd} ({@code renameat}). */
    public void renameAt(int fromDirfd, long fromName, int toDirfd, long toName, Path shownFrom, Path shownTo) {
        NativeCalls.renameatName(fromDirfd, fromName, toDirfd, toName, shownFrom, shownTo);
    }

    /**
     * Removes the file {@code name} in the directory open as {@code dirfd} ({@code unlinkat}); a failure names {@code
     * fileName} in {@code directory}, with no path made before.
     */
    public void unlinkAt(int dirfd, long name, Path directory, String fileName) {
        NativeCalls.unlinkatName(dirfd, name, 0, directory, fileName);
    }

    @Override
    public OpenFile openRead(Path file) {
        Path relative = beneath(file);
        return new NativeFile(NativeCalls.openat(at, relative, Posix.O_RDONLY | Posix.O_CLOEXEC, 0, file), file);
    }

    @Override
    public OpenFile openReadDirect(Path file) {
        Path relative = beneath(file);
        return new NativeFile(NativeCalls.openat(at, relative,
                Posix.O_RDONLY | Posix.O_DIRECT | Posix.O_CLOEXEC, 0, file), file);
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
        Path relative = beneath(file);
        return new NativeFile(NativeCalls.openat(at, relative,
                Posix.O_RDWR | Posix.O_CREAT | Posix.O_CLOEXEC, 0644, file), file);
    }

    @Override
    public void mkdir(Path directory) {
        Path relative = beneath(directory);
        NativeCalls.mkdirat(at, relative, 0755, directory);
    }

    @Override
    public void rename(Path from, Path to) {
        Path relativeFrom = beneath(from);
        int fromAt = at;
        Path relativeTo = beneath(to);
        NativeCalls.renameat(fromAt, relativeFrom, at, relativeTo, from, to);
    }

    @Override
    public void unlink(Path file) {
        Path relative = beneath(file);
        NativeCalls.unlinkat(at, relative, 0, file);
    }

    @Override
    public void rmdir(Path directory) {
        Path relative = beneath(directory);
        NativeCalls.unlinkat(at, relative, Posix.AT_REMOVEDIR, directory);
    }

    @Override
    public FileStat stat(Path path) {
        Path relative = beneath(path);
        return NativeCalls.statx(at, relative, Posix.AT_SYMLINK_NOFOLLOW, path);
    }

    @Override
    public List<String> list(Path directory) {
        Path relative = beneath(directory);
        return NativeCalls.listDirectory(at, relative, directory);
    }

    @Override
    public void link(Path existing, Path link) {
        Path relativeExisting = beneath(existing);
        int existingAt = at;
        Path relativeLink = beneath(link);
        NativeCalls.linkat(existingAt, relativeExisting, at, relativeLink, existing, link);
    }

    private final class NativeFile implements OpenFile {
        private int fd;
        /** The file, or where {@link #name} is not null, its directory */
        private Path path;
        private String name;
        private boolean closed;

        NativeFile(int fd, Path path) {
            this.fd = fd;
            this.path = path;
        }

        /** @return the file's path, joined now where it was opened as a name in a directory */
        Path shown() {
            return NativeCalls.shown(path, name);
        }

        @Override
        public int write(ByteBuffer source) {
            int n = (int) NativeCalls.write(fd, address(source) + source.position(), source.remaining(), path, name);
            source.position(source.position() + n);
            return n;
        }

        @Override
        public int read(ByteBuffer target) {
            int n = (int) NativeCalls.read(fd, address(target) + target.position(), target.remaining(), shown());
            target.position(target.position() + n);
            return n == 0 && target.remaining() > 0 ? -1 : n;
        }

        @Override
        public void sync() {
            NativeCalls.fsync(fd, path, name);
        }

        @Override
        public void lock(boolean exclusive) {
            NativeCalls.flock(fd, exclusive ? Posix.LOCK_EX : Posix.LOCK_SH, shown());
        }

        @Override
        public void unlock() {
            NativeCalls.flock(fd, Posix.LOCK_UN, shown());
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                NativeCalls.close(fd, path, name);
            }
        }
    }
}
