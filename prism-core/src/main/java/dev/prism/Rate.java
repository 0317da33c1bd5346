package dev.prism;

import java.util.Locale;
import java.util.Objects;

/**
 * A rate per second, of operations or of bytes, as a measurement's figures and a comparison's rows hold them, printed
 * in the tables' units ({@code 12,345 ops/s}, {@code 1.2 GiB/s}). Immutable; two rates of one kind compare by value.
 *
 * <pre>{@code
 * import dev.prism.Rate;
 *
 * Rate writes = Rate.ofBytes(1.5 * 1024 * 1024 * 1024);
 * Rate creates = Rate.ofOperations(12_345);
 * System.out.println(writes + ", " + creates + ", " + writes.perSecond() + " B/s");
 * }</pre>
 */
public final class Rate implements Comparable<Rate> {
    /** What a rate counts. */
    public enum Unit {
        /** operations per second */
        OPERATIONS,
        /** bytes per second */
        BYTES
    }

    private final double perSecond;
    private final Unit unit;

    private Rate(double perSecond, Unit unit) {
        if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("a rate must be a finite number of " + unit.name().toLowerCase(Locale.ROOT)
                    + " per second, at least 0, was " + perSecond);
        }
        this.perSecond = perSecond;
        this.unit = unit;
    }

    /** @param perSecond operations per second, finite and at least 0 */
    public static Rate ofOperations(double perSecond) {
        return new Rate(perSecond, Unit.OPERATIONS);
    }

    /** @param perSecond bytes per second, finite and at least 0 */
    public static Rate ofBytes(double perSecond) {
        return new Rate(perSecond, Unit.BYTES);
    }

    /** @return the count per second */
    public double perSecond() {
        return perSecond;
    }

    /** @return what it counts */
    public Unit unit() {
        return unit;
    }

    /** @throws IllegalArgumentException when the two count different things */
    @Override
    public int compareTo(Rate other) {
        if (other.unit != unit) {
            throw new IllegalArgumentException("cannot compare a rate of " + unit.name().toLowerCase(Locale.ROOT)
                    + " with one of " + other.unit.name().toLowerCase(Locale.ROOT));
        }
        return Double.compare(perSecond, other.perSecond);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rate r && r.unit == unit && Double.compare(r.perSecond, perSecond) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(perSecond, unit);
    }

    /** @return the rate as the tables print it: {@code 12,345 ops/s}, {@code 1.2 GiB/s} */
    @Override
    public String toString() {
        return unit == Unit.OPERATIONS ? String.format(Locale.ROOT, "%,.0f ops/s", perSecond)
                : dev.prism.spi.Formats.bytes(perSecond) + "/s";
    }
}
