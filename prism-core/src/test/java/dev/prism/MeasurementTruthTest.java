package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What PRISM records is what the operation did, and only that. */
class MeasurementTruthTest {
    @TempDir
    Path target;

    private Scenario.Builder scenario(Benchmark benchmark) {
        return Scenario.builder().target(target).benchmark(benchmark).runId("truth");
    }

    @Test
    void anOperationThatThrows_isAnErrorOfThatOperation_neverALatencySample() {
        Benchmark b = Benchmark.builder("flaky").run(ctx -> {
            for (int i = 0; i < 10; i++) {
                int n = i;
                try {
                    ctx.measure("open", ctx.workDirectory(), () -> {
                        if (n % 5 == 0) {
                            Thread.sleep(30); // a slow failure must not show as a slow sample
                            throw new IOException("injected");
                        }
                    });
                } catch (IOException expected) {
                    // the workload goes on, as a loader that skips a bad file does
                }
            }
            var timer = ctx.time("close");
            timer.fail();
            timer.close();
            String value = ctx.call("stat", null, () -> "ok");
            assertThat(value).isEqualTo("ok");
        }).build();
        RunResult run = scenario(b).repetitions(2).build().execute().runs().get(0);
        // the workload's own assertion on call's value fails its rank, not the test: it reaches JUnit through the verdict
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        Measurement open = run.measurement("open");
        assertThat(open.count()).isEqualTo(16);
        assertThat(open.errors()).isEqualTo(4);
        assertThat(open.maxNanos()).isLessThan(Duration.ofMillis(30).toNanos());
        assertThat(run.measurement("close").count()).isZero();
        assertThat(run.measurement("close").errors()).isEqualTo(2);
        assertThat(run.table()).contains("errors").containsPattern("open\\s+16\\s+4\\s");
        assertThat(run.toJson()).contains("\"errors\" : 4");
    }

    @Test
    void anExceptionLeavingCall_goesOnUnchanged() {
        Benchmark b = Benchmark.builder("throws").run(ctx -> ctx.call("op", null, () -> {
            throw new IllegalStateException("boom");
        })).build();
        RunResult run = scenario(b).build().execute().runs().get(0);
        assertThat(run.passed()).isFalse();
        assertThat(run.failure().message()).contains("boom");
        assertThat(run.measurement("op").errors()).isEqualTo(1);
        assertThat(run.measurement("op").count()).isZero();
    }

    @Test
    void rehearsal_runsBeforeTheClockInEveryRank_andNothingItRecordsIsKept() {
        AtomicLong rehearsals = new AtomicLong();
        Benchmark b = Benchmark.builder("rehearsed").workload(() -> new Workload() {
            @Override
            public void rehearse(WorkloadContext ctx) throws Exception {
                rehearsals.incrementAndGet();
                for (int i = 0; i < 100; i++) {
                    ctx.measure("op", () -> Thread.sleep(0)); // an operation that takes (almost) no time
                    ctx.addBytes("op", 10);
                }
                ctx.measure("op", () -> Thread.sleep(60)); // over the stall threshold, but not a stall
                ctx.addCounter("files", 1_000);
                ctx.note("tool", "rehearsal");
                assertThatThrownBy(ctx::barrier).isInstanceOf(IllegalStateException.class);
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                ctx.measure("op", () -> Thread.sleep(1)); // the injected 1 ms the minimum is checked against
                ctx.addBytes("op", 1);
                ctx.addCounter("files", 1);
            }
        }).build();
        RunResult run = scenario(b).tasks(2).repetitions(2).warmups(1).stallThreshold(Duration.ofMillis(50))
                .build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(rehearsals).hasValue(2 * 3);
        assertThat(run.measurement("op").count()).isEqualTo(4);
        assertThat(run.measurement("op").bytes()).isEqualTo(4);
        assertThat(run.measurement("op").minNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(1).toNanos());
        assertThat(run.measurements()).doesNotContainKey("prism.timer-warm-up").doesNotContainKey("prism.timer-warm-up-nested");
        assertThat(run.counters()).containsEntry("files", 2L);
        assertThat(run.notes()).isEmpty();
        assertThat(run.stalls()).isEmpty();
    }

