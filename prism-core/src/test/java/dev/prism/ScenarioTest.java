package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioTest {
    @TempDir
    Path target;

    private Scenario.Builder scenario(Benchmark benchmark) {
        return Scenario.builder().target(target).benchmark(benchmark).runId("test");
    }

    private static Benchmark touch(int files) {
        return Benchmark.builder("touch").run(ctx -> {
            for (int i = 0; i < files; i++) {
                Path f = ctx.workDirectory().resolve("f" + i);
                try (var t = ctx.time("create", f)) {
                    Files.write(f, new byte[16]);
                }
                ctx.addBytes("create", 16);
            }
        }).build();
    }

    /** touch(1) with a footprint: what it would write and hold, or, with a reason, a refusal at every task count */
    private static Benchmark withFootprint(long targetBytes, long memoryBytes, String refusal) {
        Benchmark inner = touch(1);
        return new Benchmark() {
            public String name() {
                return "big";
            }

            public String description() {
                return "a benchmark that says what it needs";
            }

            public Parameters parameters() {
                return inner.parameters();
            }

            public Workload newWorkload() {
                return inner.newWorkload();
            }

            @Override
            public java.util.Optional<Footprint> footprint(int tasks) {
                if (refusal != null) {
                    throw new IllegalArgumentException(refusal);
                }
                return java.util.Optional.of(new Footprint(targetBytes, memoryBytes, "its own figures"));
            }
        };
    }

    @Test
    void aFootprintThatTheTargetOrTheNodeCannotHold_isRefusedBeforeAnythingIsWritten() throws IOException {
        long free = Files.getFileStore(target).getUsableSpace();
        assertThatThrownBy(() -> scenario(withFootprint(free + (1L << 40), 0, null)).build().execute())
                .isInstanceOf(TargetException.class)
                .hasMessageContaining("big at 1 task (its own figures) needs ").hasMessageContaining(" on " + target + ", which has ")
                .hasMessageEndingWith("free; nothing was written");
        long memory = HostInfo.availableMemoryBytes();
        assertThatThrownBy(() -> scenario(withFootprint(0, memory + (1L << 40), null)).tasks(2).build().execute())
                .isInstanceOf(TargetException.class)
                .hasMessageContaining("big at 2 tasks (its own figures) needs ").hasMessageContaining(" of memory on this node, which has ")
                .hasMessageEndingWith("available; run fewer tasks per node, or on nodes with more memory; nothing was written");
        assertThatThrownBy(() -> scenario(withFootprint(0, 0, "no such layout")).build().execute())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("big at 1 task: no such layout; nothing was written");
        try (var left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
        // what fits runs as it would without a footprint
        assertThat(scenario(withFootprint(1024, 1024, null)).build().execute().passed()).isTrue();
    }

    @Test
    void execute_runsEveryRankAndMergesTheirMeasurements() {
        ScenarioResult result = scenario(touch(25)).tasks(1, 3).repetitions(2).warmups(1).build().execute();

        assertThat(result.passed()).isTrue();
        assertThat(result.runs()).extracting(RunResult::tasks).containsExactly(1, 3);
        RunResult three = result.runs().get(1);
        assertThat(three.repetitions()).hasSize(2);
        assertThat(three.repetitions().get(0).ranks()).extracting(RankResult::rank).containsExactly(0, 1, 2);
        assertThat(three.measurement("create").count()).isEqualTo(25 * 3 * 2);
        assertThat(three.measurement("create").bytes()).isEqualTo(16L * 25 * 3 * 2);
        assertThat(three.rankSpread().ranks()).isEqualTo(6);
        assertThat(three.target().filesystemType()).isNotBlank();
        assertThat(three.host().cpus()).isPositive();
        assertThat(target.resolve("prism-test")).doesNotExist();
        assertThat(result.table()).contains("touch").contains("create");
    }

    @Test
    void ranks_workInTheirOwnDirectoriesUnderTheRunDirectory() {
        List<Path> seen = new CopyOnWriteArrayList<>();
        Benchmark where = Benchmark.builder("where").run(ctx -> {
            seen.add(ctx.workDirectory());
            seen.add(ctx.sharedDirectory());
            assertThat(Files.isDirectory(ctx.workDirectory())).isTrue();
        }).build();
        RunResult run = scenario(where).tasks(2).build().execute().runs().get(0);
        // the workload's own assertion fails its rank, not the test: it reaches JUnit through the run's verdict
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(seen).contains(target.resolve("prism-test/rank-0"), target.resolve("prism-test/rank-1"),
                target.resolve("prism-test/shared"));
    }

    @Test
    void seededRandom_isTheSameEveryRunAndDiffersBetweenRanks() {
        List<Integer> first = new CopyOnWriteArrayList<>();
        List<Integer> second = new CopyOnWriteArrayList<>();
        for (List<Integer> out : List.of(first, second)) {
            Benchmark draw = Benchmark.builder("draw").run(ctx -> {
                if (ctx.rank() == 0) {
                    out.add(ctx.random().nextInt());
                }
            }).build();
            Scenario.builder().target(target).benchmark(draw).seed(7).build().execute();
        }
        assertThat(first).isEqualTo(second);
    }

    @Test
    void exception_failsTheRunAndKeepsWhatWasMeasured() {
        Benchmark failing = Benchmark.builder("failing").run(ctx -> {
            for (int i = 0; i < 10; i++) {
                ctx.measure("step", () -> { });
            }
            if (ctx.rank() == 1) {
                throw new IOException("disk on fire: " + ctx.workDirectory());
            }
            ctx.barrier();
        }).build();
        RunResult run = scenario(failing).tasks(2).build().execute().runs().get(0);

        assertThat(run.status()).isEqualTo(Status.FAIL);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(run.failure().rank()).isEqualTo(1);
        // the user reads what failed, not Java's class names (those come with --verbose)
        assertThat(run.failure().message()).contains("disk on fire: " + target).doesNotContain("java.io");
        // rank 1's ten steps are kept; rank 0 stops before its next step once rank 1 failed
        assertThat(run.measurement("step").count()).isBetween(10L, 20L);
        assertThat(run.repetitions().get(0).ranks().get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
        assertThat(target.resolve("prism-test")).doesNotExist();
    }

    @Test
    void validationFailure_isReportedAsValidation() {
        Benchmark wrong = Benchmark.builder("wrong").workload(() -> new Workload() {
            @Override
            public void run(WorkloadContext ctx) {
            }

            @Override
            public void validate(WorkloadContext ctx) {
                throw new ValidationException("file-0.dat: 0 bytes, expected 4096");
            }
        }).build();
        RunResult run = scenario(wrong).build().execute().runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.VALIDATION);
        assertThat(run.failure().message()).contains("file-0.dat: 0 bytes, expected 4096");
    }

    @Test
    void teardown_runsAfterAFailure() {
        List<Integer> tornDown = new CopyOnWriteArrayList<>();
        Benchmark b = Benchmark.builder("teardown").workload(() -> new Workload() {
            @Override
            public void run(WorkloadContext ctx) {
                throw new IllegalStateException("boom");
            }

            @Override
            public void teardown(WorkloadContext ctx) {
                tornDown.add(ctx.rank());
            }
        }).build();
        scenario(b).tasks(2).build().execute();
        assertThat(tornDown).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void timeout_failsWithinTheDeadlineKeepsMeasurementsAndNamesTheStuckRank() {
        Benchmark hang = Benchmark.builder("hang").run(ctx -> {
            ctx.measure("quick", () -> { });
            if (ctx.rank() == 1) {
                try (var t = ctx.time("sleep", ctx.workDirectory().resolve("never"))) {
                    Thread.sleep(60_000); // on purpose: an operation that outlives the timeout
                }
            }
        }).build();
        long start = System.nanoTime();
        RunResult run = scenario(hang).tasks(2).timeout(Duration.ofMillis(500))
                .stallThreshold(Duration.ofMillis(100)).build().execute().runs().get(0);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(elapsedMillis).isLessThan(10_000);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(run.failure().rank()).isEqualTo(1);
        assertThat(run.measurement("quick").count()).isEqualTo(2);
        assertThat(run.stalls()).anySatisfy(s -> {
            assertThat(s.operation()).isEqualTo("sleep");
            assertThat(s.path()).endsWith("never");
            assertThat(s.durationNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        });
    }

    @Test
    void rankThatNeverReachesTheBarrier_failsTheOthersWithinTheTimeoutNamingIt() {
        Benchmark late = Benchmark.builder("late").run(ctx -> {
            if (ctx.rank() == 2) {
                Thread.sleep(60_000); // on purpose: a rank that never reaches the barrier in time
            }
            ctx.barrier();
        }).build();
        RunResult run = scenario(late).tasks(3).timeout(Duration.ofMillis(400)).build().execute().runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        assertThat(ranks.get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
        assertThat(ranks.get(0).failure().message()).contains("rank(s) [2] never arrived");
        assertThat(ranks.get(2).failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(run.failure().rank()).isEqualTo(2);
    }

    @Test
    void stall_isReportedWhileTheOperationIsStillRunning() {
        CountDownLatch reported = new CountDownLatch(1);
        List<Stall> heard = new CopyOnWriteArrayList<>();
        Benchmark slow = Benchmark.builder("slow").run(ctx -> {
            try (var t = ctx.time("open", ctx.workDirectory().resolve("ckpt.bin"))) {
                // the operation only ends once the monitor has reported it: proof it was seen while running
                assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }).build();
        RunResult run = scenario(slow).stallThreshold(Duration.ofMillis(50)).listener(new ScenarioListener() {
            @Override
            public void stallDetected(Stall stall) {
                heard.add(stall);
                reported.countDown();
            }
        }).build().execute().runs().get(0);

        assertThat(run.passed()).isTrue();
        assertThat(heard).first().satisfies(s -> {
            assertThat(s.finished()).isFalse();
            assertThat(s.path()).endsWith("ckpt.bin");
        });
        assertThat(run.stalls()).singleElement().satisfies(s -> assertThat(s.finished()).isTrue());
    }

    @Test
    void recordedLatenciesAndCounters_areKept_countersSummedOverRanksPerRepetition() {
        Benchmark b = Benchmark.builder("counting").run(ctx -> {
            ctx.record("response", 5_000_000L * (ctx.rank() + 1));
            ctx.addCounter("resident_bytes", 100);
            ctx.addCounter("resident_bytes", 1);
            ctx.note("tool", "venv");
        }).build();
        RunResult run = scenario(b).tasks(3).repetitions(2).build().execute().runs().get(0);
        assertThat(run.measurement("response").count()).isEqualTo(6);
        assertThat(run.measurement("response").maxNanos()).isEqualTo(15_000_000L);
        assertThat(run.counters()).containsEntry("resident_bytes", 101L * 3);
        assertThat(run.repetitions()).allSatisfy(rep -> assertThat(rep.counters()).containsEntry("resident_bytes", 303L));
        assertThat(run.table()).contains("resident_bytes=303").contains("tool=\"venv\"");
        assertThat(run.notes()).containsEntry("tool", "venv");
        assertThat(run.toJson()).contains("\"resident_bytes\" : 303").doesNotContain("\"resident_bytes\" : 606");
    }

    @Test
    void timingTheSameOperationTwiceAtOnce_isAnError() {
        Benchmark nested = Benchmark.builder("nested").run(ctx -> {
            try (var a = ctx.time("op"); var b = ctx.time("op")) {
                // unreachable
            }
        }).build();
        RunResult run = scenario(nested).build().execute().runs().get(0);
        assertThat(run.failure().message()).contains("time(\"op\") is already running");
    }

    @Test
    void target_rootMissingFileAndUnwritable_areRefusedWithAClearMessage() throws IOException {
        Benchmark b = touch(1);
        assertThatThrownBy(() -> Scenario.builder().target(Path.of("/")).benchmark(b).build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("root directory");
        assertThatThrownBy(() -> scenario(b).target(target.resolve("missing")).build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("does not exist");
        Path file = Files.createFile(target.resolve("file"));
        assertThatThrownBy(() -> scenario(b).target(file).build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("not a directory");
        // the kernel's own filesystems are refused by type, before anything is written: /dev (devtmpfs) took root's
        // test files before (issue 38)
        assertThatThrownBy(() -> scenario(b).target(Path.of("/proc")).build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("target /proc is on proc, a filesystem of the kernel's own");
        assertThatThrownBy(() -> scenario(b).target(Path.of("/sys")).build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("a filesystem of the kernel's own");
    }

    @Test
    void target_devtmpfs_isRefusedBeforeAnythingIsWritten() {
        dev.prism.testing.Required.require(TargetInfo.of(Path.of("/dev")).filesystemType().equals("devtmpfs"),
                "PRISM_REQUIRE_DEVTMPFS", "/dev is not a devtmpfs here (a container's may be a tmpfs)");
        assertThatThrownBy(() -> scenario(touch(1)).target(Path.of("/dev")).runId("devtest").build().execute())
                .isInstanceOf(TargetException.class).hasMessageContaining("target /dev is on devtmpfs");
        assertThat(Path.of("/dev/prism-devtest")).doesNotExist();
    }

    @Test
    void cleanup_removesLinksButNeverWhatTheyPointTo(@TempDir Path outside) throws IOException {
        Path precious = Files.writeString(outside.resolve("precious.txt"), "keep me");
        Benchmark linker = Benchmark.builder("linker").run(ctx -> {
            Files.createSymbolicLink(ctx.workDirectory().resolve("link-to-dir"), outside);
            Files.createSymbolicLink(ctx.workDirectory().resolve("link-to-file"), precious);
        }).build();
        scenario(linker).build().execute();
        assertThat(precious).hasContent("keep me");
        assertThat(target.resolve("prism-test")).doesNotExist();
    }

    /**
     * An output directory below one others may write without the sticky bit: another user could rename the results
     * directory and put a link in its place after PRISM's start, and root wrote every document through it (issue 38).
     * Refused before any work; below a sticky directory (as /tmp) it is safe and accepted.
     */
    @Test
    void output_belowADirectoryOthersMaySwapEntriesIn_isRefusedBeforeAnyWork(@TempDir Path shared) throws Exception {
        Path open = Files.createDirectory(shared.resolve("open"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> scenario(touch(1)).output(open.resolve("results")).build().execute())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("output directory " + open.resolve("results") + " is refused: " + open + " on its path may be"
                        + " written by others (mode rwxrwxrwx, not sticky), who could swap what PRISM writes there for a link;"
                        + " choose a directory only you can change, or make that one sticky (chmod +t " + open + ")");
        assertThat(target.resolve("prism-test")).doesNotExist();
        Process sticky = new ProcessBuilder("chmod", "1777", open.toString()).inheritIO().start();
        assertThat(sticky.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && sticky.exitValue() == 0).isTrue();
        assertThat(scenario(touch(1)).output(open.resolve("results")).build().execute().passed()).isTrue();
    }

    @Test
    void output_receivesOneDocumentPerRunAsItFinishes(@TempDir Path out) throws IOException {
        scenario(touch(3)).tasks(1, 2).output(out).build().execute();
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("01-touch-t1", "01-touch-t1.json", "02-touch-t2", "02-touch-t2.json");
        }
        assertThat(Files.readString(out.resolve("02-touch-t2.json"))).contains("\"schema\" : \"prism.run/1\"");
        // each rank writes its own document too, even ranks that are threads
        assertThat(Files.readString(out.resolve("02-touch-t2/rep-0/rank-1.json"))).contains("\"schema\" : \"prism.rank/1\"");
    }

    @Test
    void builder_needsTargetAndBenchmark() {
        assertThatThrownBy(() -> Scenario.builder().benchmark(touch(1)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("target");
        assertThatThrownBy(() -> Scenario.builder().target(target).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("benchmark");
        assertThatThrownBy(() -> Scenario.builder().runId("../escape"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
    }
}
