package dev.prism.report;

import dev.prism.RunResult;
import dev.prism.Stat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of {@link Comparison}, over made-up runs of any size, spread and seed. */
class ComparisonProperties {
    private static RunResult run(double createMean, double noise, int repetitions, long seed) {
        return CompareAndGateTest.Fixture.of(createMean, 5_000, noise, seed).repetitions(repetitions).run();
    }

    @Property(tries = 60)
    void aRunComparedWithItself_neverRegresses_andEveryRatioIsOne(@ForAll @DoubleRange(min = 1_000, max = 1e7) double mean,
                                                                 @ForAll @DoubleRange(min = 0, max = 0.5) double noise,
                                                                 @ForAll @IntRange(min = 1, max = 6) int repetitions,
                                                                 @ForAll @LongRange(min = 0, max = 1_000) long seed) {
        RunResult a = run(mean, noise, repetitions, seed);
        Comparison c = Comparison.defaults().statistics(Stat.MEAN, Stat.values()).compare(List.of(a), List.of(a));
        assertThat(c.hasRegression()).isFalse();
        // a pass needs evidence: below three repetitions nothing is judged, and that is no pass
        assertThat(c.outcome()).isIn(Comparison.Outcome.PASSED, Comparison.Outcome.INCONCLUSIVE);
        assertThat(c.passed()).isEqualTo(c.judged() == c.rows().size());
        if (repetitions < Comparison.MIN_REPETITIONS) {
            assertThat(c.passed()).isFalse();
        }
        assertThat(c.rows()).allSatisfy(r -> {
            assertThat(r.ratio()).isEqualTo(1.0);
            assertThat(r.verdict()).isIn(Comparison.Verdict.SAME, Comparison.Verdict.INCONCLUSIVE,
                    Comparison.Verdict.NOT_APPLICABLE);
        });
    }

    @Property(tries = 60)
    void aDifferenceWellBeyondTheThreshold_isNeverCalledSame(@ForAll @DoubleRange(min = 1.25, max = 4) double factor,
                                                            @ForAll boolean slower,
                                                            @ForAll @DoubleRange(min = 0, max = 0.5) double noise,
                                                            @ForAll @IntRange(min = 3, max = 6) int repetitions,
                                                            @ForAll @LongRange(min = 0, max = 1_000) long seed) {
        // "same" is a claim of equivalence: a t-test that finds nothing cannot make it, two one-sided tests must
        RunResult a = run(100_000, noise, repetitions, seed);
        RunResult b = run(slower ? 100_000 * factor : 100_000 / factor, noise, repetitions, seed + 1);
        Comparison c = Comparison.of(List.of(a), List.of(b), 10);
        assertThat(c.rowsOf("create")).filteredOn(r -> r.stat() == Stat.MEAN)
                .allSatisfy(r -> assertThat(r.verdict()).isNotEqualTo(Comparison.Verdict.SAME));
    }

    @Property(tries = 60)
    void belowThreeRepetitions_nothingIsJudged(@ForAll @IntRange(min = 1, max = 2) int repetitions,
                                               @ForAll @DoubleRange(min = 1.5, max = 10) double slowdown,
                                               @ForAll @LongRange(min = 0, max = 1_000) long seed) {
        Comparison c = Comparison.of(List.of(run(100_000, 0.01, repetitions, seed)),
                List.of(run(100_000 * slowdown, 0.01, repetitions, seed + 1)), 10);
        assertThat(c.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_APPLICABLE));
        assertThat(c.hasRegression()).isFalse();
        // nothing judged: not a pass, whatever the slowdown
        assertThat(c.judged()).isZero();
        assertThat(c.outcome()).isEqualTo(Comparison.Outcome.INCONCLUSIVE);
        assertThat(c.passed()).isFalse();
    }

    @Property(tries = 60)
    void aPass_isOnlyEverEveryStatisticJudged_noneRegressed_everyRunPassed(
            @ForAll @DoubleRange(min = 0.5, max = 2) double factor, @ForAll @DoubleRange(min = 0, max = 0.5) double noise,
            @ForAll @IntRange(min = 1, max = 6) int repetitions, @ForAll @LongRange(min = 0, max = 1_000) long seed) {
        Comparison c = Comparison.of(List.of(run(100_000, noise, repetitions, seed)),
                List.of(run(100_000 * factor, noise, repetitions, seed + 1)), 10);
        boolean evidence = !c.rows().isEmpty() && c.rows().stream().allMatch(r -> r.verdict() == Comparison.Verdict.SAME
                || r.verdict() == Comparison.Verdict.FASTER || r.verdict() == Comparison.Verdict.SLOWER);
        assertThat(c.passed()).isEqualTo(evidence && c.failures().isEmpty());
        assertThat(c.outcome()).isEqualTo(c.hasRegression() ? Comparison.Outcome.REGRESSION
                : evidence ? Comparison.Outcome.PASSED : Comparison.Outcome.INCONCLUSIVE);
        assertThat(c.table(false)).contains("outcome: " + (c.passed() ? "passed" : c.outcome().name()));
    }

    @Property(tries = 40)
    void aClearSlowdownIsARegressionOneWay_andNeverTheOther(@ForAll @DoubleRange(min = 1.5, max = 10) double slowdown,
                                                            @ForAll @IntRange(min = 3, max = 6) int repetitions,
                                                            @ForAll @LongRange(min = 0, max = 1_000) long seed) {
        RunResult fast = run(100_000, 0.01, repetitions, seed);
        RunResult slow = run(100_000 * slowdown, 0.01, repetitions, seed + 1);
        Comparison forward = Comparison.of(List.of(fast), List.of(slow), 10);
        Comparison backward = Comparison.of(List.of(slow), List.of(fast), 10);
        assertThat(forward.regressions()).extracting(Comparison.Row::operation).contains("create");
        assertThat(backward.regressions()).extracting(Comparison.Row::operation).doesNotContain("create");
        assertThat(backward.rowsOf("create")).filteredOn(r -> r.stat() == Stat.MEAN)
                .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.FASTER));
    }
}
