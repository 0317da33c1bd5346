package dev.prism;

import dev.prism.testing.Await;
import dev.prism.testing.FaultFs;
import dev.prism.testing.HostDelay;
import dev.prism.testing.RankJvms;
import dev.prism.testing.RankProcesses;
import dev.prism.testing.ScenarioInChild;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fault matrix of the README ("When things go wrong"): each fault PRISM promises to survive — a rank's process
 * killed, the parent killed, an interruption (what SIGTERM and SIGINT do), storage that hangs — driven at each phase a
 * rank passes through under the processes launcher: start-up before the coordinator, setup, rehearsal, the timed
 * phase, teardown, and the clean-up after the runs. Each test waits for the state it needs (a phase a rank says it
 * entered, a marker the test benchmark writes when its hold begins, a line the parent prints), never for a time, and
 * asserts the cell's guarantee: what the run reports, within the bound the README states, and what is left in the
 * target. The bounds come from the README's figures and the scenario's own timeout and graces, plus what the host's
 * observed delays add to them ({@link dev.prism.testing.SchedulingDelay}).
 */
@org.junit.jupiter.api.Tag("timing")
class FaultMatrixTest {
    /** README: a dead rank fails the run within 5 s of its death. */
    private static final double DEAD_RANK_BOUND_SECONDS = 5;
    /**
     * README: an orphaned rank notices within 0.2 s, gives its busy work 0.5 s and 0.25 s more, then removes its own
     * directory and exits: 2 s, plus the time its files take to remove (a few here).
     */
    private static final double ORPHAN_BOUND_SECONDS = 2;
    /**
     * README: after its timeout a repetition on hung storage ends within 1.25 s (the stuck rank's grace) plus 4.2 s (its
     * process's time to exit: asked, SIGTERM, SIGKILL), then clean-up gets its grace.
     */
    private static final double HANG_ALLOWANCE_SECONDS = 1.25 + 4.2;
    /**
     * The hung-storage cells' --timeout. It counts from the repetition's start, rank JVMs' start-up and connection
     * included: at 3 s, two rank JVMs on one core beside a CPU hog did not connect in time (scripts/test.sh --timing),
     * failing the cell on what it does not test; at 8 s, two rank JVMs started while the test command's other lane
     * ran 32 rank JVMs of its own did not either (three cells). 20 s leaves start-up room on a loaded machine; the
     * bound the cell asserts is still the timeout plus what the README promises after it.
     */
    private static final Duration HANG_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration HANG_GRACE = Duration.ofSeconds(1);
    /**
     * The wake-ups between an event and the test's seeing its end: the rank's watcher or the coordinator noticing, a
     * process exiting, its parent reaping it, the clean-up, the result reaching the test's thread. A loaded host may
     * delay each by as much as the longest delay {@link dev.prism.testing.SchedulingDelay} saw, which the bounds add to
     * the README's figures.
     */
    @RegisterExtension
    final HostDelay host = new HostDelay(5);

    @TempDir
    Path dir;

    @AfterEach
    void noRankOutlivesItsTest() {
        System.clearProperty("prism.fault.holdConnect");
        Await.until("every rank process of the test has exited", () -> ProcessHandle.current().descendants()
                .noneMatch(ProcessHandle::isAlive));
    }

    static Stream<RankPhase> rankPhases() {
        return Stream.of(RankPhase.STARTING, RankPhase.SETUP, RankPhase.REHEARSAL, RankPhase.RUN, RankPhase.TEARDOWN);
    }

    private static Map<String, String> holdingIn(RankPhase phase) {
        return phase == RankPhase.STARTING ? Map.of() : Map.of("hold_phase", phase.name());
    }

    /** Every rank holds in {@code phase}; at start-up rank 1 holds before connecting (the test hook of RankWorker). */
    private Scenario.Builder holding(Path target, RankPhase phase, String runId) {
        if (phase == RankPhase.STARTING) {
            System.setProperty("prism.fault.holdConnect", "1");
        }
        return Scenario.builder().target(target).runId(runId).benchmark(Benchmarks.create("test_phases", holdingIn(phase)))
                .tasks(3).timeout(Duration.ofSeconds(300)).launcher(Launcher.processes());
    }

    /** Waits until every rank of {@code tasks} holds in {@code phase} (at start-up: until rank 1's process exists). */
    private static void awaitHolding(Path runDirectory, RankPhase phase, int tasks, ProcessHandle parent) {
        if (phase == RankPhase.STARTING) {
            RankProcesses.find(parent, 1);
            return;
        }
        for (int r = 0; r < tasks; r++) {
            Path marker = runDirectory.resolve("rank-" + r).resolve("held-" + phase.name().toLowerCase(Locale.ROOT));
            Await.until("rank " + r + " holds in " + phase.description() + " (" + marker + ")", () -> Files.exists(marker));
        }
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static List<String> left(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(p -> !p.equals(directory)).map(p -> directory.relativize(p).toString()).sorted().toList();
        }
    }

