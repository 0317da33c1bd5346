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

    /** A directory on a path that someone besides root and this user may change, and who. */
    public record Exposure(Path directory, String who) {
    }

    /**
     * Whether someone other than root and this user could rename what is in {@code path}'s directories and put a link in
     * its place: a directory on its path, or on the path its links resolve to, that another user owns, or that others
     * may write without the sticky bit (a sticky one, as {@code /tmp}, lets only an entry's owner rename it). The same
     * test ssh's StrictModes and sudo's secure path make. Directories not made yet are skipped (their parent decides).
     *
     * @return the first such directory and who, or empty when only root and this user may change any
     */
    public static java.util.Optional<Exposure> exposure(Path path) throws IOException {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        int self = dev.prism.internal.files.SafeChain.self();
        java.util.List<Path> chains = existing == null ? java.util.List.of(absolute)
                : java.util.List.of(absolute, existing.toRealPath());
        for (Path chain : chains) {
            for (Path p = chain; p != null; p = p.getParent()) {
                if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                    continue; // a link's directory, checked next, decides who may replace it
                }
                String who = dev.prism.internal.files.SafeChain.whoMaySwap(p, self);
                if (who != null) {
                    return java.util.Optional.of(new Exposure(p, who));
                }
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Refuses {@code directory} as a place PRISM writes into when {@link #exposure} finds a directory on its path that
     * another user may change: they could rename what PRISM makes there and put a link in its place.
     *
     * @param what what the directory is, for the message ({@code dataset directory})
     * @throws dev.prism.TargetException naming the directory on the path, who may change it, and what to do
     */
    public static void refuseSwappable(Path directory, String what) throws IOException {
        var exposed = exposure(directory);
        if (exposed.isPresent()) {
            Path p = exposed.get().directory();
            throw new dev.prism.TargetException(what + " " + directory + " is refused: " + p + " on its path "
                    + exposed.get().who() + ", who could swap what PRISM writes there for a link; choose a directory only"
                    + " you can change, or make that one sticky (chmod +t " + p + ")");
        }
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
