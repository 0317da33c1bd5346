package dev.prism.spi;

/**
 * Student's t distribution's 0.975 quantile, the factor of a 95% confidence interval of a mean of n samples
 * ({@code quantile975(n - 1) × s / √n}), as PRISM's results compute it: without a statistics library in core.
 *
 * <pre>{@code
 * import dev.prism.spi.StudentT;
 *
 * System.out.println(StudentT.quantile975(4));     // 2.776445105018: five repetitions
 * System.out.println(StudentT.quantile975(1000));  // 1.962339...
 * }</pre>
 */
public final class StudentT {
    /**
     * Student's t at 0.975 for 1 to 30 degrees of freedom, to 12 decimals (as commons-math3's TDistribution gives them;
     * core carries no statistics library: prism-report's StudentTProperties holds this to it for 1..5000).
     */
    private static final double[] T975 = {12.706204736175, 4.302652729698, 3.182446304857, 2.776445105018,
            2.570581835636, 2.446911851145, 2.364624251593, 2.306004135204, 2.262157162798, 2.228138851986,
            2.200985160092, 2.178812829667, 2.160368656463, 2.144786687918, 2.131449545560, 2.119905299221,
            2.109815577833, 2.100922040241, 2.093024054408, 2.085963447266, 2.079613844728, 2.073873067904,
            2.068657610419, 2.063898561628, 2.059538552753, 2.055529438643, 2.051830516480, 2.048407141795,
            2.045229642133, 2.042272456301};
    /** The normal distribution's 0.975 quantile. */
    private static final double Z975 = 1.959963984540054;

    private StudentT() {
    }

    /**
     * @return Student's t quantile at 0.975 for {@code df} degrees of freedom (at least 1): from the table up to 30,
     *         above it the Cornish-Fisher expansion in 1/df to the fourth order (Abramowitz and Stegun 26.7.5), within
     *         2e-8 of the exact value there and closer as df grows
     */
    public static double quantile975(long df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be at least 1, was " + df);
        }
        if (df <= T975.length) {
            return T975[(int) df - 1];
        }
        double z = Z975;
        double z2 = z * z;
        double g1 = (z2 + 1) * z / 4;
        double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
        double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
        double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
        double v = df;
        return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
    }

}
