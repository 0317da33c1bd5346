package dev.prism.spi;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes files so a reader sees the old content or the whole new one, never a part, and so that no one who may write
 * the directory can make PRISM write anywhere else: the directory is opened once and held
 * ({@link HeldDirectory}), a temporary name in it created exclusively without following links, written, synced and
 * given its mode through that one descriptor, then renamed over the file within the held directory.
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
    /** The mode of what PRISM writes unless told otherwise: read by everyone who may enter the directory. */
    public static final int DEFAULT_MODE = 0644;

    private AtomicFiles() {
    }

    /**
     * Writes {@code content} as {@code file} with mode {@link #DEFAULT_MODE}: {@link #write(Path, byte[], int)}.
     *
     * @throws IOException naming the call that failed, its path and errno, e.g.
     *                     {@code write("/t/.m.json.1f2e….tmp"): No space left on device (ENOSPC)}
     */
    public static void write(Path file, byte[] content) throws IOException {
        write(file, content, DEFAULT_MODE);
    }

    /**
     * Writes {@code content} as {@code file}: its directory held, a temporary file created exclusively in it, written,
     * fsynced and set to {@code mode} through its descriptor, renamed over {@code file}, the directory fsynced.
     *
     * @param mode the file's permission bits, 0 to 0777 (e.g. {@code 0600} for a file only its owner may read)
     * @throws IllegalArgumentException when {@code mode} is outside 0..0777
     */
    public static void write(Path file, byte[] content, int mode) throws IOException {
        if (mode < 0 || mode > 0777) {
            throw new IllegalArgumentException("mode must be in 0..0777 (permission bits), was 0" + Integer.toOctalString(mode));
        }
        Path absolute = file.toAbsolutePath().normalize();
        if (absolute.getParent() == null || absolute.getFileName() == null) {
            throw new IllegalArgumentException("file " + file + " names no file in a directory");
        }
        try (HeldDirectory directory = HeldDirectory.open(absolute.getParent())) {
            directory.writeAtomically(absolute.getFileName().toString(), content, mode);
        }
    }
}
