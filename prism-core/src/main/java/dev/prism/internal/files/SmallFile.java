package dev.prism.internal.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Small files PRISM reads from places others may write (a stamp beside a fixture, the address a coordinator
 * published): a regular file, never reached through a link (anyone may plant one in a shared target), read to at
 * most a bound.
 */
public final class SmallFile {
    private SmallFile() {
    }

    /**
     * @return the text of {@code file}, or null when it is not a regular file (a link, a FIFO, a directory) or holds
     *         more than {@code maxBytes}
     * @throws java.nio.file.NoSuchFileException when it is not there
     */
    public static String readNoFollow(Path file, int maxBytes) throws IOException {
        BasicFileAttributes seen = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!seen.isRegularFile() || seen.size() > maxBytes) {
            return null;
        }
        try (FileChannel in = FileChannel.open(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            ByteBuffer bytes = ByteBuffer.allocate(maxBytes + 1);
            while (in.read(bytes) > 0 && bytes.hasRemaining()) {
                // read to the end, or past the bound
            }
            return bytes.position() > maxBytes ? null : new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        }
    }
}