    // --- a rank's process is killed (SIGKILL) ---

    @ParameterizedTest(name = "in {0}")
    @MethodSource("rankPhases")
    void aRankKilled_failsTheRunWithin5sNamingItAndWhere_keepsWhatTheOthersMeasured_andLeavesNothing(RankPhase phase)
            throws Exception {
        Path target = Files.createDirectories(dir.resolve("target"));
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> holding(target, phase, "kill")
                .build().execute().runs().get(0));
        awaitHolding(target.resolve("prism-kill"), phase, 3, ProcessHandle.current());
        RankProcesses.find(ProcessHandle.current(), 1).destroyForcibly();
        long killed = System.nanoTime();
        RunResult run = running.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(secondsSince(killed)).isLessThan(DEAD_RANK_BOUND_SECONDS + host.allowanceSeconds());
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(run.failure().rank()).isEqualTo(1);
        assertThat(run.failure().message()).contains("rank 1's process died with exit code 137 (signal 9) "
                + (phase == RankPhase.STARTING ? "at start-up, before it reached the coordinator" : "in " + phase.description()));
        List<RankResult> ranks = run.repetitions().get(0).ranks();
        assertThat(List.of(ranks.get(0), ranks.get(2))).allSatisfy(r -> assertThat(r.failure().kind()).isEqualTo(Failure.Kind.ABORTED));
        if (phase.compareTo(RankPhase.RUN) >= 0) {
            // the survivors measured their steps before the kill: kept
            assertThat(List.of(ranks.get(0), ranks.get(2))).allSatisfy(r -> assertThat(r.measurements().get("step").count())
                    .isEqualTo(10));
        }
        assertThat(left(target)).isEmpty();
    }

    // --- the parent of the ranks is killed (SIGKILL) ---

    @ParameterizedTest(name = "in {0}")
    @MethodSource("rankPhases")
    void theParentKilled_itsRanksExitWithin2s_andRemoveEverythingTheRunMade(RankPhase phase) throws Exception {
        Path target = Files.createDirectories(dir.resolve("target"));
        List<String> arguments = new ArrayList<>(List.of("test_phases"));
        holdingIn(phase).forEach((k, v) -> arguments.add(k + "=" + v));
        try (Parent parent = Parent.start(dir, target, "orphan", 3, phase == RankPhase.STARTING, arguments)) {
            awaitHolding(target.resolve("prism-orphan"), phase, 3, parent.process.toHandle());
            List<ProcessHandle> ranks = List.of(RankProcesses.find(parent.process.toHandle(), 0),
                    RankProcesses.find(parent.process.toHandle(), 1), RankProcesses.find(parent.process.toHandle(), 2));
            parent.process.toHandle().destroyForcibly();
            long killed = System.nanoTime();
            Await.until("every rank of the killed parent has exited", () -> ranks.stream().allMatch(RankProcesses::ended));
            double exited = secondsSince(killed);

            // at start-up the ranks' JVMs may still be booting, which no code of PRISM's can shorten: the promise is
            // 2 s once they are up, so the bound adds what booting three rank JVMs side by side takes here, now
            double bound = (phase == RankPhase.STARTING ? ORPHAN_BOUND_SECONDS + RankJvms.startingSeconds(3) : ORPHAN_BOUND_SECONDS)
                    + host.allowanceSeconds();
            assertThat(exited).as("seconds until every orphaned rank exited (bound %.2f s)", bound).isLessThan(bound);
            assertThat(left(target)).isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void theParentKilledInItsCleanUp_leavesOnlyWhatItHadNotRemoved_insideTheRunDirectory() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("unlink", "/prism-late/rank-0/*", Duration.ofMillis(50), null);
            Path outside = Files.writeString(fs.mountPoint().resolve("keep.txt"), "not PRISM's");
            try (Parent parent = Parent.start(dir, fs.mountPoint(), "late", 2, false, List.of("test_phases", "files=100"))) {
                parent.await("cleanup");
                Await.until("the clean-up has removed a file of rank 0", () -> fs.log().stream()
                        .anyMatch(l -> l.startsWith("unlink /prism-late/rank-0/")));
                parent.process.toHandle().destroyForcibly();
                parent.process.waitFor();
            }
            List<String> left = left(fs.source());
            assertThat(left).contains("keep.txt", "prism-late").allMatch(p -> p.equals("keep.txt") || p.startsWith("prism-late"));
            assertThat(left).doesNotContain("prism-late/rank-1").hasSizeLessThan(2 + 2 + 100); // some of rank 0's were removed
            assertThat(Files.readString(outside)).isEqualTo("not PRISM's");
        }
    }

    // --- an interruption (SIGTERM, SIGINT: what the prism command's signal handler does) ---

    @ParameterizedTest(name = "in {0}")
    @MethodSource("rankPhases")
    void anInterruption_endsTheRunWithinItsGrace_keepsWhatWasMeasured_andCleansUp(RankPhase phase) throws Exception {
        Path target = Files.createDirectories(dir.resolve("target"));
        Interruption stop = Interruption.create();
        Duration grace = Duration.ofSeconds(10);
        Path out = dir.resolve("out");
        CompletableFuture<ScenarioResult> running = CompletableFuture.supplyAsync(() -> holding(target, phase, "stop")
                .interruption(stop).cleanupGrace(grace).output(out).build().execute());
        awaitHolding(target.resolve("prism-stop"), phase, 3, ProcessHandle.current());
        stop.interrupt("SIGTERM");
        long signalled = System.nanoTime();
        ScenarioResult result = running.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);

        assertThat(secondsSince(signalled)).isLessThan(grace.toSeconds() + host.allowanceSeconds());
        RunResult run = result.runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.INTERRUPTED);
        assertThat(run.failure().message()).contains("interrupted by SIGTERM during repetition 1");
        if (phase.compareTo(RankPhase.RUN) >= 0) {
            assertThat(run.measurement("step").count()).isEqualTo(3 * 10);
            assertThat(run.measurement("step").errors()).isZero();
            // each rank, still busy when told to stop, also kept what it measured in its own document: what is left
            // when SLURM's SIGKILL takes rank 0 before it writes the run's (prism merge reads them)
            for (int r = 0; r < 3; r++) {
                Path own = out.resolve("01-test_phases-t3/rep-0/rank-" + r + ".json");
                assertThat(own).as("rank %d's own document", r).exists();
                assertThat(RankResultsIn.count(own, "step")).as("rank %d's steps in its own document", r).isEqualTo(10);
            }
        }
        assertThat(result.cleanedUp()).as(result.cleanup()).isTrue();
        assertThat(left(target)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void anInterruptionDuringCleanUp_endsItWithinTheGraceOfTheSignal_namingWhatWasLeft() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("unlink", "/prism-stopclean/rank-0/*", Duration.ofMillis(100), null);
            Interruption stop = Interruption.create();
            Duration grace = Duration.ofSeconds(2);
            Set<String> cleaning = ConcurrentHashMap.newKeySet();
            ScenarioListener listener = new ScenarioListener() {
                @Override
                public void cleanupStarted(Path runDirectory) {
                    cleaning.add(runDirectory.toString());
                }
            };
            CompletableFuture<ScenarioResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder()
                    .target(fs.mountPoint()).runId("stopclean").benchmark(Benchmarks.create("test_phases", Map.of("files", "200")))
                    .tasks(2).launcher(Launcher.processes()).interruption(stop).cleanupGrace(grace).listener(listener)
                    .build().execute());
            Await.until("the clean-up has begun", () -> !cleaning.isEmpty());
            stop.interrupt("SIGTERM");
            long signalled = System.nanoTime();
            ScenarioResult result = running.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);

            assertThat(secondsSince(signalled)).isLessThan(grace.toSeconds() + 0.5 + host.allowanceSeconds());
            assertThat(result.runs().get(0).passed()).isTrue(); // the run was over: it keeps its verdict
            assertThat(result.cleanup()).contains("did not finish within 2s of the interruption")
                    .contains("entries were removed, the rest is still there");
        }
    }

    // --- storage that hangs (faultfs: a read of the held rank's file never returns in time) ---

    @ParameterizedTest(name = "in {0}")
    @EnumSource(value = RankPhase.class, names = {"SETUP", "REHEARSAL", "RUN", "TEARDOWN"})
    void storageThatHangs_endsTheRunAtItsTimeoutNamingTheStuckRankAndPhase_andCleanUpIsBounded(RankPhase phase)
            throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            String file = "hang-" + phase.name().toLowerCase(Locale.ROOT) + ".dat";
            fs.rule("read", "/prism-hang/rank-1/" + file, Duration.ofSeconds(60), null);
            long start = System.nanoTime();
            ScenarioResult result = Scenario.builder().target(fs.mountPoint()).runId("hang")
                    .benchmark(Benchmarks.create("test_phases", Map.of("hold_phase", phase.name(), "hold_rank", "1",
                            "hang_file", "true")))
                    .tasks(2).timeout(HANG_TIMEOUT).cleanupGrace(HANG_GRACE).launcher(Launcher.processes()).build().execute();

            assertThat(secondsSince(start)).isLessThan(HANG_TIMEOUT.toSeconds() + HANG_ALLOWANCE_SECONDS + HANG_GRACE.toSeconds()
                    + host.allowanceSeconds());
            RunResult run = result.runs().get(0);
            assertThat(run.failure().kind()).as(run.failure() + " " + run.repetitions().get(0).ranks()).isEqualTo(Failure.Kind.TIMEOUT);
            assertThat(run.failure().rank()).as(run.failure() + " " + run.repetitions().get(0).ranks()).isEqualTo(1);
            if (phase == RankPhase.RUN) {
                assertThat(run.stalls()).anySatisfy(s -> assertThat(s.path()).endsWith("rank-1/" + file));
                assertThat(run.measurement("step").count()).isEqualTo(2 * 10);
            } else {
                assertThat(run.failure().message()).contains("the rank is stuck in " + phase.description());
            }
            List<String> left = left(fs.source());
            assertThat(left).allMatch(p -> p.startsWith("prism-hang"));
            if (!left.isEmpty()) {
                assertThat(result.cleanup()).as("what was left is named").contains("prism-hang");
            }
        }
    }

    @org.junit.jupiter.api.Test
    void storageThatHangsAtStartUp_failsWithinTheTimeoutNamingTheCall_andALateMkdirIsTakenBack() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("mkdir", "/prism-*", Duration.ofSeconds(5), null);
            long start = System.nanoTime();
            assertThatThrownBy(() -> Scenario.builder().target(fs.mountPoint()).runId("nomkdir")
                    .benchmark(Benchmarks.create("test_phases", Map.of())).tasks(2).timeout(Duration.ofSeconds(2))
                    .launcher(Launcher.processes()).build().execute())
                    .isInstanceOf(PrismException.class)
                    .hasMessageContaining("creating the run directory in " + fs.mountPoint() + " did not return within 2s"
                            + " (the storage may hang)");
            assertThat(secondsSince(start)).isLessThan(2 + 0.5 + host.allowanceSeconds());
            Await.until("the mkdir that returned late is taken back", () -> left(fs.source()).isEmpty());
        }
    }

    @org.junit.jupiter.api.Test
    void storageThatHangsInCleanUp_isAbandonedAfterTheGrace_namingWhatWasLeft() throws Exception {
        try (FaultFs fs = FaultFs.mount(dir.resolve("fs"))) {
            fs.rule("unlink", "/prism-slowclean/rank-0/file-3", Duration.ofSeconds(60), null);
            long[] cleanupStarted = new long[1];
            ScenarioListener listener = new ScenarioListener() {
                @Override
                public void cleanupStarted(Path runDirectory) {
                    cleanupStarted[0] = System.nanoTime();
                }
            };
            ScenarioResult result = Scenario.builder().target(fs.mountPoint()).runId("slowclean")
                    .benchmark(Benchmarks.create("test_phases", Map.of("files", "10"))).tasks(2).cleanupGrace(HANG_GRACE)
                    .launcher(Launcher.processes()).listener(listener).build().execute();

            // no entry removed for a whole grace: given up (a clean-up making progress could go on)
            assertThat(secondsSince(cleanupStarted[0])).isLessThan(HANG_GRACE.toSeconds() + 0.5 + host.allowanceSeconds());
            assertThat(result.passed()).isTrue();
            assertThat(result.cleanup()).contains("removing " + fs.mountPoint().resolve("prism-slowclean"))
                    .contains("made no progress for 1s (the storage may hang)");
        }
    }

    /** The parent of the ranks in a JVM of its own ({@link ScenarioInChild}), printing the phases its ranks enter. */
    private static final class Parent implements AutoCloseable {
        final Process process;
        private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();

        private Parent(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process is gone
                }
            }, "parent-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Parent start(Path dir, Path target, String runId, int tasks, boolean holdRank1AtStart, List<String> benchmark)
                throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java));
            if (holdRank1AtStart) {
                command.add("-Dprism.fault.holdConnect=1");
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScenarioInChild.class.getName(),
                    target.toString(), runId, String.valueOf(tasks)));
            command.addAll(benchmark);
            return new Parent(new ProcessBuilder(command).redirectError(dir.resolve("parent-" + runId + ".err").toFile()).start());
        }

        /** Waits until the parent printed {@code line}. */
        void await(String line) {
            Await.until("the parent prints '" + line + "' (it printed " + lines + ")", () -> lines.contains(line));
        }

        @Override
        public void close() {
            process.destroyForcibly();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Reads a rank's own document as the observer: the count of one operation in it. */
    private static final class RankResultsIn {
        static long count(Path document, String operation) throws IOException {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(document.toFile())
                    .at("/result/measurements/" + operation + "/count").asLong(-1);
        }
    }
}
