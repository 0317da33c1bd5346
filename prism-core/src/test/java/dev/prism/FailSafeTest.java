package dev.prism;

import dev.prism.internal.RunDirectory;
import dev.prism.testing.FaultFs;
import dev.prism.testing.ScenarioInChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What PRISM does when things go wrong on shared storage: links planted during clean-up, clean-up
 * errors, storage that hangs past the deadline, interruptions, a dead parent, a dead rank. Real
 * processes, real signals (SIGKILL) and faultfs, a FUSE filesystem that delays and fails by rule.
 */
class FailSafeTest {
    @TempDir
    Path dir;

    private static Benchmark sleep(Map<String, String> values) {
        return Benchmarks.create("test_sleep", values);
    }

    @Test
    void cleanUp_ofADirectorySwappedForALinkWhileItRuns_neverTouchesWhatTheLinkPointsTo() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            Path run = fs.mountPoint().resolve("prism-swap");
            Path rank1 = Files.createDirectories(run.resolve("rank-1"));
            for (int i = 0; i < 300; i++) {
                Files.writeString(rank1.resolve("file-" + i), "x");
                Files.writeString(outside.resolve("file-" + i), "precious");
            }
            fs.rule("unlink", "/prism-swap/rank-1/*", Duration.ofMillis(5), null);
            RunDirectory.Removal removal = RunDirectory.removalOf(run);
            Thread remover = new Thread(() -> RunDirectory.remove(run, removal));
            remover.start();
            while (count(fs.source().resolve("prism-swap/rank-1")) > 280) {
                Thread.sleep(5);
            }
            // mid-walk, rank-1 becomes a link to a directory holding files of the very same names
            Files.move(rank1, fs.mountPoint().resolve("moved-rank-1"));
            Files.createSymbolicLink(rank1, outside);
            remover.join(60_000);

