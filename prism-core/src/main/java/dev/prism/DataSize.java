package dev.prism;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of data in bytes, written and parsed with binary units ({@code 4KiB}, {@code 1MiB},
 * {@code 2GiB}); {@code K}, {@code KB}, {@code k} are read as KiB too, because storage people
 * type them that way.
 *
 * <pre>{@code
 * var size = dev.prism.DataSize.parse("4KiB");
 * System.out.println(size.bytes() + " " + size + " " + dev.prism.DataSize.ofMiB(1));
 * }</pre>
 *
 * @param bytes the number of bytes, never negative
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
    private static final Pattern SYNTAX =
            Pattern.compile("\\s*(\\d+)\\s*([kmgtp]?)(i?b?)\\s*", Pattern.CASE_INSENSITIVE);
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    /** @throws IllegalArgumentException when {@code bytes} is negative */
    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, was " + bytes);
        }
    }

    /** @return a size of {@code bytes} bytes */
    public static DataSize ofBytes(long bytes) {
        return new DataSize(bytes);
    }

    /** @return a size of {@code kib} × 1024 bytes */
    public static DataSize ofKiB(long kib) {
        return new DataSize(Math.multiplyExact(kib, 1L << 10));
    }

    /** @return a size of {@code mib} × 1024² bytes */
    public static DataSize ofMiB(long mib) {
        return new DataSize(Math.multiplyExact(mib, 1L << 20));
    }

    /** @return a size of {@code gib} × 1024³ bytes */
    public static DataSize ofGiB(long gib) {
        return new DataSize(Math.multiplyExact(gib, 1L << 30));
    }

    /**
     * Parses {@code 4096}, {@code 4k}, {@code 4KiB}, {@code 1M}, {@code 2GiB}…
     *
     * @throws IllegalArgumentException naming the text when it is not a size
     */
    public static DataSize parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; use a number of bytes"
                    + " or a binary unit such as 4KiB, 1MiB, 2GiB");
        }
        String prefix = m.group(2).toLowerCase(Locale.ROOT);
        int shift = 10 * "_kmgtp".indexOf(prefix.isEmpty() ? "_" : prefix);
        try {
            return new DataSize(Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is larger than " + Long.MAX_VALUE + " bytes");
        }
    }

    /** @return the largest whole binary unit: {@code 4KiB}, {@code 1536B}, {@code 3MiB} */
    @Override
    public String toString() {
        int unit = 0;
        long value = bytes;
        while (unit < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        return value + UNITS[unit];
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }
}
