package dev.prism.spi;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A directory opened once and held by its descriptor: everything PRISM creates, writes, renames, reads or removes below
 * it is reached relative to that descriptor, one component at a time, never following a symbolic link — with
 * {@code openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)} where the kernel has it (Linux 5.6,
 * probed once), else {@code openat(O_NOFOLLOW)} per component. Another user who may write a directory on the path can
 * rename it or put a link in its place after it was opened: what PRISM does through the held descriptor still happens
 * in the directory it opened and checked, never where the link points.
 *
 * <p>A write is {@link #writeAtomically}: a temporary name created exclusively (never an existing file, never through
 * a link), written, synced and given its mode through that one descriptor, then renamed within the held directory.
 * An input is {@link #openInput}: opened once without following a link and without blocking (a FIFO put in its place
 * cannot hang the reader), and judged on the descriptor: a regular file of at most a bound, or refused.
 *
 * <pre>{@code
 * import dev.prism.spi.HeldDirectory;
 * import java.nio.charset.StandardCharsets;
 * import java.nio.file.Files;
 *
 * var dir = Files.createTempDirectory("prism-held-");
 * try (HeldDirectory held = HeldDirectory.open(dir)) {
 *     held.writeAtomically("result.json", "{}".getBytes(StandardCharsets.UTF_8), 0644);
 *     try (var in = held.openInput("result.json", 1024, "result document")) {
 *         System.out.println(new String(in.readAllBytes(), StandardCharsets.UTF_8)); // {}
 *     }
 * }
 * }</pre>
 */
public final class HeldDirectory implements AutoCloseable {
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 01;
    private static final int O_CREAT = 0100;
    private static final int O_APPEND = 02000;
    private static final int O_EXCL = 0200;
    private static final int O_NOCTTY = 0400;
    private static final int O_NONBLOCK = 04000;
    private static final int O_DIRECTORY = AARCH64 ? 040000 : 0200000;
    private static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    private static final int O_CLOEXEC = 02000000;
    private static final int AT_FDCWD = -100;
    private static final int AT_REMOVEDIR = 0x200;
    private static final long RESOLVE_NO_MAGICLINKS = 0x02;
    private static final long RESOLVE_NO_SYMLINKS = 0x04;
    private static final long RESOLVE_BENEATH = 0x08;
    /** openat2's number, the same on x86-64 and aarch64 (new system calls share one table). */
    private static final long SYS_OPENAT2 = 437;
    private static final int ENOSYS = 38;
    private static final int ELOOP = 40;
    private static final int EXDEV = 18;
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Null until probed: whether this kernel has openat2. */
    private static volatile Boolean openat2;
    private static volatile boolean preferOpenat2 = true;

    private final int fd;
    private final Path path;
    private boolean closed;

    private HeldDirectory(int fd, Path path) {
        this.fd = fd;
        this.path = path;
    }

