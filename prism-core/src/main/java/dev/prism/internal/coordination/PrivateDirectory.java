package dev.prism.internal.coordination;

import dev.prism.PrismException;
import dev.prism.spi.Errno;
import dev.prism.spi.HeldDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
     * Makes {@code directory} 0700 (or takes the one a rank of this step made first), opens it without following a link,
     * and checks it on the descriptor: owned by this user, no one else may enter it. Everything the step's ranks and
     * coordinator write there goes through the returned descriptor, so renaming the directory and putting a link in
     * its place after the check changes nothing they touch.
     *
     * @return {@code directory}, held
     * @throws PrismException naming the directory and what is wrong with it
     */
    static HeldDirectory ensure(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        try {
            Path parent = absolute.getParent();
            Files.createDirectories(parent);
            HeldDirectory held;
            try (HeldDirectory above = HeldDirectory.open(parent)) {
                try {
                    held = above.makeOrKeepDirectory(absolute.getFileName().toString(), 0700);
                } catch (IOException e) {
                    if (Files.isSymbolicLink(absolute)) {
                        throw new PrismException("the meeting directory " + absolute + " is not a directory but a"
                                + " symbolic link: refused");
                    }
                    throw e;
                }
            }
            try {
                int owner = held.ownerUid();
                int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
                if (owner != self) {
                    throw new PrismException("the meeting directory " + absolute + " was made by uid " + owner + ", not by"
                            + " this run (uid " + self + "): refused, as its owner could plant links in it; remove it or pick"
                            + " another --coordinator directory");
                }
                int mode = held.mode() & 07777;
                if (mode != 0700) {
                    throw new PrismException("the meeting directory " + absolute + " has mode "
                            + PosixFilePermissions.toString(held.attributes().permissions()) + ", not rwx------: refused, as"
                            + " others could read or plant files in it");
                }
                return held;
            } catch (RuntimeException | IOException e) {
                held.close();
                throw e;
            }
        } catch (IOException e) {
            throw new PrismException("cannot make the meeting directory " + absolute + ": " + Errno.describe(e), e);
        }
    }
}
