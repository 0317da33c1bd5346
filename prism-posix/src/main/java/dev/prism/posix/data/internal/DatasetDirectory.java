package dev.prism.posix.data.internal;

import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.Posix;
import dev.prism.posix.PosixException;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.internal.NativeCalls;
import dev.prism.posix.internal.NativeFileAccess;
import dev.prism.posix.internal.NioFileAccess;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A dataset's directory held open, and its files reached only beneath it (issue 55, "inputs stay inside"): a name
 * from a manifest must be plain ({@link DatasetManifest#problemWith}), each directory on its way is opened relative to
 * the one above it with {@code O_NOFOLLOW|O_DIRECTORY}, and the file itself relative to its directory with
 * {@code O_NOFOLLOW}. So neither an absolute name, a {@code ..}, nor a link planted in the dataset (for the file or for
 * a directory on the way, before or during the run) leads a read outside it: such an entry is refused naming it.
 * <p>
 * Built for md5_check's timed path: names are checked and their directories opened (or found held) before the timer,
 * so the timed open resolves one component ({@code openat(dirfd, name, O_RDONLY|O_NOFOLLOW)}, or for access=nio
 * {@link SecureDirectoryStream#newByteChannel}, the same call), and allocates nothing per file beyond what the
 * access layer's open does. The root stays open; up to {@value #HELD} other directories are held at once, the least
 * recently used closed first. Not thread-safe: one per rank.
 */
public final class DatasetDirectory implements AutoCloseable {
    /** Directories held open at once besides the root (each one descriptor, two with access=nio). */
    static final int HELD = 256;
    /** open(2)'s O_NONBLOCK, the same on x86_64 and aarch64: a FIFO planted at a dataset's name cannot block its open. */
    private static final int O_NONBLOCK = 04000;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int ELOOP = 40;
    private static final int ENOTDIR = 20;

    private final Path root;
    private final boolean nio;
    private final Directory top;
    private final Map<String, Directory> held = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Directory> eldest) {
            if (size() > HELD) {
                eldest.getValue().close();
                return true;
            }
            return false;
        }
    };

    /** One directory of the dataset, open: its descriptor, and with access=nio its {@link SecureDirectoryStream}. */
    public static final class Directory {
        private final int fd;
        private final SecureDirectoryStream<Path> stream;
        private final Path shown;

        private Directory(int fd, SecureDirectoryStream<Path> stream, Path shown) {
            this.fd = fd;
            this.stream = stream;
            this.shown = shown;
        }

        private void close() {
            try {
                if (stream != null) {
                    stream.close();
                }
            } catch (IOException e) {
                // a directory only read: nothing of ours is lost
            } finally {
                NativeCalls.close(fd, shown);
            }
        }
    }

    /**
     * Where one of the dataset's files is: its directory relative to the dataset ({@code ""} for the dataset's own),
     * its name there (one component), and the whole path a person reads in messages.
     */
    public record Place(String entry, String directory, Path name, Path shown) {
    }

    private DatasetDirectory(Path root, boolean nio, Directory top) {
        this.root = root;
        this.nio = nio;
        this.top = top;
    }

    /**
     * Opens {@code root} (the directory the user named; a link there is the user's own choice and followed) to reach
     * its files beneath it.
     *
     * @param nio whether files are to be opened through java.nio ({@link NioFileAccess}) rather than libc
     */
    public static DatasetDirectory open(Path root, boolean nio) throws IOException {
        int fd = NativeCalls.openat(Posix.AT_FDCWD, root, Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
        SecureDirectoryStream<Path> stream = null;
        if (nio) {
            try {
                DirectoryStream<Path> s = Files.newDirectoryStream(root);
                if (!(s instanceof SecureDirectoryStream<Path> secure)) {
                    s.close();
                    throw new UnsupportedOperationException("this JVM's file system gives no SecureDirectoryStream for "
                            + root + ": use access=native");
                }
                stream = secure;
            } catch (IOException | RuntimeException e) {
                NativeCalls.close(fd, root);
                throw e;
            }
        }
        return new DatasetDirectory(root, nio, new Directory(fd, stream, root));
    }

    /** @return the dataset's directory, as named */
    public Path root() {
        return root;
    }

    /**
     * @return where the file {@code entry} (a manifest's path) is
     * @throws IllegalArgumentException naming the entry when it is absolute, has a {@code ..}, {@code .} or empty
     *                                  component, or a NUL
     */
    public Place place(String entry) {
        String problem = DatasetManifest.problemWith(entry);
        if (problem != null) {
            throw refused(entry, problem);
        }
        int slash = entry.lastIndexOf('/');
        return new Place(entry, slash < 0 ? "" : entry.substring(0, slash), Path.of(entry.substring(slash + 1)),
                root.resolve(entry));
    }

    /**
     * @return the directory {@code place} is in, open: held from before, or opened now one component at a time, each
     *         beneath the one above it without following a link
     * @throws IllegalArgumentException naming the entry when a directory on its way is a link or not a directory
     * @throws PosixException           when one is missing or cannot be opened
     */
    public Directory directory(Place place) {
        return place.directory().isEmpty() ? top : directory(place.directory(), place.entry());
    }

    private Directory directory(String relative, String entry) {
        Directory found = held.get(relative);
        if (found != null) {
            return found;
        }
        int slash = relative.lastIndexOf('/');
        Directory parent = slash < 0 ? top : directory(relative.substring(0, slash), entry);
        Path name = Path.of(relative.substring(slash + 1));
        Path shown = root.resolve(relative);
        int fd;
        try {
            fd = NativeCalls.openat(parent.fd, name, Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_NOFOLLOW
                    | Posix.O_CLOEXEC, 0, shown);
        } catch (PosixException e) {
            if (e.errno() == ELOOP || e.errno() == ENOTDIR) {
                throw refused(entry, "leads through " + quoted(relative) + ", which is "
                        + (e.errno() == ELOOP ? "a symbolic link" : "not a directory"));
            }
            throw e;
        }
        SecureDirectoryStream<Path> stream = null;
        if (nio) {
            try {
                stream = parent.stream.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                NativeCalls.close(fd, shown);
                throw NioFileAccess.failure("SecureDirectoryStream.newDirectoryStream", "\"" + name + "\", NOFOLLOW_LINKS",
                        shown, e);
            }
        }
        Directory d = new Directory(fd, stream, shown);
        held.put(relative, d);
        return d;
    }

    /**
     * @return the file's metadata, found beneath its directory without following a link
     * @throws IllegalArgumentException naming the entry when it is a link or not a regular file
     * @throws PosixException           when it is missing or cannot be stat'ed (a directory on the way included)
     */
    public FileStat requireRegular(Place place) {
        FileStat stat = NativeCalls.statx(directory(place).fd, place.name(), Posix.AT_SYMLINK_NOFOLLOW);
        if (!stat.isRegularFile()) {
            throw refused(place.entry(), "is " + (stat.isSymbolicLink() ? "a symbolic link" : stat.isDirectory()
                    ? "a directory" : "not a regular file"));
        }
        return stat;
    }

    /**
     * The timed path's open: the file's name opened in {@code directory} (found by {@link #directory} before the
     * timer), one component, without following a link.
     */
    public FileAccess.OpenFile openRead(FileAccess files, Directory directory, Place place, boolean direct) {
        if (nio) {
            return ((NioFileAccess) files).openReadIn(directory.stream, place.name(), direct, place.shown());
        }
        return ((NativeFileAccess) files).openReadAt(directory.fd, place.name(), direct, place.shown());
    }

    /** An untimed open of a dataset file: its descriptor and size. Close it with {@link #close(Opened)}. */
    public record Opened(int fd, long sizeBytes, Path shown) {
    }

    /**
     * @return the file opened for PRISM's own untimed work (a page-cache drop or probe): beneath its directory,
     *         {@code O_NOFOLLOW|O_NONBLOCK}, and only when what was opened is a regular file
     * @throws IllegalArgumentException naming the entry when it is a link or not a regular file
     */
    public Opened openUntimed(Place place) {
        int fd;
        try {
            fd = NativeCalls.openat(directory(place).fd, place.name(), Posix.O_RDONLY | Posix.O_NOFOLLOW | O_NONBLOCK
                    | Posix.O_CLOEXEC, 0, place.shown());
        } catch (PosixException e) {
            if (e.errno() == ELOOP) {
                throw refused(place.entry(), "is a symbolic link");
            }
            throw e;
        }
        FileStat stat;
        try {
            stat = NativeCalls.statx(fd, Path.of(""), AT_EMPTY_PATH);
        } catch (RuntimeException e) {
            NativeCalls.close(fd, place.shown());
            throw e;
        }
        if (!stat.isRegularFile()) {
            NativeCalls.close(fd, place.shown());
            throw refused(place.entry(), "is " + (stat.isDirectory() ? "a directory" : "not a regular file"));
        }
        return new Opened(fd, stat.sizeBytes(), place.shown());
    }

    /** Closes what {@link #openUntimed} opened. */
    public static void close(Opened opened) {
        NativeCalls.close(opened.fd(), opened.shown());
    }

    /** Closes every directory held, the root's last. */
    @Override
    public void close() {
        try {
            held.values().forEach(Directory::close);
            held.clear();
        } finally {
            top.close();
        }
    }

    private IllegalArgumentException refused(String entry, String why) {
        return new IllegalArgumentException("dataset entry " + quoted(entry) + " in " + root + " " + why
                + ": refused, nothing read (a manifest's paths are relative to the dataset's directory and stay inside it)");
    }

    /** @return {@code text} in double quotes, its control characters, quotes and backslashes escaped as JSON writes them */
    public static String quoted(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder s = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                s.append(String.format("\\u%04x", (int) c));
            } else if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else {
                s.append(c);
            }
        }
        return s.append('"').toString();
    }
}
