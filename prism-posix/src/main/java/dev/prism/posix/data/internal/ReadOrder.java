package dev.prism.posix.data.internal;

import java.util.Random;

/** The orders md5_check visits files in. Each returns a permutation of 0..n-1. */
public final class ReadOrder {
    private ReadOrder() {
    }

    /** @return 0, 1, …, n-1 */
    public static int[] sequential(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }

    /**
     * @return a Fisher–Yates shuffle seeded from {@code seed} and {@code epoch}: the same for the same
     * seed and epoch, reshuffled for each epoch
     */
    public static int[] random(int n, long seed, int epoch) {
        int[] order = sequential(n);
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + epoch);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /** @return 0, s, 2s, …, then 1, 1+s, …: every file once, {@code stride} apart */
    public static int[] strided(int n, int stride) {
        int[] order = new int[n];
        int k = 0;
        for (int start = 0; start < Math.min(stride, n); start++) {
            for (int i = start; i < n; i += stride) {
                order[k++] = i;
            }
        }
        return order;
    }
}
