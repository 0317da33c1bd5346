package dev.prism.internal.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Whether a directory PRISM writes results into can be swapped under it by another user: it can when one of the
 * directories on its path (or the path its links resolve to) may be written by someone other than root and this user
 * without the sticky bit, since that user may then rename an entry and put a link in its place, and root would write
 * through it. A sticky directory ({@code /tmp}) lets only an entry's owner rename it, so it is safe for the entries
 * PRISM makes. The same test ssh's StrictModes and sudo's secure path make.
 */
public final class SafeChain {
    private SafeChain() {
    }

    /**
     * @param what what the directory is, for the message ({@code output directory})
     * @throws IllegalArgumentException naming the directory on the path that others may change, its owner and mode
     */
    public static void require(Path directory, String what) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        check(absolute, absolute, what);
        Path real = absolute.toRealPath();
        if (!real.equals(absolute)) {
            check(real, absolute, what);
        }
    }

    private static void check(Path path, Path named, String what) throws IOException {
        int self = self();
        for (Path p = path; p != null; p = p.getParent()) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            PosixFileAttributes attributes = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                continue; // its directory, checked next, decides who may replace it
            }
            int owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            String who = whoMaySwap(p, self);
            if (who == null) {
                continue;
            }
            throw new IllegalArgumentException(what + " " + named + " is refused: " + p + " on its path " + who
                    + ", who could swap what PRISM writes there for a link; " + (owner != 0 && owner != self
                    ? "choose a directory of your own or root's" : "choose a directory only you can change, or make that"
                    + " one sticky (chmod +t " + p + ")"));
        }
    }

    /**
     * @param self this process's uid
     * @return who besides root and {@code self} may rename what is in {@code directory} (not following a link) and so
     *         put a link in its place — {@code belongs to uid N}, or {@code may be written by others (mode …, not
     *         sticky)} — else null
     */
    public static String whoMaySwap(Path directory, int self) throws IOException {
        int owner = (Integer) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (owner != 0 && owner != self) {
            return "belongs to uid " + owner;
        }
        int mode = (Integer) Files.getAttribute(directory, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> permissions = Files.readAttributes(directory, PosixFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).permissions();
        boolean othersWrite = permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE);
        if (othersWrite && (mode & 01000) == 0) {
            return "may be written by others (mode " + PosixFilePermissions.toString(permissions) + ", not sticky)";
        }
        return null;
    }

    /** @return this process's uid */
    public static int self() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }
}
