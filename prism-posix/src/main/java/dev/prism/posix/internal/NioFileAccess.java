package dev.prism.posix.internal;

import dev.prism.spi.Errno;
import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.PosixException;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link FileAccess} through java.nio.file. Failures become {@link PosixException}s with errno's name,
 * found from the exception type or from libc's text of the reason, so NIO and NATIVE failures read alike.
 */
public final class NioFileAccess implements FileAccess {
    @Override
    public String name() {
        return "nio";
    }

    @Override
    public OpenFile create(Path file) {
        try {
            return new NioFile(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), file);
        } catch (IOException e) {
            throw failure("FileChannel.open", quote(file) + ", CREATE_NEW, WRITE", file, e);
        }
    }

    @Override
    public OpenFile openRead(Path file) {
        try {
            return new NioFile(FileChannel.open(file, StandardOpenOption.READ), file);
        } catch (IOException e) {
            throw failure("FileChannel.open", quote(file) + ", READ", file, e);
        }
    }

    @Override
    public OpenFile openReadDirect(Path file) {
        try {
            return new NioFile(FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT), file);
        } catch (IOException e) {
            throw failure("FileChannel.open", quote(file) + ", READ, DIRECT", file, e);
        }
    }

    private static final java.util.Set<java.nio.file.OpenOption> READ_BENEATH = java.util.Set.of(StandardOpenOption.READ,
            java.nio.file.LinkOption.NOFOLLOW_LINKS);
    private static final java.util.Set<java.nio.file.OpenOption> READ_BENEATH_DIRECT = java.util.Set.of(
            StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS, ExtendedOpenOption.DIRECT);

    /**
     * Opens {@code name}, one component, in {@code directory} for reading without following a link
     * ({@link java.nio.file.SecureDirectoryStream#newByteChannel}: {@code openat} beneath the stream's directory, with
     * {@code O_NOFOLLOW}; with {@code direct}, {@code O_DIRECT}). Failures name {@code shown}.
     */
    public OpenFile openReadIn(java.nio.file.SecureDirectoryStream<Path> directory, Path name, boolean direct, Path shown) {
        try {
            return new NioFile((FileChannel) directory.newByteChannel(name, direct ? READ_BENEATH_DIRECT : READ_BENEATH), shown);
        } catch (IOException e) {
            throw failure("SecureDirectoryStream.newByteChannel", quote(shown) + ", READ, NOFOLLOW_LINKS"
                    + (direct ? ", DIRECT" : ""), shown, e);
        }
    }

    @Override
    public OpenFile openReadWrite(Path file) {
        try {
            return new NioFile(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), file);
        } catch (IOException e) {
            throw failure("FileChannel.open", quote(file) + ", CREATE, READ, WRITE", file, e);
        }
    }

    @Override
    public void mkdir(Path directory) {
        try {
            Files.createDirectory(directory);
        } catch (IOException e) {
            throw failure("Files.createDirectory", quote(directory), directory, e);
        }
    }

    @Override
    public void rename(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw failure("Files.move", quote(from) + ", " + quote(to) + ", ATOMIC_MOVE", from, e);
        }
    }

    @Override
    public void unlink(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw failure("Files.delete", quote(file), file, e);
        }
    }

    @Override
    public void rmdir(Path directory) {
        unlink(directory);
    }

    @Override
    public FileStat stat(Path path) {
        try {
            Map<String, Object> a = Files.readAttributes(path, "unix:size,mode,nlink,ino,lastModifiedTime",
                    LinkOption.NOFOLLOW_LINKS);
            return new FileStat((Long) a.get("size"), (Integer) a.get("mode"), ((Number) a.get("nlink")).longValue(),
                    (Long) a.get("ino"), -1, ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS));
        } catch (IOException e) {
            throw failure("Files.readAttributes", quote(path) + ", unix:*, NOFOLLOW_LINKS", path, e);
        }
    }

    @Override
    public List<String> list(Path directory) {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
            return names;
        } catch (IOException e) {
            throw failure("Files.newDirectoryStream", quote(directory), directory, e);
        }
    }

    @Override
    public void link(Path existing, Path link) {
        try {
            Files.createLink(link, existing);
        } catch (IOException e) {
            throw failure("Files.createLink", quote(link) + ", " + quote(existing), link, e);
        }
    }

    private static String quote(Path path) {
        return "\"" + path + "\"";
    }

    /** A NIO failure as a {@link PosixException}: the call, the path and errno's name where it can be told. */
    public static PosixException failure(String call, String arguments, Path path, IOException e) {
        int errno = errnoOf(e);
        String name = errno > 0 ? Errno.name(errno) : e.getClass().getSimpleName() + ": " + e.getMessage();
        PosixException failure = new PosixException(call, arguments, path.toString(), errno, name);
        failure.initCause(e);
        return failure;
    }

    private static final Map<String, Integer> ERRNO_BY_TEXT = new HashMap<>();

    /** @return the errno an NIO exception stands for, or 0 when it cannot be told */
    public static int errnoOf(IOException e) {
        String known = Errno.nameOf(e);
        if (known != null) {
            return Errno.number(known);
        }
        String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
        if (reason == null || dev.prism.posix.Posix.ARCH == null) {
            return 0;
        }
        synchronized (ERRNO_BY_TEXT) {
            if (ERRNO_BY_TEXT.isEmpty()) {
                for (int errno = 1; errno < Errno.size(); errno++) {
                    String text = NativeCalls.strerror(errno);
                    if (text != null) {
                        ERRNO_BY_TEXT.putIfAbsent(text, errno);
                    }
                }
            }
            return ERRNO_BY_TEXT.getOrDefault(reason, 0);
        }
    }

    private static final class NioFile implements OpenFile {
        private final FileChannel channel;
        private final Path path;
        private FileLock lock;

        NioFile(FileChannel channel, Path path) {
            this.channel = channel;
            this.path = path;
        }

        @Override
        public int write(ByteBuffer source) {
            try {
                return channel.write(source);
            } catch (IOException e) {
                throw failure("FileChannel.write", quote(path) + ", " + source.remaining(), path, e);
            }
        }

        @Override
        public int read(ByteBuffer target) {
            try {
                return channel.read(target);
            } catch (IOException e) {
                throw failure("FileChannel.read", quote(path) + ", " + target.remaining(), path, e);
            }
        }

        @Override
        public void sync() {
            try {
                channel.force(true);
            } catch (IOException e) {
                throw failure("FileChannel.force", quote(path) + ", true", path, e);
            }
        }

        @Override
        public void lock(boolean exclusive) {
            while (true) {
                try {
                    lock = channel.lock(0, Long.MAX_VALUE, !exclusive);
                    return;
                } catch (OverlappingFileLockException e) {
                    // the JVM refuses a second lock on a file it already locked (ranks as threads):
                    // wait for the other rank to release it, as a second process would
                    Thread.onSpinWait();
                    if (Thread.currentThread().isInterrupted()) {
                        throw new PosixException("FileChannel.lock", quote(path), path.toString(),
                                Errno.number("EINTR"), "EINTR");
                    }
                } catch (IOException e) {
                    throw failure("FileChannel.lock", quote(path) + (exclusive ? ", exclusive" : ", shared"), path, e);
                }
            }
        }

        @Override
        public void unlock() {
            try {
                if (lock != null) {
                    lock.release();
                    lock = null;
                }
            } catch (IOException e) {
                throw failure("FileLock.release", quote(path), path, e);
            }
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                throw failure("FileChannel.close", quote(path), path, e);
            }
        }
    }
}