            assertThat(count(outside)).isEqualTo(300);
            assertThat(Files.readString(outside.resolve("file-299"))).isEqualTo("precious");
            assertThat(run).doesNotExist(); // the planted link went, as a link
            assertThat(removal.complete()).as(removal.summary()).isTrue();
        }
    }

    @Test
    void aCleanUpError_neverHidesTheResult_andEveryOtherEntryIsStillRemoved() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("unlink", "/prism-eio/rank-0/file-3", Duration.ZERO, "EIO");
            Benchmark writer = Benchmark.builder("writer").run(ctx -> {
                for (int i = 0; i < 10; i++) {
                    Path file = ctx.workDirectory().resolve("file-" + i);
                    ctx.measure("write", file, () -> Files.writeString(file, "x"));
                }
            }).build();
            ScenarioResult result = Scenario.builder().target(fs.mountPoint()).benchmark(writer).tasks(2)
                    .runId("eio").build().execute();

            assertThat(result.passed()).isTrue();
            assertThat(result.runs().get(0).measurement("write").count()).isEqualTo(20);
            assertThat(result.cleanedUp()).isFalse();
            // the failed unlink, then the two directories above it that could not go
            assertThat(result.cleanup()).startsWith("3 entries could not be removed from " + fs.mountPoint().resolve("prism-eio"))
                    .contains("unlinkat(\"" + fs.mountPoint().resolve("prism-eio/rank-0/file-3") + "\"): Input/output error (EIO)");
            try (Stream<Path> left = Files.walk(fs.source())) {
                assertThat(left.map(p -> fs.source().relativize(p).toString()))
                        .containsExactlyInAnyOrder("", "prism-eio", "prism-eio/rank-0", "prism-eio/rank-0/file-3");
            }
        }
    }

    @Test
    void storageThatHangsPastTheDeadline_givesTimeoutWithTheStall_andCleanUpIsBoundedByItsGrace() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("open", "/prism-*/rank-1/slow.dat", Duration.ofSeconds(40), null);
            fs.rule("unlink", "/prism-*/rank-0/*", Duration.ofSeconds(40), null);
            for (Launcher launcher : List.of(Launcher.threads(), Launcher.processes())) {
                long start = System.nanoTime();
                ScenarioResult result = Scenario.builder().target(fs.mountPoint())
                        .benchmark(sleep(Map.of("slow_rank", "1", "open_slow_file", "true"))).tasks(2)
                        .timeout(Duration.ofSeconds(4)).stallThreshold(Duration.ofMillis(500))
                        .cleanupGrace(Duration.ofSeconds(1)).launcher(launcher).build().execute();
                double seconds = (System.nanoTime() - start) / 1e9;

                RunResult run = result.runs().get(0);
                assertThat(seconds).as(launcher.name()).isLessThan(4 + 4 + 1 + 4);
                assertThat(run.failure().kind()).as(launcher.name()).isEqualTo(Failure.Kind.TIMEOUT);
                assertThat(run.failure().rank()).isEqualTo(1);
                // what was measured, and the open that never returned as an unfinished stall
                assertThat(run.measurement("step").count()).isEqualTo(20);
                assertThat(run.stalls()).as(launcher.name()).anySatisfy(s -> {
                    assertThat(s.operation()).isEqualTo("open");
                    assertThat(s.path()).endsWith("rank-1/slow.dat");
                });
                assertThat(result.cleanup()).as(launcher.name()).contains("did not finish within 1s");
            }
        }
    }

    @Test
    void afterAnInterruption_cleanUpEndsByTheInterruptionPlusItsGrace_asSlurmsKillWaitCountsFromTheSignal() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("open", "/prism-*/rank-1/slow.dat", Duration.ofSeconds(6), null);
            fs.rule("unlink", "/prism-*/rank-0/*", Duration.ofSeconds(6), null);
            Interruption stop = Interruption.create();
            CompletableFuture<ScenarioResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder()
                    .target(fs.mountPoint()).benchmark(sleep(Map.of("slow_rank", "1", "open_slow_file", "true"))).tasks(2)
                    .timeout(Duration.ofSeconds(60)).cleanupGrace(Duration.ofSeconds(4)).interruption(stop).build().execute());
            // rank 1 hangs in its open (6 s, past the launcher's 2 s grace after the stop); rank 0's unlinks hang past the 4 s
            while (!hasSlowFile(fs.source())) {
                Thread.sleep(20);
            }
            Thread.sleep(300);
            long interrupted = System.nanoTime();
            stop.interrupt("SIGTERM");
            ScenarioResult result = running.get(60, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - interrupted) / 1e9;

            // 4 s from the signal, not 4 s from the start of a clean-up that waited for the hung rank first (2 s more)
            assertThat(seconds).isBetween(3.9, 5.5);
            assertThat(result.cleanup()).contains("did not finish within 4s of the interruption");
            assertThat(result.runs().get(0).failure().kind()).isEqualTo(Failure.Kind.INTERRUPTED);
        }
    }

    private static boolean hasSlowFile(Path source) throws IOException {
        try (Stream<Path> walk = Files.walk(source)) {
            return walk.anyMatch(p -> p.getFileName().toString().equals("slow.dat"));
        } catch (java.io.UncheckedIOException e) {
            return false; // the tree changed while walked
        }
    }

    @Test
    void anInterruption_stopsEveryRankAtOnce_keepsWhatWasMeasured_andCleansUp() throws Exception {
        for (Launcher launcher : List.of(Launcher.threads(), Launcher.processes())) {
            Interruption stop = Interruption.create();
            CompletableFuture<ScenarioResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder()
                    .target(dir).benchmark(sleep(Map.of("loop_ms", "120000"))).tasks(3).repetitions(3)
                    .interruption(stop).launcher(launcher).build().execute());
            awaitTicks(dir);
            Thread.sleep(1_000);
            long interrupted = System.nanoTime();
            stop.interrupt("SIGTERM");
            ScenarioResult result = running.get(60, TimeUnit.SECONDS);

            assertThat((System.nanoTime() - interrupted) / 1e9).as(launcher.name()).isLessThan(5);
            assertThat(result.interruption()).isEqualTo("SIGTERM");
            RunResult run = result.runs().get(0);
            assertThat(run.failure().kind()).isEqualTo(Failure.Kind.INTERRUPTED);
            assertThat(run.failure().message()).contains("interrupted by SIGTERM during repetition 1");
            assertThat(run.repetitions()).hasSize(1);
            assertThat(run.measurement("tick").count()).as(launcher.name()).isGreaterThan(3 * 50);
            assertThat(run.measurement("tick").errors()).isZero();
            assertThat(result.cleanedUp()).isTrue();
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left).isEmpty();
            }
        }
    }

    @Test
    void aRankKilledMidPhase_stopsTheOthersAtOnce_andTheRunFailsNamingItWithin5s() throws Exception {
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder().target(dir)
                .benchmark(sleep(Map.of("loop_ms", "120000"))).tasks(3).timeout(Duration.ofSeconds(100))
                .launcher(Launcher.processes()).build().execute().runs().get(0));
        awaitTicks(dir);
        ProcessHandle rank1 = dev.prism.testing.RankProcesses.find(ProcessHandle.current(), 1);
        rank1.destroyForcibly();
        long killed = System.nanoTime();
        RunResult run = running.get(60, TimeUnit.SECONDS);

        assertThat((System.nanoTime() - killed) / 1e9).isLessThan(5);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(run.failure().message()).contains("rank 1's process died with exit code 137 (signal 9)");
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        assertThat(ranks.get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
        assertThat(ranks.get(0).measurements().get("tick").count()).isPositive();
        Thread.sleep(500);
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void aRankThatDiesAtStartUp_isNamedWithItsExitCodeAndStderr_notAsATimeoutOfAnother() {
        System.setProperty("prism.fault.exitAtStart", "2");
        try {
            long start = System.nanoTime();
            RunResult run = Scenario.builder().target(dir).benchmark(sleep(Map.of())).tasks(3)
                    .timeout(Duration.ofSeconds(60)).launcher(Launcher.processes()).build().execute().runs().get(0);
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(30);
            assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
            assertThat(run.failure().rank()).isEqualTo(2);
            assertThat(run.failure().message()).contains("rank 2's process died at start-up, before it reached the"
                    + " coordinator, with exit code 7").contains("exits at start-up as told");
            assertThat(run.repetitions().get(0).ranks().get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
        } finally {
            System.clearProperty("prism.fault.exitAtStart");
        }
    }

    @Test
    void whenTheParentIsKilled_itsRanksStopWithin2sAndRemoveTheirDirectories() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process parent = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ScenarioInChild.class.getName(), dir.toString(), "2", "120000")
                .redirectErrorStream(true).redirectOutput(dir.resolveSibling(dir.getFileName() + "-parent.log").toFile()).start();
        try {
            awaitTicks(dir);
            List<ProcessHandle> ranks = new ArrayList<>(List.of(dev.prism.testing.RankProcesses.find(parent.toHandle(), 0),
                    dev.prism.testing.RankProcesses.find(parent.toHandle(), 1)));
            Thread.sleep(1_000);
            parent.toHandle().destroyForcibly();
            long killed = System.nanoTime();
            while (ranks.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() - killed < 20e9) {
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - killed) / 1e9;
            assertThat(ranks).noneMatch(ProcessHandle::isAlive);
            assertThat(seconds).isLessThan(2 + 1.5); // noticed within 2 s, then teardown and exit
            try (Stream<Path> rankDirectories = Files.walk(dir, 2)) {
                assertThat(rankDirectories.filter(p -> p.getFileName().toString().startsWith("rank-"))).isEmpty();
            }
        } finally {
            parent.destroyForcibly();
            ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(dir.toString()))
                    .forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Waits until some rank's 'tick' loop has begun: a rank directory exists under a run directory and a second passed. */
    private static void awaitTicks(Path target) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            try (Stream<Path> walk = Files.walk(target, 2)) {
                if (walk.anyMatch(p -> p.getFileName().toString().equals("rank-0"))) {
                    Thread.sleep(2_500); // past the rehearsal, the JIT wait and the first barrier
                    return;
                }
            } catch (IOException e) {
                // the tree changes while walked: look again
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no rank directory appeared under " + target);
    }

    private static long count(Path directory) throws IOException {
        try (Stream<Path> s = Files.list(directory)) {
            return s.count();
        }
    }
}
