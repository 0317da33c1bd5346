package dev.prism.internal.output;

import dev.prism.spi.StudentT;

/** Small statistics PRISM needs in more than one place. */
public final class Statistics {
    private Statistics() {
    }

    /** @return half the width of the 95% confidence interval of a mean of {@code n} samples with sample stddev {@code s}; 0 below 2 */
    public static double ci95HalfWidth(long n, double s) {
        if (n < 2) {
            return 0;
        }
        return StudentT.quantile975(n - 1) * s / Math.sqrt(n);
    }

    /**
     * The 95% confidence interval of a positive mean that cannot reach below zero: the Student t
     * interval of log(mean) (its standard error by the delta method, SE/mean), mapped back:
     * {@code mean × exp(∓ t·SE/mean)}. It contains the mean, is wider above than below, and agrees
     * with the symmetric t interval to first order when the spread is small; a skewed sample of few
     * values no longer gives a negative lower end.
     *
     * @return {low, high}; {mean, mean} below 2 samples or when the mean is not positive
     */
    public static double[] ci95OfPositiveMean(long n, double mean, double s) {
        if (n < 2 || !(mean > 0)) {
            return new double[]{mean, mean};
        }
        double relative = ci95HalfWidth(n, s) / mean;
        return new double[]{mean * Math.exp(-relative), mean * Math.exp(relative)};
    }

    /** @return the arithmetic mean, 0 for none */
    public static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return values.length == 0 ? 0 : sum / values.length;
    }

    /** @return the sample standard deviation (n − 1), 0 below 2 values */
    public static double stddev(double[] values) {
        if (values.length < 2) {
            return 0;
        }
        double mean = mean(values);
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        return Math.sqrt(squares / (values.length - 1));
    }
}
