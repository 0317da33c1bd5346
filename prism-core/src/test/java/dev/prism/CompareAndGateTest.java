package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompareAndGateTest {
    /** A run of "bench" with ops "create" and "stat": 3 repetitions × 2 ranks, each rank's latencies around the given means. */
    static RunResult run(double createMean, double statMean, double noise, long seed) {
        Random random = new Random(seed);
        List<RepetitionResult> reps = new ArrayList<>();
        for (int rep = 0; rep < 3; rep++) {
            List<RankResult> ranks = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                Map<String, Measurement> ms = new LinkedHashMap<>();
                for (String op : List.of("create", "stat")) {
                    LatencyRecorder r = new LatencyRecorder(op);
                    double center = (op.equals("create") ? createMean : statMean) * (1 + noise * random.nextGaussian());
                    for (int i = 0; i < 50; i++) {
                        r.record(Math.round(center * (0.9 + 0.2 * random.nextDouble())));
                    }
                    r.addBytes(4096L * 50);
                    ms.put(op, r.snapshot(1_000_000_000L));
                }
                ranks.add(new RankResult(rank, "h", Status.PASS, null, 1_000_000_000L, ms, Map.of(), List.of()));
            }
            Map<String, Measurement> merged = new LinkedHashMap<>();
            for (String op : List.of("create", "stat")) {
                merged.put(op, Measurement.combineRanks(ranks.stream().map(r -> r.measurements().get(op)).toList()));
            }
            reps.add(new RepetitionResult(rep, Status.PASS, null, merged, ranks, RankSpread.of(ranks, rep)));
        }
        Map<String, Measurement> all = new LinkedHashMap<>();
        for (String op : List.of("create", "stat")) {
            all.put(op, Measurement.combineRepetitions(reps.stream().map(r -> r.measurements().get(op)).toList()));
        }
        List<RankResult> ranks = reps.stream().flatMap(r -> r.ranks().stream()).toList();
        return new RunResult("id", "bench", Map.of("files", "10"), 2, "threads", 0, 1, Duration.ofMinutes(1),
                Duration.ofSeconds(1), Status.PASS, null, all, reps, RankSpread.ofRepetitions(reps), Instant.EPOCH, Instant.EPOCH,
                new TargetInfo("/t", "/", "ext4", "/dev/x", "rw", "rw", 1, 1),
                new HostInfo("h", "k", "Linux", "amd64", 2, 1, "17", "0"));
    }

    private static String withoutCi(String json) {
        return json.replaceAll("\"ci95(Low|High)Nanos\" : [0-9.eE+-]+", "");
    }

    @Test
    void identicalInputs_haveNoRegression() {
        RunResult a = run(100_000, 5_000, 0.02, 1);
        Comparison c = Comparison.of(List.of(a), List.of(a), 10);
        assertThat(c.rows()).hasSize(2);
        assertThat(c.hasRegression()).isFalse();
        assertThat(c.rows()).allSatisfy(r -> assertThat(r.ratio()).isEqualTo(1.0));
    }

    @Test
    void twiceAsSlowOnOneOperation_isFlaggedOnThatOperationOnly() {
        Comparison c = Comparison.of(List.of(run(100_000, 5_000, 0.02, 1)), List.of(run(200_000, 5_000, 0.02, 2)), 10);
        assertThat(c.regressions()).extracting(Comparison.Row::operation).containsExactly("create");
        Comparison.Row create = c.rows().get(0);
        assertThat(create.ratio()).isBetween(1.8, 2.2);
        assertThat(create.pValue()).isLessThan(0.001);
        assertThat(create.differenceLowNanos()).isGreaterThan(50_000);
        assertThat(c.table(false)).contains("REGRESSION").contains("1 regression(s)");
        assertThat(c.table(true)).startsWith("| benchmark | tasks | op |").contains("| REGRESSION |");
    }

    @Test
    void aNoisyButInsignificantDifference_isNotFlagged() {
        // 20% slower on average, but the spread between ranks and repetitions is larger than that
        Comparison c = Comparison.of(List.of(run(100_000, 5_000, 0.6, 3)), List.of(run(120_000, 5_000, 0.6, 4)), 10);
        Comparison.Row create = c.rows().get(0);
        assertThat(create.significant()).isFalse();
        assertThat(create.regression()).isFalse();
    }

    @Test
    void gate_absoluteExpectationsPassAndFailWhereTheyShould() {
        List<RunResult> runs = List.of(run(100_000, 5_000, 0.02, 1));
        assertThat(Gate.of(Gate.expect("bench").op("create").p99().below(Duration.ofMillis(1))).evaluate(runs).passed()).isTrue();
        assertThat(Gate.of(Gate.expect("bench").op("create").mean().below(Duration.ofMillis(1))).evaluate(runs).passed()).isTrue();
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
    void gate_relativeToABaseline() {
        List<RunResult> before = List.of(run(100_000, 5_000, 0.02, 1));
        Gate gate = Gate.of(Gate.expect("bench").op("create").mean().notSlowerThanBaselineBy(10));
        assertThat(gate.evaluate(List.of(run(102_000, 5_000, 0.02, 5)), before).passed()).isTrue();
        Gate.Verdict worse = gate.evaluate(List.of(run(200_000, 5_000, 0.02, 6)), before);
        assertThat(worse.passed()).isFalse();
        assertThat(worse.failures().get(0).message()).contains("slower by more than 10.0%");
        assertThat(gate.evaluate(List.of(run(100_000, 5_000, 0.02, 6))).failures().get(0).message()).contains("needs a baseline");
    }

    @Test
    void gate_fromJson_andItsErrorsNameTheExpectation(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("gate.json"), """
                {"expectations": [
                  {"benchmark": "bench", "op": "create", "stat": "p99", "below": "1ms"},
                  {"benchmark": "bench", "tasks": 2, "op": "create", "stat": "bytes/s", "above": 1000},
                  {"benchmark": "bench", "op": "stat", "stat": "mean", "notSlowerThanBaselineBy": 10}
                ]}""");
        Gate gate = Gate.fromJson(file);
        assertThat(gate.expectations()).hasSize(3);
        List<RunResult> runs = List.of(run(100_000, 5_000, 0.02, 1));
        assertThat(gate.evaluate(runs, runs).passed()).isTrue();
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"p98\", \"below\": \"1ms\"}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("expectation 0").hasMessageContaining("'p98'");
        Files.writeString(file, "{\"expectations\": [{\"benchmark\": \"b\", \"op\": \"x\", \"stat\": \"bytes/s\", \"below\": \"1ms\"}]}");
        assertThatThrownBy(() -> Gate.fromJson(file)).hasMessageContaining("is a rate: use above");
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
