package dev.prism.spi;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads files a user hands PRISM — requirements, gates, result documents — as untrusted input: only a regular file is
 * opened (a FIFO would block forever, a device such as {@code /dev/zero} never ends, a directory is no document), and
 * never more than a bound. Each refusal is an {@link IllegalArgumentException} naming the file and what it is, which
 * the command line reports as a usage error (exit 2).
 *
 * <pre>{@code
 * import dev.prism.spi.InputFiles;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var file = Files.writeString(Files.createTempFile("gate", ".json"), "{}");
 * System.out.println(InputFiles.readText(file, 1024, "gate file"));
 * try {
 *     InputFiles.readText(Path.of("/dev/zero"), 1024, "gate file");
 * } catch (IllegalArgumentException e) {
 *     System.out.println(e.getMessage()); // gate file /dev/zero is a character device, not a regular file
 * }
 * Files.delete(file);
 * }</pre>
 */
public final class InputFiles {
    /** The most a requirements or gate file may hold. */
    public static final long MAX_SETTINGS_BYTES = 1 << 20;
    /** The most a result document may hold. */
    public static final long MAX_DOCUMENT_BYTES = 1L << 30;

    private InputFiles() {
    }

    /**
     * @param what what the file is, for messages ({@code gate file})
     * @return {@code file}, a regular file (links followed) of at most {@code maxBytes}
     * @throws IllegalArgumentException naming the file when it is missing, not a regular file, or too large
     */
    public static Path requireRegular(Path file, long maxBytes, String what) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(what + " " + file + " does not exist");
        }
        if (!attributes.isRegularFile()) {
            throw new IllegalArgumentException(what + " " + file + " is " + kind(file, attributes) + ", not a regular file");
        }
        if (attributes.size() > maxBytes) {
            throw new IllegalArgumentException(what + " " + file + " holds " + attributes.size() + " bytes, over the "
                    + maxBytes + " a " + what + " may have");
        }
        return file;
    }

    /** @return the text of {@code file}, checked as {@link #requireRegular} checks it */
    public static String readText(Path file, long maxBytes, String what) throws IOException {
        try (InputStream in = open(file, maxBytes, what)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * @return a stream of {@code file}, checked as {@link #requireRegular} checks it, that fails past {@code maxBytes}
     *         (a file that grew or was swapped after the check)
     */
    public static InputStream open(Path file, long maxBytes, String what) throws IOException {
        requireRegular(file, maxBytes, what);
        return new FilterInputStream(Files.newInputStream(file)) {
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
                    throw new IllegalArgumentException(what + " " + file + " holds more than the " + maxBytes
                            + " bytes a " + what + " may have");
                }
            }
        };
    }

    private static String kind(Path file, BasicFileAttributes attributes) throws IOException {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        Object mode = Files.getAttribute(file, "unix:mode");
        int type = mode instanceof Integer m ? m & 0170000 : 0;
        return switch (type) {
            case 0010000 -> "a FIFO";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "a file of another kind";
        };
    }
}
