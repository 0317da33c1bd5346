package dev.prism.posix.workflows.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Posix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Whether two names are one file, judged by what a hard link does rather than by inode numbers a filesystem may make up. */
public final class LinkCheck {
    private LinkCheck() {
    }

    /**
     * Writes one byte (each rank its own offset, the complement of what is there) through {@code linked} and reads it
     * back through {@code original}, its page cache dropped first: only one file under two names shows it.
     */
    public static void requireSameFile(WorkloadContext ctx, Path linked, Path original) throws IOException {
        BasicFileAttributes link = Files.readAttributes(linked, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        Object linkInode = Files.getAttribute(linked, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        Object sourceInode = Files.getAttribute(original, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        long offset = link.size() == 0 ? 0 : ctx.rank() % link.size();
        ByteBuffer one = ByteBuffer.allocate(1);
        byte written;
        try (FileChannel through = FileChannel.open(linked,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            byte was = through.read(one, offset) == 1 ? one.get(0) : 0;
            written = (byte) ~was;
            through.write(ByteBuffer.wrap(new byte[]{written}), offset);
            through.force(true);
        }
        try {
            Posix.dropFromPageCache(original);
        } catch (RuntimeException e) {
            ctx.untimedProblem("dropping " + original + " from the page cache before reading it back", e);
        }
        one.clear();
        try (FileChannel back = FileChannel.open(original, StandardOpenOption.READ)) {
            if (back.read(one, offset) != 1 || one.get(0) != written) {
                throw new ValidationException(linked + " is not a hard link of " + original + ": a byte written through it"
                        + " at offset " + offset + " was not read back through " + original + " (inode numbers "
                        + linkInode + " and " + sourceInode + ")");
            }
        }
    }
}
