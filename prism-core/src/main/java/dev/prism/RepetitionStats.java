package dev.prism;

import dev.prism.internal.output.Statistics;

import java.util.List;

/**
 * One operation across a run's repetitions: the mean of the repetitions' mean latencies and of
 * their aggregate rates, each with its 95% confidence interval over repetitions — the statistic the
 * paper's figures plot with error bars. Latencies and rates are positive, so the interval is
 * Student t's on the log scale ({@code mean × exp(∓ t·SE/mean)}): it never reaches below zero
 * and is wider above the mean than below.
 *
 * <pre>{@code
 * import dev.prism.RepetitionStats;
 *
 * var s = RepetitionStats.of(new double[]{100, 110, 90}, new double[]{1000, 900, 1100});
 * System.out.println(s.meanNanos() + " ± " + (s.ci95HighNanos() - s.meanNanos()));
 * }</pre>
 *
 * @param repetitions          how many repetitions measured the operation
 * @param meanNanos            mean of the repetitions' mean latencies
 * @param ci95LowNanos         lower end of its 95% confidence interval
 * @param ci95HighNanos        upper end
 * @param meanOpsPerSecond     mean of the repetitions' aggregate rates
 * @param ci95LowOpsPerSecond  lower end of its 95% confidence interval
 * @param ci95HighOpsPerSecond upper end
 */
public record RepetitionStats(int repetitions, double meanNanos, double ci95LowNanos, double ci95HighNanos,
                              double meanOpsPerSecond, double ci95LowOpsPerSecond, double ci95HighOpsPerSecond) {
    /** @return the statistics of per-repetition mean latencies and rates */
    public static RepetitionStats of(double[] meanNanosPerRepetition, double[] opsPerSecondPerRepetition) {
        double latency = Statistics.mean(meanNanosPerRepetition);
        double[] latencyCi = Statistics.ci95OfPositiveMean(meanNanosPerRepetition.length, latency,
                Statistics.stddev(meanNanosPerRepetition));
        double rate = Statistics.mean(opsPerSecondPerRepetition);
        double[] rateCi = Statistics.ci95OfPositiveMean(opsPerSecondPerRepetition.length, rate,
                Statistics.stddev(opsPerSecondPerRepetition));
        return new RepetitionStats(meanNanosPerRepetition.length, latency, latencyCi[0], latencyCi[1],
                rate, rateCi[0], rateCi[1]);
    }

    /** @return the mean of the repetitions' mean latencies, to the nearest nanosecond */
    public java.time.Duration mean() {
        return java.time.Duration.ofNanos(Math.round(meanNanos));
    }

    /** @return the lower end of the mean latency's 95% confidence interval, to the nearest nanosecond */
    public java.time.Duration ci95Low() {
        return java.time.Duration.ofNanos(Math.round(ci95LowNanos));
    }

    /** @return the upper end of the mean latency's 95% confidence interval, to the nearest nanosecond */
    public java.time.Duration ci95High() {
        return java.time.Duration.ofNanos(Math.round(ci95HighNanos));
    }

    /** @return the mean of the repetitions' aggregate rates */
    public Rate meanRate() {
        return Rate.ofOperations(meanOpsPerSecond);
    }

    /** @return the lower end of the rate's 95% confidence interval */
    public Rate ci95LowRate() {
        return Rate.ofOperations(ci95LowOpsPerSecond);
    }

    /** @return the upper end of the rate's 95% confidence interval */
    public Rate ci95HighRate() {
        return Rate.ofOperations(ci95HighOpsPerSecond);
    }

    /** @return the statistics in the table's units: {@code mean 2.5 µs [2.4 µs, 2.6 µs], 153,466 ops/s [150,001 ops/s, 156,002 ops/s] over 3 repetitions} */
    @Override
    public String toString() {
        return "mean " + dev.prism.spi.Formats.latency(meanNanos) + " [" + dev.prism.spi.Formats.latency(ci95LowNanos)
                + ", " + dev.prism.spi.Formats.latency(ci95HighNanos) + "], " + rateText(meanOpsPerSecond) + " ["
                + rateText(ci95LowOpsPerSecond) + ", " + rateText(ci95HighOpsPerSecond) + "] over " + repetitions
                + " repetition" + (repetitions == 1 ? "" : "s");
    }

    private static String rateText(double perSecond) {
        return Double.isFinite(perSecond) && perSecond >= 0 ? Rate.ofOperations(perSecond).toString() : "n/a";
    }

    /** @return the statistics of {@code operation} over {@code repetitions} (those that measured it) */
    static RepetitionStats of(String operation, List<RepetitionResult> repetitions) {
        List<Measurement> measured = repetitions.stream().map(r -> r.measurements().get(operation))
                .filter(java.util.Objects::nonNull).toList();
        return of(measured.stream().mapToDouble(Measurement::meanNanos).toArray(),
                measured.stream().mapToDouble(Measurement::opsPerSecond).toArray());
    }
}
