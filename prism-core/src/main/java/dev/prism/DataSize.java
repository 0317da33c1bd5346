package dev.prism;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of data in bytes. Parsed as the SI and IEC prefixes mean: {@code 4KiB}, {@code 1MiB}, {@code 2GiB} are
 * binary (4,096 B…), {@code 150KB}, {@code 150kB}, {@code 4MB}, {@code 2GB} decimal (150,000 B…); a bare letter,
 * {@code 4k}, {@code 1M}, {@code 2G}, is binary, as fio and dd read it. Written in the largest whole binary unit
 * ({@code 4KiB}), else the largest whole decimal one ({@code 150kB}), else in bytes.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 *
 * var size = DataSize.parse("4KiB");
 * System.out.println(size.bytes() + " " + size + " " + DataSize.ofMiB(1));
 * System.out.println(DataSize.parse("150KB").bytes() + " " + DataSize.parse("150KB")); // 150000 150kB
 * }</pre>
 *
 * @param bytes the number of bytes, never negative
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
    private static final Pattern SYNTAX =
            Pattern.compile("\\s*(\\d+)\\s*([kmgtp]?)(i?b?)\\s*", Pattern.CASE_INSENSITIVE);
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    private static final String[] DECIMAL_UNITS = {"B", "kB", "MB", "GB", "TB", "PB"};

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
     * Parses {@code 4096}, {@code 4k}, {@code 4KiB}, {@code 1M}, {@code 2GiB} (binary), {@code 150KB}, {@code 4MB}
     * (decimal)…
     *
     * @throws IllegalArgumentException naming the text when it is not a size
     */
    public static DataSize parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; use a number of bytes"
                    + " or a unit such as 4KiB, 1MiB, 2GiB (binary) or 150KB, 4MB (decimal)");
        }
        String prefix = m.group(2).toLowerCase(Locale.ROOT);
        int power = "_kmgtp".indexOf(prefix.isEmpty() ? "_" : prefix);
        boolean decimal = power > 0 && m.group(3).equalsIgnoreCase("b"); // KB, MB: SI; KiB, K: binary
        try {
            long unit = decimal ? (long) Math.pow(1000, power) : 1L << (10 * power);
            return new DataSize(Math.multiplyExact(Long.parseLong(m.group(1)), unit));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is larger than " + Long.MAX_VALUE + " bytes");
        }
    }

    /**
     * @return in the largest whole binary unit ({@code 4KiB}, {@code 1536B}, {@code 3MiB}), else the largest whole decimal
     *         one ({@code 150kB}), else in bytes ({@code 1500B}): text {@link #parse} reads back to the same size
     */
    @Override
    public String toString() {
        int unit = 0;
        long value = bytes;
        while (unit < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        if (unit > 0) {
            return value + UNITS[unit];
        }
        while (unit < DECIMAL_UNITS.length - 1 && value != 0 && value % 1000 == 0) {
            value /= 1000;
            unit++;
        }
        return value + DECIMAL_UNITS[unit];
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }
}
