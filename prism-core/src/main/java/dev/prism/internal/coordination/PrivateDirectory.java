package dev.prism.internal.coordination;

import dev.prism.PrismException;
import dev.prism.spi.Errno;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A directory only this user may enter, for a step's message files in a shared place: made with mode 0700, or, when it
 * is there already (a rank of the same step made it first), accepted only as a real directory of this user that no one
 * else may read, write or enter. One made beforehand by another user (to plant links in it) is refused.
 */
final class PrivateDirectory {
    private PrivateDirectory() {
    }

    /**
     * @return {@code directory}, made or checked
     * @throws PrismException naming the directory and what is wrong with it
     */
    static Path ensure(Path directory) {
        try {
            Path parent = directory.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                // made by another rank of this step, or by someone else: checked below
            }
            PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isDirectory()) {
                throw new PrismException("the meeting directory " + directory + " is not a directory"
                        + (attributes.isSymbolicLink() ? " but a symbolic link" : "") + ": refused");
            }
            int owner = (Integer) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (owner != self) {
                throw new PrismException("the meeting directory " + directory + " was made by uid " + owner + ", not by this"
                        + " run (uid " + self + "): refused, as its owner could plant links in it; remove it or pick another"
                        + " --coordinator directory");
            }
            boolean open = attributes.permissions().stream().anyMatch(p -> p != PosixFilePermission.OWNER_READ
                    && p != PosixFilePermission.OWNER_WRITE && p != PosixFilePermission.OWNER_EXECUTE);
            if (open) {
                throw new PrismException("the meeting directory " + directory + " has mode "
                        + PosixFilePermissions.toString(attributes.permissions()) + ", not rwx------: refused, as others"
                        + " could read or plant files in it");
            }
            return directory;
        } catch (IOException e) {
            throw new PrismException("cannot make the meeting directory " + directory + ": " + Errno.describe(e), e);
        }
    }
}
