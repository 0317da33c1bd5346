package dev.prism;

import dev.prism.internal.files.RunDirectory;
import dev.prism.testing.Await;
import dev.prism.testing.FaultFs;
import dev.prism.testing.HostDelay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What PRISM does when things go wrong on shared storage: links planted during clean-up, clean-up errors, and the
 * threads launcher's cells of the fault matrix (storage that hangs past the deadline, interruptions); the processes
 * launcher's matrix of faults × phases is {@link FaultMatrixTest}. Real processes and faultfs, a FUSE filesystem that
 * delays and fails by rule.
 */
@org.junit.jupiter.api.Tag("timing")
class FailSafeTest {
    /**
     * The wake-ups between an event and the test's seeing its end (a watcher noticing, a thread or process ending, the
     * clean-up, the result reaching the test's thread): a loaded host may delay each by as much as the longest delay
     * {@link dev.prism.testing.SchedulingDelay} saw, which the bounds add to the README's figures.
     */
    @RegisterExtension
    final HostDelay host = new HostDelay(5);

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
            Await.until("the removal has taken 20 of rank-1's 300 files", () -> count(fs.source().resolve("prism-swap/rank-1")) <= 280);
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

    /**
     * An EIO on unlink while the run directory is emptied between repetitions leaves a file; the next repetition's
     * create of it fails with EEXIST. That EEXIST headed the failure before (issue 38); the EIO, the root cause, does now.
     */
    @Test
    void aFailureAfterTheRunDirectoryCouldNotBeEmptied_isHeadedByWhatTheStorageRefused() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("unlink", "/prism-between/rank-0/f3", Duration.ZERO, "EIO");
            ScenarioResult result = Scenario.builder().target(fs.mountPoint()).benchmark(dev.prism.testing.Touch.files(5))
                    .repetitions(2).runId("between").build().execute();
            RunResult run = result.runs().get(0);
            assertThat(run.repetitions().get(0).status()).isEqualTo(Status.PASS);
            assertThat(run.failure().message()).startsWith("repetition 2: the run directory could not be emptied before this"
                    + " repetition (").contains("unlinkat(\"" + fs.mountPoint().resolve("prism-between/rank-0/f3")
                    + "\"): Input/output error (EIO)").contains("); then: ").contains("EEXIST");
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

    /**
     * The threads launcher's cell of "storage hangs in the timed phase" (the processes launcher's is in
     * {@link FaultMatrixTest}): README, a stuck rank thread is given up 2 s after the timeout and 2 s more after its
     * interrupt, then clean-up gets its grace.
     */
    @Test
    void storageThatHangsPastTheDeadline_givesTimeoutWithTheStall_andCleanUpEndsAfterAGraceWithoutProgress() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("open", "/prism-*/rank-1/slow.dat", Duration.ofSeconds(40), null);
            fs.rule("unlink", "/prism-*/rank-0/*", Duration.ofSeconds(40), null);
            Duration timeout = Duration.ofSeconds(4);
            Duration grace = Duration.ofSeconds(1);
            long start = System.nanoTime();
            ScenarioResult result = Scenario.builder().target(fs.mountPoint())
                    .benchmark(sleep(Map.of("slow_rank", "1", "open_slow_file", "true"))).tasks(2)
                    .timeout(timeout).stallThreshold(Duration.ofMillis(500))
                    .cleanupGrace(grace).launcher(Launcher.threads()).build().execute();
            double seconds = (System.nanoTime() - start) / 1e9;

