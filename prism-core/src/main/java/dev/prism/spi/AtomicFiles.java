package dev.prism.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes files so a reader sees the old content or the whole new one, never a part: a temporary file beside it,
 * written and synced, then renamed over it.
 *
 * <pre>{@code
 * import dev.prism.spi.AtomicFiles;
 * import java.nio.charset.StandardCharsets;
 * import java.nio.file.Files;
 *
 * var file = Files.createTempDirectory("prism-atomic-").resolve("result.json");
 * AtomicFiles.write(file, "{}".getBytes(StandardCharsets.UTF_8));
 * System.out.println(Files.readString(file));
 * }</pre>
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Temporary files start as owner-only; a result is for everyone who may read the directory. */
    private static void makeReadable(Path file) throws IOException {
        if (Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /**
     * Writes {@code content} to a temporary file beside {@code file}, fsyncs it, renames it over
     * {@code file} and fsyncs the directory.
     *
     * @throws IOException naming the call that failed, its path and errno, e.g.
     *                     {@code write("/t/.m.json123.tmp"): No space left on device (ENOSPC)}
     */
    public static void write(Path file, byte[] content) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path directory = absolute.getParent();
        Path temporary;
        try {
            temporary = Files.createTempFile(directory, "." + absolute.getFileName(), ".tmp");
        } catch (IOException e) {
            throw Errno.named("open(O_CREAT|O_EXCL)", directory.resolve("." + absolute.getFileName() + "*.tmp"), e);
        }
        try {
            try (FileChannel channel = open(temporary)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                try {
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                } catch (IOException e) {
                    throw Errno.named("write", temporary, e);
                }
                try {
                    channel.force(true);
                } catch (IOException e) {
                    throw Errno.named("fsync", temporary, e);
                }
            }
            makeReadable(temporary);
            try {
                Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw Errno.named("rename", temporary, e);
            }
        } finally {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                // the write's own failure, if any, is the one to report
            }
        }
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // some filesystems refuse to fsync a directory; the rename itself is still atomic
        }
    }

    private static FileChannel open(Path temporary) throws IOException {
        try {
            return FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw Errno.named("open", temporary, e);
        }
    }

}
