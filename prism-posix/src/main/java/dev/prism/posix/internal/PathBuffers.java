package dev.prism.posix.internal;

import dev.prism.posix.Posix;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * NUL-terminated C strings for paths, written into two reusable direct buffers per thread (two, for
 * calls that take two paths). Passing their addresses skips JNA's per-call String conversion and
 * its native allocation.
 */
public final class PathBuffers {
    private static final int CAPACITY = 4096 * 4 + 1;
    private static final ThreadLocal<PathBuffers> BUFFERS = ThreadLocal.withInitial(PathBuffers::new);

    private final ByteBuffer first = ByteBuffer.allocateDirect(CAPACITY);
    private final ByteBuffer second = ByteBuffer.allocateDirect(CAPACITY);
    private final long firstAddress = Posix.address(first);
    private final long secondAddress = Posix.address(second);

    private PathBuffers() {
    }

    /** @return the address of {@code path} as a C string, valid until this thread's next call */
    public static long first(Path path) {
        PathBuffers b = BUFFERS.get();
        encode(path.toString(), b.first);
        return b.firstAddress;
    }

    /** @return as {@link #first}, in the second buffer, for the other path of a two-path call */
    public static long second(Path path) {
        PathBuffers b = BUFFERS.get();
        encode(path.toString(), b.second);
        return b.secondAddress;
    }

    private static void encode(String s, ByteBuffer target) {
        int n = s.length();
        if (n < CAPACITY / 4) {
            int i = 0;
            while (i < n) {
                char c = s.charAt(i);
                if (c >= 0x80 || c == 0) {
                    break;
                }
                target.put(i, (byte) c);
                i++;
            }
            if (i == n) {
                target.put(n, (byte) 0);
                return;
            }
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        if (utf8.length >= CAPACITY || s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path is longer than " + (CAPACITY - 1) + " bytes or holds a NUL: " + s);
        }
        target.put(0, utf8).put(utf8.length, (byte) 0);
    }
}