            RunResult run = result.runs().get(0);
            assertThat(seconds).isLessThan(timeout.toSeconds() + 2 + 2 + grace.toSeconds() + host.allowanceSeconds());
            assertThat(run.failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
            assertThat(run.failure().rank()).isEqualTo(1);
            // what was measured, and the open that never returned as an unfinished stall
            assertThat(run.measurement("step").count()).isEqualTo(20);
            assertThat(run.stalls()).anySatisfy(s -> {
                assertThat(s.operation()).isEqualTo("open");
                assertThat(s.path()).endsWith("rank-1/slow.dat");
            });
            // after a timeout too, progress decides: the hung unlink made none for the grace
            assertThat(result.cleanup()).contains("made no progress for 1s");
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
            Await.until("rank 1's open of slow.dat is in flight", () -> fs.log().stream()
                    .anyMatch(l -> l.startsWith("open /prism-") && l.endsWith("/rank-1/slow.dat")));
            long interrupted = System.nanoTime();
            stop.interrupt("SIGTERM");
            ScenarioResult result = running.get(60, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - interrupted) / 1e9;

            // 4 s from the signal, not 4 s from the start of a clean-up that waited for the hung rank first (2 s more)
            assertThat(seconds).isBetween(3.9, 5.5 + host.allowanceSeconds());
            assertThat(result.cleanup()).contains("did not finish within 4s of the interruption");
            assertThat(result.runs().get(0).failure().kind()).isEqualTo(Failure.Kind.INTERRUPTED);
        }
    }

    /** The threads launcher's cell of "interrupted in the timed phase" (the processes launcher's: {@link FaultMatrixTest}). */
    @Test
    void anInterruption_stopsEveryRankAtOnce_keepsWhatWasMeasured_andCleansUp() throws Exception {
        Interruption stop = Interruption.create();
        Duration grace = Duration.ofSeconds(10);
        CompletableFuture<ScenarioResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder()
                .target(dir).runId("stop").benchmark(Benchmarks.create("test_phases", Map.of("hold_phase", "RUN")))
                .tasks(3).repetitions(3).interruption(stop).cleanupGrace(grace).launcher(Launcher.threads()).build().execute());
        for (int r = 0; r < 3; r++) {
            Path marker = dir.resolve("prism-stop/rank-" + r + "/held-run");
            Await.until("rank " + r + " ticks in its timed phase", () -> Files.exists(marker));
        }
        long interrupted = System.nanoTime();
        stop.interrupt("SIGTERM");
        ScenarioResult result = running.get(60, TimeUnit.SECONDS);

        assertThat((System.nanoTime() - interrupted) / 1e9).isLessThan(grace.toSeconds() + host.allowanceSeconds());
        assertThat(result.interruption()).isEqualTo("SIGTERM");
        RunResult run = result.runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.INTERRUPTED);
        assertThat(run.failure().message()).contains("interrupted by SIGTERM during repetition 1");
        assertThat(run.repetitions()).hasSize(1);
        assertThat(run.measurement("step").count()).isEqualTo(3 * 10);
        assertThat(run.measurement("tick").errors()).isZero();
        assertThat(result.cleanedUp()).isTrue();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aRankThatDiesAtStartUp_isNamedWithItsExitCodeAndStderr_notAsATimeoutOfAnother() throws Exception {
        // the observer: three rank JVMs started side by side on this host now; the run takes their start, the others'
        // set-up and the coordinator's noticing the death, far less than its 60 s timeout
        double starting = dev.prism.testing.RankJvms.startingSeconds(3);
        System.setProperty("prism.fault.exitAtStart", "2");
        try {
            long start = System.nanoTime();
            RunResult run = Scenario.builder().target(dir).benchmark(sleep(Map.of())).tasks(3)
                    .timeout(Duration.ofSeconds(60)).launcher(Launcher.processes()).build().execute().runs().get(0);
            assertThat((System.nanoTime() - start) / 1e9).as("seconds; three rank JVMs started in %.1f s", starting)
                    .isLessThan(3 * starting + 5 + host.allowanceSeconds());
            assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
            assertThat(run.failure().rank()).isEqualTo(2);
            assertThat(run.failure().message()).contains("rank 2's process died with exit code 7 at start-up, before it"
                    + " reached the coordinator").contains("exits at start-up as told");
            assertThat(run.repetitions().get(0).ranks().get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
        } finally {
            System.clearProperty("prism.fault.exitAtStart");
        }
    }

    private static long count(Path directory) throws IOException {
        try (Stream<Path> s = Files.list(directory)) {
            return s.count();
        }
    }
}
