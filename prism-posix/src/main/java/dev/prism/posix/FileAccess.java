package dev.prism.posix;

import java.nio.file.Path;
import java.util.List;

/**
 * The file operations the POSIX benchmarks time, behind one interface so each can run through
 * java.nio or libc ({@link Access}). Every failure is a {@link PosixException} with errno's
 * symbolic name, whichever interface failed. One instance per rank; not thread-safe.
 *
 * <pre>{@code
 * import dev.prism.posix.Access;
 * import java.nio.ByteBuffer;
 * import java.nio.file.Files;
 *
 * var files = Access.NIO.newFileAccess();
 * var dir = Files.createTempDirectory("fa");
 * try (var f = files.create(dir.resolve("a"))) { f.write(ByteBuffer.allocateDirect(100)); }
 * System.out.println(files.list(dir) + " " + files.stat(dir.resolve("a")).sizeBytes());
 * }</pre>
 */
public interface FileAccess {
    /** @return {@code nio} or {@code native} */
    String name();

    /** Creates a new file for writing ({@code O_WRONLY|O_CREAT|O_EXCL}, mode 0644); fails if it exists. */
    OpenFile create(Path file);

    /** Opens an existing file for reading. */
    OpenFile openRead(Path file);

    /**
     * Opens an existing file for reading with {@code O_DIRECT}, bypassing the page cache: reads must
     * use buffers, offsets and lengths aligned to the device's block size (4096 is safe). Filesystems
     * without direct I/O (tmpfs) refuse with EINVAL.
     */
    OpenFile openReadDirect(Path file);

    /** Opens a file for reading and writing, creating it if missing (lock files). */
    OpenFile openReadWrite(Path file);

    /** Creates a directory (mode 0755). */
    void mkdir(Path directory);

    /** Renames {@code from} to {@code to}, replacing {@code to} if it exists. */
    void rename(Path from, Path to);

    /** Removes a file. */
    void unlink(Path file);

    /** Removes an empty directory. */
    void rmdir(Path directory);

    /** @return the file's metadata, not following a final symbolic link */
    FileStat stat(Path path);

    /** @return the names in {@code directory}, without {@code .} and {@code ..} */
    List<String> list(Path directory);

    /** Makes {@code link} a hard link to {@code existing}. */
    void link(Path existing, Path link);

    /** An open file; close it with try-with-resources. */
    interface OpenFile extends AutoCloseable {
        /** Writes from the buffer's position to its limit (a direct buffer for NATIVE); @return bytes written */
        int write(java.nio.ByteBuffer source);

        /** Reads into the buffer from its position; @return bytes read, -1 at end of file */
        int read(java.nio.ByteBuffer target);

        /** fsync: data and metadata to stable storage. */
        void sync();

        /** Waits for a lock on the whole file: {@code flock} for NATIVE, {@code fcntl} record locks (FileChannel.lock) for NIO. */
        void lock(boolean exclusive);

        /** Releases the lock. */
        void unlock();

        /** Closes the file. */
        @Override
        void close();
    }
}
