package dev.prism.spi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads files a user hands PRISM — requirements, gates, result documents — as untrusted input: opened once, never
 * through a link at its end, without blocking, and judged on the open descriptor: only a regular file is read (a FIFO
 * would block forever, a device such as {@code /dev/zero} never ends, a directory is no document), and never more than
 * a bound. Each refusal is an {@link IllegalArgumentException} naming the file and what it is, which
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
     * @return {@code file}, a regular file (not a link) of at most {@code maxBytes}, judged by opening it as
     *         {@link #open} does
     * @throws IllegalArgumentException naming the file when it is missing, a link, not a regular file, or too large
     */
    public static Path requireRegular(Path file, long maxBytes, String what) throws IOException {
        try (InputStream in = open(file, maxBytes, what)) {
            return file;
        }
    }

    /** @return the text of {@code file}, checked as {@link #open} checks it */
    public static String readText(Path file, long maxBytes, String what) throws IOException {
        try (InputStream in = open(file, maxBytes, what)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Opens {@code file} once, relative to its directory held by descriptor, without following a link at its end and
     * without blocking (a FIFO swapped in cannot hang the reader), and judges the open descriptor: a regular file of at
     * most {@code maxBytes}. The stream fails past {@code maxBytes} (a file that grew).
     *
     * @throws IllegalArgumentException naming the file when it is missing, a link, not a regular file, or too large
     */
    public static InputStream open(Path file, long maxBytes, String what) throws IOException {
        return HeldDirectory.openInput(file, maxBytes, what);
    }
}