    /**
     * Opens {@code directory}: its links are resolved once (a configured path such as {@code /scratch -> /lustre/x} is
     * allowed), then the real path is opened from {@code /} one component at a time without following links, so a
     * component swapped for a link in between is refused rather than followed.
     *
     * @throws IOException naming the call, the path and errno, e.g. {@code openat("/t/out", O_NOFOLLOW): Too many
     *                     levels of symbolic links (ELOOP)} when a component became a link
     */
    public static HeldDirectory open(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        Path real;
        try {
            real = absolute.toRealPath();
        } catch (IOException e) {
            throw Errno.named("realpath", absolute, e);
        }
        int root = call("open", absolute, () -> Libc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0));
        HeldDirectory held = new HeldDirectory(root, Path.of("/"));
        if (real.getNameCount() == 0) {
            return held;
        }
        try (held) {
            return held.descend(real.toString().substring(1), absolute);
        }
    }

    /**
     * Opens {@code directory}, one this process's user made (a run directory), for everything below it to be reached
     * through its descriptor: its parent as {@link #open} does, then the directory itself below that parent without
     * following a link, its owner checked on the descriptor. A link put in its place is refused, never followed; another
     * user's directory put there is refused.
     *
     * @throws IOException naming the call, path and errno ({@code ELOOP} for a link), or an
     *                     {@link java.nio.file.AccessDeniedException} naming the owner when another user owns it
     */
    public static HeldDirectory openOwned(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        if (absolute.getParent() == null) {
            throw new IllegalArgumentException("directory must be below another, was " + absolute);
        }
        HeldDirectory held;
        try (HeldDirectory parent = open(absolute.getParent())) {
            held = parent.openDirectory(absolute.getFileName().toString());
        }
        try {
            int owner = held.ownerUid();
            int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (owner != self) {
                throw new java.nio.file.AccessDeniedException(absolute.toString(), null, "is owned by uid " + owner
                        + ", not by this process's user (uid " + self + "): another directory was put in its place");
            }
            return held;
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /**
     * The file in a run directory that names its run (the run id and a newline, mode 0600): written when the run
     * directory is made, kept between repetitions, read by every rank and launcher that holds the run directory.
     */
    public static final String RUN_MARK = ".prism-run";

    /**
     * Opens {@code runDirectory} as {@link #openOwned} does and checks that it is run {@code runId}'s: its
     * {@link #RUN_MARK}, read through the descriptor, names that run. Another directory of this user put in its place by
     * someone who may write above it (another run's directory, a dataset's) is refused; so is one with no mark.
     *
     * @throws java.nio.file.AccessDeniedException naming the directory when it is not that run's, or another user's
     */
    public static HeldDirectory openRun(Path runDirectory, String runId) throws IOException {
        HeldDirectory held = openOwned(runDirectory);
        try {
            String named = held.runMark();
            if (!runId.equals(named)) {
                throw new java.nio.file.AccessDeniedException(held.path().toString(), null, named == null
                        ? "holds no PRISM run mark (" + RUN_MARK + "), though run " + runId + " made one: another"
                        + " directory is in its place, or the mark was removed"
                        : "is marked as run " + (named.length() > 80 ? named.substring(0, 80) + "…" : named)
                        + "'s, not run " + runId + "'s: another run's directory is in its place");
            }
            return held;
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /** @return the run this directory's {@link #RUN_MARK} names, or null when it has none (or not a small file) */
    public String runMark() throws IOException {
        try (InputStream in = openInput(RUN_MARK, 4096, "run mark")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Marks this directory as run {@code runId}'s ({@link #RUN_MARK}), replacing the mark atomically. */
    public void markRun(String runId) throws IOException {
        writeAtomically(RUN_MARK, (runId + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8), 0600);
    }

    /** @return the path this directory was opened by, for messages only: nothing is reached by it */
    public Path path() {
        return path;
    }

    /** @return the descriptor, for a child's working directory through {@code /proc/self/fd/N} */
    public int descriptor() {
        requireOpen();
        return fd;
    }

    /** @return {@code /proc/self/fd/N}: this directory reached through its descriptor, whatever its name is now */
    public Path procPath() {
        return Path.of("/proc/self/fd/" + descriptor());
    }

    /**
     * @return {@code /proc/<this JVM's pid>/fd/N}: this directory as a program PRISM starts reaches it, as its working
     *         directory or in its arguments, whatever its name is now, for as long as this JVM holds it open
     *         ({@code /proc/self} would name the child; {@link ProcessBuilder} closes the child's inherited descriptors
     *         before its {@code chdir}, while the parent's stay open)
     */
    public Path childPath() {
        return Path.of("/proc/" + ProcessHandle.current().pid() + "/fd/" + descriptor());
    }

    /**
     * Opens the directory {@code relative} below this one ({@code a/b/c}), never following a link, never leaving it.
     *
     * @throws IllegalArgumentException when {@code relative} is absolute, empty, or has a {@code ..} or empty component
     * @throws IOException              naming the call, path and errno (a link on the way: ELOOP)
     */
    public HeldDirectory openDirectory(String relative) throws IOException {
        requireOpen();
        return descend(confined(relative), path.resolve(relative));
    }

    private HeldDirectory descend(String relative, Path named) throws IOException {
        if (hasOpenat2()) {
            int opened = openat2(fd, relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, named);
            if (opened >= 0) {
                return new HeldDirectory(opened, named);
            }
        }
        int current = fd;
        try {
            for (String component : relative.split("/")) {
                int at = current;
                int next;
                try {
                    next = call("openat(O_NOFOLLOW)", named, () -> Libc.openat(at, component,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0));
                } catch (CallFailed e) {
                    // O_DIRECTORY is judged before O_NOFOLLOW: a link there reads ENOTDIR; say it was a link
                    if (e.errno == 20 && Files.isSymbolicLink(Path.of("/proc/self/fd/" + at).resolve(component))) {
                        throw failure("openat(O_NOFOLLOW)", named, ELOOP);
                    }
                    throw e;
                }
                if (current != fd) {
                    Libc.close(current);
                }
                current = next;
            }
        } catch (IOException | RuntimeException e) {
            if (current != fd) {
                Libc.close(current);
            }
            throw e;
        }
        return new HeldDirectory(current, named);
    }

    /** @return a negative value when openat2 turned out missing here (probed again never) */
    private static int openat2(int dirfd, String relative, int flags, int mode, Path named) throws IOException {
        Memory how = new Memory(24);
        how.setLong(0, flags);
        how.setLong(8, mode);
        how.setLong(16, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        while (true) {
            try {
                return (int) Libc.syscall(SYS_OPENAT2, dirfd, relative, how, 24L);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == ENOSYS) {
                    openat2 = false;
                    return -1;
                }
                if (e.getErrorCode() == EINTR || e.getErrorCode() == EAGAIN) {
                    continue;
                }
                // EXDEV: the path left the directory; ELOOP: a link on it
                throw failure("openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS)", named, e.getErrorCode());
            }
        }
    }

    /**
     * For tests: whether to use openat2 where the kernel has it ({@code true}, the default) or always the per-component
     * {@code openat(O_NOFOLLOW)} walk.
     *
     * @return the previous choice
     */
    static boolean preferOpenat2(boolean prefer) {
        boolean was = preferOpenat2;
        preferOpenat2 = prefer;
        return was;
    }

    private static boolean hasOpenat2() {
        if (!preferOpenat2) {
            return false;
        }
        Boolean known = openat2;
        if (known == null) {
            try {
                int probe = openat2(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, Path.of("."));
                if (probe >= 0) {
                    Libc.close(probe);
                    openat2 = true;
                }
            } catch (IOException e) {
                openat2 = false; // seccomp or an old kernel refusing it another way
            }
            known = openat2;
        }
        return known;
    }

    /**
     * Makes the directory {@code name} here with {@code mode} (less the umask), or keeps the real directory of this user
     * already there; anything else in its place (a link, a file) is refused.
     *
     * @return the directory, held
     */
    public HeldDirectory makeOrKeepDirectory(String name, int mode) throws IOException {
        requireOpen();
        String single = single(name);
        try {
            Libc.mkdirat(fd, single, mode);
        } catch (LastErrorException e) {
            if (e.getErrorCode() != 17) { // EEXIST: a directory left there is kept; a link is refused when opened
                throw failure("mkdirat", path.resolve(single), e.getErrorCode());
            }
        }
        return openDirectory(single);
    }

    /**
     * Makes the directory {@code name} here with {@code mode} (less the umask); it must not exist.
     *
     * @throws java.nio.file.FileAlreadyExistsException when something is there already
     */
    public HeldDirectory makeDirectory(String name, int mode) throws IOException {
        requireOpen();
        String single = single(name);
        try {
            Libc.mkdirat(fd, single, mode);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == 17) {
                throw new java.nio.file.FileAlreadyExistsException(path.resolve(single).toString());
            }
            throw failure("mkdirat", path.resolve(single), e.getErrorCode());
        }
        HeldDirectory made = openDirectory(single);
        made.changeMode(mode);
        return made;
    }

    /** Sets this directory's mode through its descriptor ({@code fchmod}), the umask not applied. */
    public void changeMode(int mode) throws IOException {
        requireOpen();
        call("fchmod", path, () -> Libc.fchmod(fd, mode));
    }

    /**
     * Writes {@code content} as {@code name} so a reader sees the old file or the whole new one: a temporary name
     * created exclusively without following links, written, synced and set to {@code mode} through its one descriptor,
     * then renamed over {@code name} within this directory, and the directory synced. Nothing is opened by name twice.
     *
     * @param mode the file's permission bits, e.g. {@code 0644}; set exactly, the umask not applied
     * @throws IOException naming the call that failed, its path and errno, e.g.
     *                     {@code write("/t/.m.json.1f2e.tmp"): No space left on device (ENOSPC)}; or, when another user
     *                     replaced the temporary name before the rename (the directory is theirs to write too), saying
     *                     that the file now at {@code name} is not the one written
     */
    public void writeAtomically(String name, byte[] content, int mode) throws IOException {
        requireOpen();
        String single = single(name);
        String temporary = "." + single + "." + HexFormat.of().toHexDigits(RANDOM.nextLong()) + ".tmp";
        Path named = path.resolve(temporary);
        int file = call("open(O_CREAT|O_EXCL|O_NOFOLLOW)", named, () -> Libc.openat(fd, temporary,
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        boolean renamed = false;
        try {
            // kept open until the check below: a file closed and gone could lend its inode number to another's link
            Object written = Files.readAttributes(Path.of("/proc/self/fd/" + file), BasicFileAttributes.class).fileKey();
            writeSetModeAndSync(file, content, mode, named);
            call("renameat", named, () -> Libc.renameat(fd, temporary, fd, single));
            renamed = true;
            // the temporary name is in a directory others may write: what was renamed must be the file written
            Object placed;
            try {
                placed = Files.readAttributes(procPath().resolve(single), BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS).fileKey();
            } catch (IOException gone) {
                placed = null;
            }
            if (written == null || !written.equals(placed)) {
                throw new IOException(Errno.failedCall("renameat", path.resolve(single), "the file now at that name"
                        + " is not the one written: another user replaced its temporary name before the rename, and"
                        + " the document is not in place"));
            }
        } finally {
            Libc.close(file);
            if (!renamed) {
                try {
                    Libc.unlinkat(fd, temporary, 0);
                } catch (LastErrorException e) {
                    // the write's own failure is the one to report
                }
            }
        }
        try {
            Libc.fsync(fd);
        } catch (LastErrorException e) {
            // some filesystems refuse to fsync a directory; the rename itself is still atomic
        }
    }

    /**
     * Creates {@code name} exclusively (never an existing file, never through a link) with {@code content} and
     * {@code mode}, through one descriptor, synced.
     *
     * @throws java.nio.file.FileAlreadyExistsException when something is there already
     */
    public void writeNew(String name, byte[] content, int mode) throws IOException {
        requireOpen();
        String single = single(name);
        Path named = path.resolve(single);
        int file;
        try {
            file = Libc.openat(fd, single, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == 17) {
                throw new java.nio.file.FileAlreadyExistsException(named.toString());
            }
            throw failure("open(O_CREAT|O_EXCL|O_NOFOLLOW)", named, e.getErrorCode());
        }
        fill(file, content, mode, named);
    }

    /** Writes {@code content} through {@code file}, sets its mode and syncs it through that descriptor, and closes it. */
    private static void fill(int file, byte[] content, int mode, Path named) throws IOException {
        try {
            writeSetModeAndSync(file, content, mode, named);
        } finally {
            Libc.close(file);
        }
    }

    /** Writes {@code content} through {@code file}, sets its mode and syncs it, all through that descriptor. */
    private static void writeSetModeAndSync(int file, byte[] content, int mode, Path named) throws IOException {
        writeAll(file, content, named);
        call("fchmod", named, () -> Libc.fchmod(file, mode));
        call("fsync", named, () -> Libc.fsync(file));
    }

    /**
     * Appends {@code bytes} to {@code name} here, creating it with {@code mode} (less the umask) when missing: opened
     * without following a link, written, closed.
     */
    public void append(String name, byte[] bytes, int mode) throws IOException {
        requireOpen();
        String single = single(name);
        Path named = path.resolve(single);
        int file = call("open(O_APPEND|O_CREAT|O_NOFOLLOW)", named, () -> Libc.openat(fd, single,
                O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode));
        try {
            if (!Files.isRegularFile(Path.of("/proc/self/fd/" + file))) {
                throw new IOException(Errno.failedCall("open", named, "not a regular file: refused"));
            }
            writeAll(file, bytes, named);
        } finally {
            Libc.close(file);
        }
    }

    /**
     * Opens the regular file {@code name} here for reading, without following a link or blocking.
     *
     * @return the open file, or null when there is none of that name
     * @throws IOException when something other than a regular file is there, naming it
     */
    public java.nio.channels.FileChannel openForReading(String name) throws IOException {
        requireOpen();
        String single = single(name);
        Path named = path.resolve(single);
        int file;
        try {
            file = Libc.openat(fd, single, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == 2) {
                return null;
            }
            throw failure("openat(O_NOFOLLOW|O_NONBLOCK)", named, e.getErrorCode());
        }
        try {
            Path self = Path.of("/proc/self/fd/" + file);
            if (!Files.isRegularFile(self)) {
                throw new IOException(Errno.failedCall("open", named, "not a regular file: refused"));
            }
            return java.nio.channels.FileChannel.open(self, java.nio.file.StandardOpenOption.READ);
        } finally {
            Libc.close(file);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }

    private static void writeAll(int file, byte[] content, Path named) throws IOException {
        int offset = 0;
        byte[] chunk = content;
        while (offset < content.length) {
            int length = Math.min(content.length - offset, 1 << 20);
            if (offset > 0 || length < content.length) {
                chunk = java.util.Arrays.copyOfRange(content, offset, offset + length);
            }
            byte[] piece = chunk;
            int written = call("write", named, () -> (int) Libc.write(file, piece, piece.length));
            offset += written;
        }
    }

    /**
     * Opens {@code relative} below this directory for reading, once: without following a link on the way or at its end
     * and without blocking, then judged on the descriptor. The stream fails past {@code maxBytes} (a file that grew).
     *
     * @param what what the file is, for messages ({@code result document})
     * @throws IllegalArgumentException naming the file when it is missing, a link, not a regular file, or too large
     */
    public InputStream openInput(String relative, long maxBytes, String what) throws IOException {
        requireOpen();
        String confined = confined(relative);
        Path named = path.resolve(confined);
        int file;
        try {
            file = openBeneath(confined, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, named);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(what + " " + named + " does not exist");
        } catch (LinkRefused e) {
            throw new IllegalArgumentException(what + " " + named + " is a symbolic link or lies beyond one: refused,"
                    + " as whoever may change the link decides what it reads; give the file it points to");
        }
        try {
            return judged(file, named, maxBytes, what);
        } catch (IOException | RuntimeException e) {
            Libc.close(file);
            throw e;
        }
    }

    /**
     * Opens the file {@code file} (any path) for reading as {@link #openInput} does: its directory is held and the file
     * opened relative to it, not following a link at its end, without blocking.
     */
    public static InputStream openInput(Path file, long maxBytes, String what) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null || absolute.getFileName() == null) {
            throw new IllegalArgumentException(what + " " + file + " is a directory, not a regular file");
        }
        HeldDirectory directory;
        try {
            directory = open(parent);
        } catch (IOException e) {
            if (!Files.exists(parent)) {
                throw new IllegalArgumentException(what + " " + file + " does not exist");
            }
            throw e;
        }
        try (directory) {
            return directory.openInput(absolute.getFileName().toString(), maxBytes, what);
        }
    }

    /** Thrown inside when a link is met on the way; turned into the caller's message. */
    private static final class LinkRefused extends IOException {
        LinkRefused(String message) {
            super(message);
        }
    }

    private int openBeneath(String relative, int flags, Path named) throws IOException {
        int slash = relative.lastIndexOf('/');
        HeldDirectory parent = slash < 0 ? null : openDirectoryOrRefuse(relative.substring(0, slash), named);
        int at = parent == null ? fd : parent.fd;
        String leaf = relative.substring(slash + 1);
        try {
            return Libc.openat(at, leaf, flags, 0);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == 2) {
                throw new NoSuchFileException(named.toString());
            }
            if (e.getErrorCode() == ELOOP) {
                throw new LinkRefused(named.toString());
            }
            throw failure("openat(O_NOFOLLOW|O_NONBLOCK)", named, e.getErrorCode());
        } finally {
            if (parent != null) {
                parent.close();
            }
        }
    }

    private HeldDirectory openDirectoryOrRefuse(String relative, Path named) throws IOException {
        try {
            return descend(relative, named);
        } catch (CallFailed e) {
            if (e.errno == ELOOP || e.errno == EXDEV) {
                throw new LinkRefused(named.toString());
            }
            throw e;
        }
    }

    private static InputStream judged(int file, Path named, long maxBytes, String what) throws IOException {
        Path self = Path.of("/proc/self/fd/" + file);
        PosixFileAttributes attributes = Files.readAttributes(self, PosixFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IllegalArgumentException(what + " " + named + " is " + kind(self, attributes) + ", not a regular file");
        }
        if (attributes.size() > maxBytes) {
            throw new IllegalArgumentException(what + " " + named + " holds " + attributes.size() + " bytes, over the "
                    + maxBytes + " a " + what + " may have");
        }
        // the same open file, read through Java's streams: /proc/self/fd/N is this descriptor, not a name
        InputStream in = Files.newInputStream(self);
        Libc.close(file);
        return new FilterInputStream(in) {
            private long read;

            @Override
            public int read() throws IOException {
                int b = super.read();
                count(b < 0 ? 0 : 1);
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                count(Math.max(0, n));
                return n;
            }

            private void count(int n) {
                read += n;
                if (read > maxBytes) {
                    throw new IllegalArgumentException(what + " " + named + " holds more than the " + maxBytes
                            + " bytes a " + what + " may have");
                }
            }
        };
    }

    private static String kind(Path self, PosixFileAttributes attributes) throws IOException {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        Object mode = Files.getAttribute(self, "unix:mode");
        int type = mode instanceof Integer m ? m & 0170000 : 0;
        return switch (type) {
            case 0010000 -> "a FIFO";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "a file of another kind";
        };
    }

    /** Removes the file {@code name} here ({@code unlinkat}); a link is removed, never followed. */
    public void deleteFile(String name) throws IOException {
        requireOpen();
        String single = single(name);
        call("unlinkat", path.resolve(single), () -> Libc.unlinkat(fd, single, 0));
    }

    /** Removes the empty directory {@code name} here ({@code unlinkat(AT_REMOVEDIR)}). */
    public void deleteDirectory(String name) throws IOException {
        requireOpen();
        String single = single(name);
        call("unlinkat(AT_REMOVEDIR)", path.resolve(single), () -> Libc.unlinkat(fd, single, AT_REMOVEDIR));
    }

    /** @return whether {@code name} exists here (a link counts as itself, not what it names) */
    public boolean exists(String name) throws IOException {
        requireOpen();
        String single = single(name);
        return Files.exists(procPath().resolve(single), LinkOption.NOFOLLOW_LINKS);
    }

    /** @return the attributes of this directory itself, read through its descriptor ({@code fstat}) */
    public PosixFileAttributes attributes() throws IOException {
        return Files.readAttributes(procPath(), PosixFileAttributes.class);
    }

    /** @return the owner's uid of this directory itself, read through its descriptor */
    public int ownerUid() throws IOException {
        return (Integer) Files.getAttribute(procPath(), "unix:uid");
    }

    /** @return the permission bits and type of this directory itself, read through its descriptor */
    public int mode() throws IOException {
        return (Integer) Files.getAttribute(procPath(), "unix:mode");
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                Libc.close(fd);
            } catch (LastErrorException e) {
                // nothing to do: the descriptor is gone either way
            }
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("directory " + path + " was closed");
        }
    }

    /**
     * @return {@code relative}, checked to stay below: not absolute, no {@code ..}, {@code .} or empty component, no NUL
     * @throws IllegalArgumentException naming it
     */
    static String confined(String relative) {
        Objects.requireNonNull(relative, "relative");
        if (relative.isEmpty() || relative.startsWith("/") || relative.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path " + printable(relative) + " must be relative, non-empty and"
                    + " without NUL: refused");
        }
        for (String component : relative.split("/", -1)) {
            if (component.isEmpty() || component.equals(".") || component.equals("..")) {
                throw new IllegalArgumentException("path " + printable(relative) + " has a '" + component
                        + "' component: only names below the directory are reached");
            }
        }
        return relative;
    }

    private static String single(String name) {
        confined(name);
        if (name.indexOf('/') >= 0) {
            throw new IllegalArgumentException("name " + printable(name) + " must be one component, without '/'");
        }
        return name;
    }

    /** A libc call that returns -1 with errno on failure (JNA throws {@link LastErrorException}). */
    private interface Call {
        int run() throws LastErrorException;
    }

    private static int call(String what, Path named, Call call) throws IOException {
        while (true) {
            try {
                return call.run();
            } catch (LastErrorException e) {
                if (e.getErrorCode() == EINTR) {
                    continue;
                }
                throw failure(what, named, e.getErrorCode());
            }
        }
    }

    private static IOException failure(String call, Path named, int errno) {
        String reason = Libc.strerror(errno) + " (" + Errno.name(errno) + ")";
        if (errno == 2) {
            return new NoSuchFileException(named.toString(), null, Errno.failedCall(call, named, reason));
        }
        return new CallFailed(Errno.failedCall(call, named, reason), errno);
    }

    /** A call that failed with {@code errno}, its message naming the call, path and errno. */
    private static final class CallFailed extends IOException {
        private final int errno;

        CallFailed(String message, int errno) {
            super(message);
            this.errno = errno;
        }
    }

    /** @return {@code text} quoted, control characters shown as escapes ({@link TerminalText}), for a message */
    private static String printable(String text) {
        return "'" + TerminalText.escape(text) + "'";
    }

    /** libc through JNA direct mapping, bound once; errno arrives as {@link LastErrorException}. */
    static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        private Libc() {
        }

        static native int open(String path, int flags, int mode) throws LastErrorException;

        static native int openat(int dirfd, String path, int flags, int mode) throws LastErrorException;

        static native long syscall(long number, int dirfd, String path, Memory how, long size) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native long write(int fd, byte[] buffer, long count) throws LastErrorException;

        static native int fsync(int fd) throws LastErrorException;

        static native int fchmod(int fd, int mode) throws LastErrorException;

        static native int mkdirat(int dirfd, String path, int mode) throws LastErrorException;

        static native int renameat(int oldDirfd, String oldPath, int newDirfd, String newPath) throws LastErrorException;

        static native int unlinkat(int dirfd, String path, int flags) throws LastErrorException;

        static native String strerror(int errno);
    }
}
