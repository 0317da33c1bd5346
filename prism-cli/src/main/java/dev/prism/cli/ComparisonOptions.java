package dev.prism.cli;

import dev.prism.report.Comparison;
import dev.prism.Stat;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** How {@code compare}, {@code report} and {@code run --baseline} pair runs and judge statistics. */
final class ComparisonOptions {
    @Option(names = "--threshold", paramLabel = "[STAT=]PERCENT", split = ",",
            description = "slowdowns up to this are tolerated: PERCENT for every statistic, STAT=PERCENT for one,"
                    + " e.g. --threshold 10,p99=25 (default: 10)")
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--stats", paramLabel = "STAT[,STAT…]", split = ",",
            description = "statistics to judge: mean, p50, p90, p99, p99.9, max, ops/s, bytes/s (default: mean,p99,p99.9;"
                    + " p99.9 only where each repetition holds 1000 operations)")
    List<String> stats = new ArrayList<>();

    @Option(names = "--pair-ignoring", paramLabel = "PARAM[,PARAM…]", split = ",",
            description = "pair runs whose parameters differ only in these, e.g. --pair-ignoring access for an A/B of"
                    + " access=native against access=nio")
    List<String> pairIgnoring = new ArrayList<>();

    /** @return the options these flags describe */
    Comparison.Options toOptions() {
        Comparison.Options options = Comparison.defaults();
        for (String t : thresholds) {
            int eq = t.indexOf('=');
            if (eq < 0) {
                options = options.threshold(percent(t, t));
            } else {
                options = options.threshold(Stat.parse(t.substring(0, eq)), percent(t.substring(eq + 1), t));
            }
        }
        if (!stats.isEmpty()) {
            options = options.statistics(stats.stream().map(Stat::parse).toList());
        }
        if (!pairIgnoring.isEmpty()) {
            options = options.pairIgnoring(pairIgnoring.toArray(String[]::new));
        }
        return options;
    }

    private static double percent(String text, String option) {
        String number = text.strip().endsWith("%") ? text.strip().substring(0, text.strip().length() - 1) : text.strip();
        if (!number.matches("[0-9]+(\\.[0-9]+)?")) {
            throw new IllegalArgumentException("--threshold takes PERCENT or STAT=PERCENT (e.g. 10 or p99=25), was '" + option + "'");
        }
        double value = Double.parseDouble(number);
        if (value > 10_000) {
            throw new IllegalArgumentException("--threshold must be in 0..10000 (percent), was '" + option + "'");
        }
        return value;
    }
}