    /**
     * The measured slots of a rehearsal's operations are made before the clock (so the JIT's code for a timing never
     * meets a missing one after it): one the timed phase never times is not reported, the others keep the order the
     * timed phase timed them in, and a rehearsal that waits for the compiler half-way still runs every step.
     */
    @Test
    void rehearsedOperationsTheTimedPhaseNeverTimes_areNotReported_andTheOthersKeepTheirOrder() {
        AtomicLong steps = new AtomicLong();
        Benchmark b = Benchmark.builder("prepared").workload(() -> new Workload() {
            @Override
            public void rehearse(WorkloadContext ctx) throws Exception {
                for (int i = 0; i < 200; i++) {
                    if (i == 100) {
                        ctx.awaitCompiler();
                    }
                    ctx.measure("create", () -> ctx.measure("open", () -> { }));
                    ctx.measure("unlink", () -> { });
                    ctx.addBytes("scratch", 10);
                    steps.incrementAndGet();
                }
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                ctx.awaitCompiler(); // outside a rehearsal: returns at once, times nothing
                if (ctx.awaitCompilerRound()) {
                    throw new AssertionError("awaitCompilerRound said true outside a rehearsal");
                }
                for (int i = 0; i < 3; i++) {
                    ctx.measure("create", () -> ctx.measure("open", () -> { }));
                }
                ctx.measure("close", () -> { });
            }
        }).build();
        RunResult run = scenario(b).tasks(2).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(steps).hasValue(2 * 200);
        assertThat(run.measurements().keySet()).containsExactly("create", "open", "close");
        assertThat(run.measurement("create").count()).isEqualTo(6);
        assertThat(run.measurement("open").count()).isEqualTo(6);
        assertThat(run.repetitions().get(0).ranks().get(1).measurements().keySet()).containsExactly("create", "open", "close");
        assertThat(run.counters()).containsEntry("rehearsal_bytes", 2 * 200 * 10L);
    }

    /**
     * A rehearsal steps through the timed loop itself, so keepGoing must count there even in a time-based run: before,
     * it asked the clock, and with no timed phase begun it said "go on" for ever (the test's own cap stopped it at
     * 1,000). In the timed phase it still asks the clock.
     */
    @Test
    void inATimeBasedRun_keepGoingCountsInTheRehearsal_andAsksTheClockInTheTimedPhase() {
        AtomicLong rehearsed = new AtomicLong();
        AtomicLong timed = new AtomicLong();
        Benchmark b = Benchmark.builder("timed_loop").runsByTime().workload(() -> new Workload() {
            @Override
            public void rehearse(WorkloadContext ctx) {
                for (long i = 0; i < 1_000 && ctx.keepGoing(i, 5); i++) {
                    rehearsed.incrementAndGet();
                }
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                for (long i = 0; ctx.keepGoing(i, 5); i++) {
                    ctx.measure("op", () -> Thread.sleep(1)); // the observer: at least 1 ms an operation
                    timed.incrementAndGet();
                }
            }
        }).build();
        RunResult run = scenario(b).pacing(Pacing.of(Duration.ofMillis(200), Duration.ZERO, Duration.ZERO)).build()
                .execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(rehearsed).hasValue(5);
        // 200 ms of operations of at least 1 ms: more than the 5 a count would allow, at most 200
        assertThat(timed.get()).isGreaterThan(5).isLessThanOrEqualTo(200);
    }

