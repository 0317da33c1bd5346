package dev.prism.posix.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

/**
 * File names encoded once, before any clock starts, as NUL-terminated C strings side by side in one direct buffer:
 * the metadata benchmarks' timed calls pass {@link #address(int)} with the descriptor of the directory they are in
 * ({@code openat(dirfd, name, …)}), so nothing is converted, looked up or allocated per call and the kernel resolves
 * one component. Names that come from a {@code readdir} are encoded one at a time into a reused slot
 * ({@link #encode(String)}), before their call's clock starts.
 *
 * <pre>{@code
 * var names = EncodedNames.of(3, i -> "file-" + i + ".dat");
 * long second = names.address(1);   // "file-1.dat\0", valid while names is reachable
 * }</pre>
 */
public final class EncodedNames {
    /** The longest name Linux takes (NAME_MAX), and its NUL. */
    private static final int NAME_MAX = 255;

    private final ByteBuffer buffer;
    private final long base;
    private final int stride;

    private EncodedNames(ByteBuffer buffer, int stride) {
        this.buffer = buffer;
        this.base = NativeCalls.address(buffer);
        this.stride = stride;
    }

    /**
     * @return {@code count} names, {@code name.apply(i)} the i-th
     * @throws IllegalArgumentException when a name is empty, longer than 255 bytes, or holds a '/' or a NUL
     */
    public static EncodedNames of(int count, IntFunction<String> name) {
        byte[][] encoded = new byte[count][];
        int longest = 0;
        for (int i = 0; i < count; i++) {
            encoded[i] = checked(name.apply(i));
            longest = Math.max(longest, encoded[i].length);
        }
        int stride = (longest + 1 + 7) & ~7;
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(1, stride * count));
        for (int i = 0; i < count; i++) {
            buffer.put(i * stride, encoded[i]).put(i * stride + encoded[i].length, (byte) 0);
        }
        return new EncodedNames(buffer, stride);
    }

    /** @return one reusable slot for names encoded one at a time ({@link #encode(String)}) */
    public static EncodedNames slot() {
        return new EncodedNames(ByteBuffer.allocateDirect(NAME_MAX + 1), NAME_MAX + 1);
    }

    /** @return the address of name {@code i} as a C string */
    public long address(int i) {
        return base + (long) i * stride;
    }

    /** @return the address of {@code name}, written as a C string into this slot (valid until its next encode) */
    public long encode(String name) {
        int n = name.length();
        int i = 0;
        if (n <= NAME_MAX) {
            while (i < n) {
                char c = name.charAt(i);
                if (c >= 0x80 || c == 0 || c == '/') {
                    break;
                }
                buffer.put(i, (byte) c);
                i++;
            }
        }
        if (i == n) {
            buffer.put(n, (byte) 0);
            return base;
        }
        byte[] utf8 = checked(name);
        buffer.put(0, utf8).put(utf8.length, (byte) 0);
        return base;
    }

    private static byte[] checked(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length == 0 || utf8.length > NAME_MAX || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("file name '" + name + "' is empty, longer than " + NAME_MAX
                    + " bytes, or holds a '/' or a NUL");
        }
        return utf8;
    }
}
