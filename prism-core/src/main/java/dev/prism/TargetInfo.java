package dev.prism;

import dev.prism.internal.files.MountTable;

import java.nio.file.Path;

/**
 * The filesystem under test: the target path, and from {@code /proc/self/mountinfo} the mount
 * point, filesystem type, mount source and options, plus its size and free space.
 *
 * <pre>{@code
 * import dev.prism.TargetInfo;
 * import java.nio.file.Path;
 *
 * System.out.println(TargetInfo.of(Path.of(System.getProperty("java.io.tmpdir"))));
 * }</pre>
 *
 * @param path            the target directory as given, made absolute
 * @param mountPoint      where its filesystem is mounted
 * @param filesystemType  e.g. {@code ext4}, {@code nfs4}, {@code lustre}, {@code fuse.sshfs}
 * @param mountSource     e.g. {@code /dev/vda}, {@code server:/export}
 * @param mountOptions    per-mount options, e.g. {@code rw,relatime}
 * @param superOptions    per-filesystem options, e.g. {@code rw,vers=4.2,rsize=1048576}
 * @param totalBytes      the filesystem's size
 * @param freeBytes       space available to this user when the run started
 */
public record TargetInfo(String path, String mountPoint, String filesystemType, String mountSource,
                         String mountOptions, String superOptions, long totalBytes, long freeBytes) {
    /** @return what {@code /proc/self/mountinfo} and the file store say about {@code target} */
    public static TargetInfo of(Path target) {
        return MountTable.describe(target);
    }
}
