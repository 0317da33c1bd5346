package dev.prism.spi;

/**
 * SplitMix64's finaliser: a bijection of 64-bit values whose outputs look unrelated for nearby inputs, for content
 * any reader can regenerate from (rank, file, offset) without storing it.
 *
 * <pre>{@code
 * import dev.prism.spi.SplitMix;
 *
 * System.out.println(Long.toHexString(SplitMix.mix(1)) + " " + Long.toHexString(SplitMix.mix(2)));
 * }</pre>
 */
public final class SplitMix {
    private SplitMix() {
    }

    /** @return {@code z} mixed (Steele, Lea and Flood's SplitMix64 output function) */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