    /**
     * A timing of a name in a directory makes no path per call, yet a stall names the file: the directory and the name
     * joined. The observer is the test's own sleep, twice the stall threshold.
     */
    @Test
    void aTimingOfANameInADirectory_isReportedAsAStallOfTheJoinedPath() {
        java.util.concurrent.atomic.AtomicReference<Path> work = new java.util.concurrent.atomic.AtomicReference<>();
        Benchmark b = Benchmark.builder("named").run(ctx -> {
            work.set(ctx.workDirectory());
            try (var t = ctx.time("stat", ctx.workDirectory(), "file-7.dat")) {
                Thread.sleep(400); // on purpose: the delay under test, past the 200 ms threshold
            }
            ctx.measure("unlink", ctx.workDirectory(), "file-8.dat", () -> Thread.sleep(400)); // on purpose, as above
        }).build();
        RunResult run = scenario(b).stallThreshold(Duration.ofMillis(200)).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.stalls()).extracting(Stall::operation).containsExactly("stat", "unlink");
        assertThat(run.stalls()).extracting(Stall::path).containsExactly(work.get().resolve("file-7.dat").toString(),
                work.get().resolve("file-8.dat").toString());
    }

    @Test
    void rankSpread_countsOnlyRanksThatTimedWork_andNamesTheRepetition() {
        Benchmark b = Benchmark.builder("one_writer").run(ctx -> {
            if (ctx.rank() == 0) {
                ctx.measure("save", () -> Thread.sleep(20)); // the injected 20 ms
            }
        }).build();
        RunResult run = scenario(b).tasks(3).repetitions(2).build().execute().runs().get(0);
        RankSpread spread = run.rankSpread();
        assertThat(spread.ranks()).isEqualTo(2);
        assertThat(spread.fastestRank()).isZero();
        assertThat(spread.slowestRank()).isZero();
        assertThat(spread.minNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
        assertThat(spread.fastestRepetition()).isNotEqualTo(spread.slowestRepetition());
        assertThat(run.repetitions().get(1).rankSpread().ranks()).isEqualTo(1);
        // one rank timed work: no straggler to name
        assertThat(run.table()).doesNotContain("fastest rank");
    }

    @Test
    void theStragglerLine_namesEachRepetitionsSlowestRank_againstAnInjectedDelay() {
        // 150 ms against 30 ms of sleep: rank 1 stays the slowest unless the scheduler holds rank 0 back 120 ms
        Benchmark b = Benchmark.builder("straggler").run(ctx -> {
            ctx.measure("work", () -> Thread.sleep(ctx.rank() == 1 ? 150 : 30)); // the injected delays
        }).build();
        RunResult run = scenario(b).tasks(2).repetitions(2).build().execute().runs().get(0);
        String table = run.table();
        for (int rep = 1; rep <= 2; rep++) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("tasks 2 rep " + rep
                    + ": rank phase mean .*, fastest rank 0 .*, slowest rank 1 .* \\(([0-9.]+)x the fastest\\)").matcher(table);
            assertThat(m.find()).as(table).isTrue();
            RepetitionResult r = run.repetitions().get(rep - 1);
            long fast = r.ranks().stream().filter(k -> k.rank() == 0).findFirst().orElseThrow().phaseNanos();
            long slow = r.ranks().stream().filter(k -> k.rank() == 1).findFirst().orElseThrow().phaseNanos();
            // each phase holds at least its sleep; the scheduler may lengthen either, so the ratio is bounded by
            // the phases themselves and printed as theirs, not as a fixed 5x
            assertThat(fast).isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());
            assertThat(slow).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
            assertThat(Double.parseDouble(m.group(1)))
                    .isCloseTo((double) slow / fast, org.assertj.core.data.Offset.offset(0.006))
                    .isLessThanOrEqualTo(slow / (double) Duration.ofMillis(30).toNanos() + 0.005)
                    .isGreaterThan(1.0);
        }
    }

    @Test
    void anOperationsOwnElapsedTime_setsItsRate() {
        Benchmark b = Benchmark.builder("external").run(ctx -> {
            for (int i = 0; i < 1000; i++) {
                ctx.record("read", 1_000);
            }
            ctx.elapsed("read", Duration.ofMillis(100).toNanos()); // as fio says it ran
            Thread.sleep(300); // on purpose: the phase lasts longer than the 100 ms, and the rate must follow fio's
        }).build();
        RunResult run = scenario(b).build().execute().runs().get(0);
        assertThat(run.measurement("read").opsPerSecond()).isCloseTo(10_000, org.assertj.core.data.Offset.offset(1e-6));
    }
}
