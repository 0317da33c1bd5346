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
 * var dir = java.nio.file.Files.createTempDirectory("prism-dirs-").resolve("scratch");
 * dev.prism.spi.Directories.makeOrKeep(dir);
 * dev.prism.spi.Directories.makeOrKeep(dir); // there already: kept
 * System.out.println(java.nio.file.Files.isDirectory(dir));
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
