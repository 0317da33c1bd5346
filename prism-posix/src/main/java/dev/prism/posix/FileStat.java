package dev.prism.posix;

/**
 * What a stat call returned about one file.
 *
 * <pre>{@code
 * import dev.prism.posix.Posix;
 * import java.nio.file.Path;
 *
 * var st = Posix.stat(Path.of("/tmp"));
 * System.out.println(st.isDirectory() + " " + st.links());
 * }</pre>
 *
 * @param sizeBytes       the file's size
 * @param mode            type and permission bits ({@code st_mode})
 * @param links           hard-link count
 * @param inode           inode number
 * @param blocks          512-byte blocks allocated
 * @param modifiedNanos   last modification, nanoseconds since the epoch
 */
public record FileStat(long sizeBytes, int mode, long links, long inode, long blocks, long modifiedNanos) {
    private static final int TYPE_MASK = 0170000;

    /** @return true for a regular file */
    public boolean isRegularFile() {
        return (mode & TYPE_MASK) == 0100000;
    }

    /** @return true for a directory */
    public boolean isDirectory() {
        return (mode & TYPE_MASK) == 0040000;
    }

    /** @return true for a symbolic link */
    public boolean isSymbolicLink() {
        return (mode & TYPE_MASK) == 0120000;
    }
}
