package dev.prism.report;

import dev.prism.Failure;
import dev.prism.HostInfo;
import dev.prism.LatencyRecorder;
import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.Results;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.Status;
import dev.prism.TargetInfo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompareAndGateTest {
    /**
     * A made-up run of "bench" measuring "create" and "stat". Each rank of each repetition records 100
     * operations of each around its centre (noise: the spread of centres between ranks and repetitions);
     * every 50th create (2%) takes {@code createTail} instead, when that is positive.
     */
    record Fixture(Map<String, String> parameters, int repetitions, int ranks, double createMean, double createTail,
                   double statMean, double noise, long seed) {
        static Fixture of(double createMean, double statMean, double noise, long seed) {
            return new Fixture(Map.of("files", "10"), 3, 2, createMean, 0, statMean, noise, seed);
        }

        Fixture repetitions(int n) {
            return new Fixture(parameters, n, ranks, createMean, createTail, statMean, noise, seed);
        }

        Fixture tail(double nanos) {
            return new Fixture(parameters, repetitions, ranks, createMean, nanos, statMean, noise, seed);
        }

        Fixture parameters(Map<String, String> p) {
            return new Fixture(p, repetitions, ranks, createMean, createTail, statMean, noise, seed);
        }

        RunResult run() {
            return build(null);
        }

        RunResult failed(String message) {
            return build(new Failure(Failure.Kind.EXCEPTION, message, 1));
        }

        private RunResult build(Failure failure) {
            Random random = new Random(seed);
            List<RepetitionResult> reps = new ArrayList<>();
            for (int rep = 0; rep < repetitions; rep++) {
                List<RankResult> rankResults = new ArrayList<>();
                for (int rank = 0; rank < ranks; rank++) {
                    Map<String, Measurement> ms = new LinkedHashMap<>();
                    for (String op : List.of("create", "stat")) {
                        LatencyRecorder r = new LatencyRecorder(op);
                        double center = (op.equals("create") ? createMean : statMean) * (1 + noise * random.nextGaussian());
                        for (int i = 0; i < 100; i++) {
                            boolean tail = op.equals("create") && createTail > 0 && i % 50 == 49;
                            r.record(Math.round((tail ? createTail : center) * (0.9 + 0.2 * random.nextDouble())));
                        }
                        r.addBytes(4096L * 100);
                        ms.put(op, r.snapshot(1_000_000_000L));
                    }
                    rankResults.add(new RankResult(rank, "h", Status.PASS, null, 1_000_000_000L, ms, Map.of(), List.of()));
                }
                Map<String, Measurement> merged = new LinkedHashMap<>();
                for (String op : List.of("create", "stat")) {
                    merged.put(op, Measurement.combineRanks(rankResults.stream().map(r -> r.measurements().get(op)).toList()));
                }
                reps.add(new RepetitionResult(rep, Status.PASS, null, merged, rankResults, RankSpread.of(rankResults, rep)));
            }
            Map<String, Measurement> all = new LinkedHashMap<>();
            for (String op : List.of("create", "stat")) {
                all.put(op, Measurement.combineRepetitions(reps.stream().map(r -> r.measurements().get(op)).toList()));
            }
            return RunResult.builder()
                    .runId("id")
                    .benchmark("bench")
                    .parameters(parameters)
                    .tasks(ranks)
                    .launcher("threads")
                    .warmups(0)
                    .seed(1)
                    .timeout(Duration.ofMinutes(1))
                    .stallThreshold(Duration.ofSeconds(1))
                    .status(failure == null ? Status.PASS : Status.FAIL)
                    .failure(failure)
                    .measurements(all)
                    .repetitions(reps)
                    .rankSpread(RankSpread.ofRepetitions(reps))
                    .startedAt(Instant.EPOCH)
                    .finishedAt(Instant.EPOCH)
                    .target(new TargetInfo("/t", "/", "ext4", "/dev/x", "rw", "rw", 1, 1))
                    .host(new HostInfo("h", "k", "Linux", "amd64", 2, 1, "17", "0"))
                    .provenance(dev.prism.Provenance.UNKNOWN)
                    .conditions(dev.prism.HostConditions.UNKNOWN)
                    .build();
        }
    }

    static RunResult run(double createMean, double statMean, double noise, long seed) {
        return Fixture.of(createMean, statMean, noise, seed).run();
    }

    private static String withoutCi(String json) {
        return json.replaceAll("\"ci95(Low|High)Nanos\" : [0-9.eE+-]+", "");
    }

    private static Comparison.Row row(Comparison c, String op, Stat stat) {
        return c.rows().stream().filter(r -> r.operation().equals(op) && r.stat() == stat).findFirst().orElseThrow();
    }

    @Test
    void identicalInputs_haveNoRegression() {
        RunResult a = run(100_000, 5_000, 0.02, 1);
        Comparison c = Comparison.of(List.of(a), List.of(a), 10);
        assertThat(c.rows()).extracting(Comparison.Row::stat).containsExactly(Stat.MEAN, Stat.P99, Stat.MEAN, Stat.P99);
        assertThat(c.hasRegression()).isFalse();
        assertThat(c.outcome()).isEqualTo(Comparison.Outcome.PASSED);
        assertThat(c.judged()).isEqualTo(4);
        assertThat(c.passed()).isTrue();
        assertThat(c.table(false)).endsWith("outcome: passed (every statistic judged, none regressed)\n");
        assertThat(c.rows()).allSatisfy(r -> assertThat(r.ratio()).isEqualTo(1.0));
        // a row says itself in the table's words, and rows of equal inputs are equal
        assertThat(c.rows().get(1).toString()).isEqualTo("bench files=10 tasks=2 create p99: 1.00× same");
        assertThat(Comparison.of(List.of(a), List.of(a), 10).rows()).isEqualTo(c.rows());
    }

    @Test
    void twiceAsSlowOnOneOperation_isFlaggedOnThatOperationOnly_namingTheStatistic() {
        Comparison c = Comparison.of(List.of(run(100_000, 5_000, 0.02, 1)), List.of(run(200_000, 5_000, 0.02, 2)), 10);
        assertThat(c.regressions()).extracting(Comparison.Row::operation).containsOnly("create");
        Comparison.Row create = row(c, "create", Stat.MEAN);
        assertThat(create.ratio()).isBetween(1.8, 2.2);
        assertThat(create.pValue()).isLessThan(0.001);
        assertThat(create.differenceLow()).isGreaterThan(50_000);
        assertThat(create.verdictText()).isEqualTo("REGRESSION mean");
        assertThat(c.table(false)).contains("REGRESSION mean").contains("regression(s)");
        assertThat(c.table(true)).startsWith("| benchmark | tasks | op | stat |").contains("| REGRESSION mean |");
    }

    @Test
    void aNoisyButInsignificantDifference_isNotFlagged() {
        // 20% slower on average, but the spread between repetitions is larger than that
        Comparison c = Comparison.of(List.of(Fixture.of(100_000, 5_000, 0.6, 3).repetitions(5).run()),
                List.of(Fixture.of(120_000, 5_000, 0.6, 4).repetitions(5).run()), 10);
        Comparison.Row create = row(c, "create", Stat.MEAN);
        assertThat(create.significant()).isFalse();
        assertThat(create.regression()).isFalse();
    }

    @Test
    void ranksOfOneRepetition_areNotSamples_tooFewRepetitionsIsNotApplicable_neverSame() {
        // one repetition of two ranks whose means differ by 10%: before, n = 2 "samples" a side made it significant
        RunResult a = Fixture.of(100_000, 5_000, 0.0, 1).repetitions(1).run();
        RunResult b = Fixture.of(115_000, 5_000, 0.0, 2).repetitions(1).run();
        Comparison c = Comparison.of(List.of(a), List.of(b), 10);
        assertThat(c.rows()).allSatisfy(r -> {
            assertThat(r.verdict()).isEqualTo(Comparison.Verdict.NOT_APPLICABLE);
            assertThat(r.pValue()).isNaN();
        });
        assertThat(row(c, "create", Stat.MEAN).verdictText()).isEqualTo("n/a (1 rep; need ≥ 3)");
        assertThat(c.hasRegression()).isFalse();
        assertThat(c.table(false)).contains("n/a (1 rep; need ≥ 3)").doesNotContain(" same").contains("not judged");
        Comparison uneven = Comparison.of(List.of(a), List.of(Fixture.of(100_000, 5_000, 0, 3).repetitions(5).run()), 10);
        assertThat(row(uneven, "create", Stat.MEAN).verdictText()).isEqualTo("n/a (1 vs 5 reps; need ≥ 3)");
    }

    @Test
    void aTailRegression_withTheMeanNearlyUnchanged_isARegressionOfP99() {
        // 2% of creates go from 1.5 ms to 4 ms: the mean moves ~5%, the p99 more than two-fold
        RunResult before = Fixture.of(1_000_000, 5_000, 0.02, 1).repetitions(5).tail(1_500_000).run();
        RunResult after = Fixture.of(1_000_000, 5_000, 0.02, 2).repetitions(5).tail(4_000_000).run();
        Comparison c = Comparison.of(List.of(before), List.of(after), 10);
        Comparison.Row mean = row(c, "create", Stat.MEAN);
        Comparison.Row p99 = row(c, "create", Stat.P99);
        assertThat(mean.ratio()).isBetween(1.0, 1.1);
        assertThat(mean.regression()).isFalse();
        assertThat(p99.ratio()).isBetween(2.2, 3.2);
        assertThat(p99.verdictText()).isEqualTo("REGRESSION p99");
        assertThat(p99.baselineRepetitions()).isEqualTo(5);
        assertThat(c.regressions()).extracting(Comparison.Row::stat).containsExactly(Stat.P99);
        // a per-statistic threshold: a p99 under 3x slower is tolerated with 200%
        assertThat(Comparison.defaults().threshold(Stat.P99, 200).compare(List.of(before), List.of(after)).hasRegression()).isFalse();
    }

    @Test
    void p999_isJudgedOnlyWhereEachRepetitionHoldsAThousandOperations() {
        RunResult small = Fixture.of(100_000, 5_000, 0.02, 1).repetitions(5).run();
        assertThat(Comparison.of(List.of(small), List.of(small), 10).rows()).noneMatch(r -> r.stat() == Stat.P999);
        Comparison asked = Comparison.defaults().statistics(Stat.P999).compare(List.of(small), List.of(small));
        assertThat(asked.rows()).allSatisfy(r -> assertThat(r.verdictText()).isEqualTo("n/a (200 ops/rep; p99.9 needs ≥ 1000)"));
    }

    @Test
    void notSignificant_isSameOnlyWhereTwoOneSidedTestsShowItWithinTheThreshold_elseInconclusive() {
        // tight repetitions of the same storage: the 90% interval of the difference lies well inside ±10%
        RunResult tightA = Fixture.of(100_000, 5_000, 0.01, 1).repetitions(5).run();
        RunResult tightB = Fixture.of(100_000, 5_000, 0.01, 2).repetitions(5).run();
        Comparison.Row same = row(Comparison.of(List.of(tightA), List.of(tightB), 10), "create", Stat.MEAN);
        assertThat(same.significant()).isFalse();
        assertThat(same.verdict()).isEqualTo(Comparison.Verdict.SAME);
        // three scattered repetitions a side, twice as slow: Welch's test finds nothing, and nothing shows them alike
        RunResult wildA = Fixture.of(100_000, 5_000, 0.6, 3).run();
        RunResult wildB = Fixture.of(200_000, 5_000, 0.6, 4).run();
        Comparison wild = Comparison.of(List.of(wildA), List.of(wildB), 10);
        Comparison.Row unsure = row(wild, "create", Stat.MEAN);
        assertThat(unsure.significant()).isFalse();
        assertThat(unsure.verdict()).isEqualTo(Comparison.Verdict.INCONCLUSIVE);
        assertThat(unsure.verdictText()).isEqualTo("inconclusive");
        assertThat(unsure.note()).isEqualTo("not significant, and not shown within ±10%");
        assertThat(wild.table(false)).contains("inconclusive").contains(" inconclusive (");
        // not a regression either, but no evidence of none: the comparison is inconclusive, not passed (the gate
        // passes and says why)
        assertThat(wild.hasRegression()).isFalse();
        assertThat(wild.outcome()).isEqualTo(Comparison.Outcome.INCONCLUSIVE);
        assertThat(wild.passed()).isFalse();
        assertThat(wild.table(false)).containsPattern("outcome: INCONCLUSIVE \\(\\d+ of \\d+ statistic\\(s\\) judged, none regressed;");
        Gate.Verdict gate = Gate.of(Gate.expect("bench").op("create").mean().notSlowerThanBaselineBy(10))
                .evaluate(List.of(wildB), List.of(wildA));
        assertThat(gate.reasons()).singleElement().satisfies(r -> assertThat(r.message())
                .contains("the repetitions cannot show it within 10%"));
        // a threshold of 0 can never be shown: every non-significant difference is inconclusive
        assertThat(row(Comparison.of(List.of(tightA), List.of(tightB), 0), "create", Stat.MEAN).verdict())
                .isEqualTo(Comparison.Verdict.INCONCLUSIVE);
    }

    @Test
    void ratesAreJudgedWithLowerAsSlower() {
        RunResult fast = Fixture.of(100_000, 5_000, 0.02, 1).run();
        Comparison c = Comparison.defaults().statistics(Stat.OPS_PER_SECOND).compare(List.of(fast), List.of(fast));
        assertThat(c.rows()).allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Comparison.Verdict.SAME));
        assertThat(Stat.OPS_PER_SECOND.slowdown(1000, 500)).isEqualTo(2.0);
        assertThat(Stat.P99.slowdown(1000, 500)).isEqualTo(0.5);
    }

    @Test
    void runsThatDifferInOneParameter_pairWhenItIsIgnored() {
        RunResult nativeAccess = Fixture.of(100_000, 5_000, 0.02, 1).parameters(Map.of("files", "10", "access", "native")).run();
        RunResult nio = Fixture.of(200_000, 5_000, 0.02, 2).parameters(Map.of("files", "10", "access", "nio")).run();
        assertThat(Comparison.of(List.of(nativeAccess), List.of(nio), 10).rows()).isEmpty();
        Comparison ab = Comparison.defaults().pairIgnoring("access").compare(List.of(nativeAccess), List.of(nio));
        assertThat(ab.rows()).isNotEmpty().allSatisfy(r -> assertThat(r.pairedOn()).isEqualTo("access=native→nio"));
        assertThat(row(ab, "create", Stat.MEAN).regression()).isTrue();
        assertThat(ab.table(false)).contains("paired on").contains("access=native→nio");
        assertThatThrownBy(() -> Comparison.defaults().pairIgnoring("acess").compare(List.of(nativeAccess), List.of(nio)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'acess'").hasMessageContaining("access, files");
    }

    @Test
    void aFailedCandidateRun_failsTheComparison() {
        RunResult ok = run(100_000, 5_000, 0.02, 1);
        Comparison c = Comparison.of(List.of(ok), List.of(Fixture.of(100_000, 5_000, 0.02, 1).failed("open(\"/t/x\"): EIO")), 10);
        assertThat(c.hasRegression()).isFalse();
        assertThat(c.passed()).isFalse();
        assertThat(c.table(false)).contains("FAILED bench tasks=2: FAIL EXCEPTION on rank 1: open(\"/t/x\"): EIO")
                .contains("1 failed run(s)");
    }

    @Test
    void options_refuseWhatMakesNoSense_atOnce() {
        assertThatThrownBy(() -> Comparison.defaults().threshold(-1)).hasMessageContaining("thresholdPercent")
                .hasMessageContaining("-1.0").hasMessageContaining("0..10000");
        assertThatThrownBy(() -> Comparison.defaults().threshold(Stat.P99, Double.NaN)).hasMessageContaining("p99");
        assertThatThrownBy(() -> Comparison.defaults().statistics(List.of())).hasMessageContaining("at least one");
        assertThatThrownBy(() -> Comparison.defaults().pairIgnoring(" ")).hasMessageContaining("pairIgnoring");
        assertThatThrownBy(() -> Stat.parse("p98")).hasMessageContaining("'p98'").hasMessageContaining("p99.9");
        assertThat(Stat.parse("p999")).isEqualTo(Stat.P999);
    }

    @Test
    void gate_absoluteExpectationsPassAndFailWhereTheyShould() {
        List<RunResult> runs = List.of(run(100_000, 5_000, 0.02, 1));
        assertThat(Gate.of(Gate.expect("bench").op("create").p99().below(Duration.ofMillis(1))).evaluate(runs).passed()).isTrue();
        assertThat(Gate.of(Gate.expect("bench").op("create").mean().below(Duration.ofMillis(1))).evaluate(runs).passed()).isTrue();
        assertThat(Gate.of(Gate.expect("bench").op("create").p90().below(Duration.ofMillis(1)),
                Gate.expect("bench").op("create").max().below(Duration.ofMillis(1))).evaluate(runs).passed()).isTrue();
        Gate.Verdict slow = Gate.of(Gate.expect("bench").op("create").p99().below(Duration.ofMillis(1)),
                Gate.expect("bench").op("create").p50().below(Duration.ofNanos(10_000))).evaluate(runs);
        assertThat(slow.passed()).isFalse();
        assertThat(slow.failures()).singleElement().satisfies(r -> assertThat(r.message()).contains("p50").contains("is not below"));
        assertThatThrownBy(slow::assertPassed).isInstanceOf(AssertionError.class)
                .hasMessageContaining("failed 1 of 2").hasMessageContaining("bench tasks=2 create p50");
        assertThat(Gate.of(Gate.expect("bench").op("create").bytesPerSecond().above(1_000)).evaluate(runs).passed()).isTrue();
        assertThat(Gate.of(Gate.expect("bench").op("create").opsPerSecond().above(1e9)).evaluate(runs).passed()).isFalse();
        assertThat(Gate.of(Gate.expect("bench").tasks(8).op("create").p99().below(Duration.ofSeconds(1))).evaluate(runs)
                .failures().get(0).message()).contains("no run of bench with 8 task(s)");
        assertThat(Gate.of(Gate.expect("bench").op("unlink").p99().below(Duration.ofSeconds(1))).evaluate(runs)
                .failures().get(0).message()).contains("not measured");
    }

    @Test
    void gate_everyExpectationOnAFailedRunFails_withTheFailureAsItsReason() {
        List<RunResult> runs = List.of(Fixture.of(100_000, 5_000, 0.02, 1).failed("unlinkat(\"/t/f\"): Input/output error (EIO)"));
        Gate.Verdict verdict = Gate.of(Gate.expect("bench").op("create").p99().below(Duration.ofSeconds(10)),
                Gate.expect("bench").op("create").opsPerSecond().above(0),
                Gate.expect("bench").op("create").mean().notSlowerThanBaselineBy(1000)).evaluate(runs, runs);
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.failures()).hasSize(3).allSatisfy(r -> assertThat(r.message())
                .contains("the run FAILED").contains("EIO"));
        assertThat(verdict.toString()).startsWith("gate FAILED");
    }

    @Test
    void gate_relativeToABaseline_honoursTheStatistic() {
        List<RunResult> before = List.of(Fixture.of(1_000_000, 5_000, 0.02, 1).repetitions(5).tail(1_500_000).run());
        List<RunResult> after = List.of(Fixture.of(1_000_000, 5_000, 0.02, 2).repetitions(5).tail(4_000_000).run());
        Gate.Verdict onMean = Gate.of(Gate.expect("bench").op("create").mean().notSlowerThanBaselineBy(10)).evaluate(after, before);
        Gate.Verdict onP99 = Gate.of(Gate.expect("bench").op("create").p99().notSlowerThanBaselineBy(10)).evaluate(after, before);
        assertThat(onMean.passed()).as(onMean.toString()).isTrue();
        assertThat(onP99.passed()).isFalse();
        assertThat(onP99.failures().get(0).message()).contains("create p99").doesNotContain(" mean ")
                .contains("slower by more than 10%").contains("5/5 reps");
        Gate.Verdict onRate = Gate.of(Gate.expect("bench").op("create").opsPerSecond().notSlowerThanBaselineBy(10))
                .evaluate(after, before);
        assertThat(onRate.passed()).as(onRate.toString()).isTrue();
        Gate same = Gate.of(Gate.expect("bench").op("create").mean().notSlowerThanBaselineBy(10));
        assertThat(same.evaluate(List.of(run(200_000, 5_000, 0.02, 6)), List.of(run(100_000, 5_000, 0.02, 1))).passed()).isFalse();
        assertThat(same.evaluate(after).failures().get(0).message()).contains("needs a baseline");
        List<RunResult> once = List.of(Fixture.of(100_000, 5_000, 0.02, 1).repetitions(1).run());
        assertThat(same.evaluate(once, once).failures()).singleElement()
                .satisfies(r -> assertThat(r.message()).contains("cannot be judged (1 rep; need ≥ 3)"));
    }

    @Test
    void gate_boundsMatchTheirStatistic_byType() {
        // a latency has no lower bound and a rate no upper bound: p99().above(5) does not compile
        assertThat(Arrays.stream(Gate.Latency.class.getMethods()).map(java.lang.reflect.Method::getName))
                .contains("below", "notSlowerThanBaselineBy").doesNotContain("above");
        assertThat(Arrays.stream(Gate.Rate.class.getMethods()).map(java.lang.reflect.Method::getName))
                .contains("above", "notSlowerThanBaselineBy").doesNotContain("below");
        assertThatThrownBy(() -> Gate.expect("b").op("x").p99().below(Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> Gate.expect("b").op("x").opsPerSecond().above(-1)).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> Gate.expect("b").op("x").mean().notSlowerThanBaselineBy(-5)).hasMessageContaining("0..10000");
        assertThatThrownBy(() -> Gate.expect("b").op(" ")).hasMessageContaining("operation");
    }

    @Test
    void gate_fromJson_andItsErrorsNameTheExpectation(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("gate.json"), """
                {"expectations": [
                  {"benchmark": "bench", "op": "create", "stat": "p99", "below": "1ms"},
                  {"benchmark": "bench", "tasks": 2, "op": "create", "stat": "bytes/s", "above": 1000},
                  {"benchmark": "bench", "op": "stat", "stat": "mean", "notSlowerThanBaselineBy": 10},
                  {"benchmark": "bench", "op": "create", "stat": "p99.9", "notSlowerThanBaselineBy": 10},
                  {"benchmark": "bench", "op": "create", "stat": "max", "below": "10ms"}
                ]}""");
        Gate gate = Gate.fromJson(file);
        assertThat(gate.expectations()).extracting(Gate.Expectation::stat)
                .containsExactly(Stat.P99, Stat.BYTES_PER_SECOND, Stat.MEAN, Stat.P999, Stat.MAX);
        List<RunResult> runs = List.of(run(100_000, 5_000, 0.02, 1));
        assertThat(gate.expectations().get(3).toString()).contains("p99.9 not slower than the baseline by 10%");
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"p98\", \"below\": \"1ms\"}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("expectation 0").hasMessageContaining("'p98'");
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"bytes/s\", \"below\": \"1ms\"}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("bytes/s is a rate: use above");
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"p99\", \"above\": 5}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("p99 is a latency: use below");
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"p99\", \"below\": \"1ms\","
                + " \"notSlowerThanBaselineBy\": 5}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("exactly one").hasMessageContaining("below and notSlower");
        assertThat(Gate.of(gate.expectations().subList(0, 3)).evaluate(runs, runs).passed()).isTrue();
    }

    @Test
    void theTable_leavesOutEmptyParameters_andShowsMiBPerSecondWhereBytesMoved() {
        RunResult run = Fixture.of(100_000, 5_000, 0.02, 1).parameters(new LinkedHashMap<>(Map.of("files", "10", "source", "")))
                .run();
        String table = run.table();
        assertThat(table.lines().findFirst().orElseThrow()).startsWith("bench files=10  [threads").doesNotContain("source");
        // 100 ops × 4 KiB per rank per second, two ranks: 0.78 MiB/s
        assertThat(table).contains("MiB/s").containsPattern("create .* 0\\.8\n");
    }

    @Test
    void results_readBackWhatWasWritten(@TempDir Path dir) throws IOException {
        RunResult original = run(100_000, 5_000, 0.02, 1);
        original.writeJson(dir.resolve("01-bench-t2.json"));
        RunResult back = Results.load(dir).get(0);
        assertThat(back.measurement("create").count()).isEqualTo(original.measurement("create").count());
        assertThat(back.measurement("create").p99Nanos()).isEqualTo(original.measurement("create").p99Nanos());
        assertThat(back.repetitions()).hasSize(3);
        assertThat(Comparison.of(List.of(original), List.of(back), 10).hasRegression()).isFalse();
        // identical but for the confidence bounds, which are recomputed from the stddev the document rounds to 0.001 ns
        assertThat(withoutCi(back.toJson())).isEqualTo(withoutCi(original.toJson()));
        assertThat(back.measurement("create").ci95LowNanos())
                .isCloseTo(original.measurement("create").ci95LowNanos(), org.assertj.core.api.Assertions.within(0.01));
        assertThatThrownBy(() -> Results.load(dir.resolve("nothing"))).hasMessageContaining("holds no prism.run/1");
    }
}
