package dev.prism.spi;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Making a directory PRISM will write into, on storage shared with others: a real directory left there (one whose
 * removal failed) is kept and worked in; anything else in its place, a symbolic link above all, is refused, so that
 * nothing is ever written through a link. Removal is {@link dev.prism.DirectoryRemoval}'s.
 *
 * <pre>{@code
 * import dev.prism.spi.Directories;
 * import java.nio.file.Files;
 *
 * var dir = Files.createTempDirectory("prism-dirs-").resolve("scratch");
 * Directories.makeOrKeep(dir);
 * Directories.makeOrKeep(dir); // there already: kept
 * System.out.println(Files.isDirectory(dir));
 * }</pre>
 */
public final class Directories {
    private Directories() {
    }

    /**
     * Makes {@code directory} (its parent must exist), or keeps the real directory already there.
     *
     * @throws FileAlreadyExistsException when something other than a directory (a link, a file) is there
     */
    public static void makeOrKeep(Path directory) throws IOException {
        try {
            Files.createDirectory(directory);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                throw e;
            }
        }
    }
}
