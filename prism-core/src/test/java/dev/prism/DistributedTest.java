package dev.prism;

import dev.prism.internal.rank.RankWorker;
import dev.prism.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Ranks as real child JVMs meeting through the TCP coordinator. */
@org.junit.jupiter.api.Tag("timing")
class DistributedTest {
    @TempDir
    Path target;
    @TempDir
    Path out;

    private static Benchmark sleep(int slowRank, int millis, int failRank) {
        return Benchmarks.create("test_sleep", Map.of("slow_rank", String.valueOf(slowRank),
                "sleep_ms", String.valueOf(millis), "fail_rank", String.valueOf(failRank)));
    }

    @Test
    void processes_runEveryRankInItsOwnJvm_andEachWritesItsOwnResult() throws IOException {
        RunResult run = Scenario.builder().target(target).benchmark(sleep(-1, 0, -1)).tasks(3).repetitions(2)
                .launcher(Launcher.processes()).runId("procs").output(out).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.launcher()).isEqualTo("processes");
        assertThat(run.measurement("step").count()).isEqualTo(3 * 10 * 2);
        // a counter is per repetition: 3 ranks × 10 steps in each, never summed over the two repetitions
        assertThat(run.counters()).containsEntry("steps", 30L);
        assertThat(run.repetitions()).allSatisfy(rep -> assertThat(rep.counters()).containsEntry("steps", 30L));
        assertThat(run.repetitions().get(0).ranks()).extracting(RankResult::rank).containsExactly(0, 1, 2);
        try (Stream<Path> files = Files.list(out.resolve("01-test_sleep-t3/rep-1"))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("rank-0.json", "rank-1.json", "rank-2.json");
        }
        assertThat(Files.readString(out.resolve("01-test_sleep-t3/rep-0/rank-2.json"))).contains("\"schema\" : \"prism.rank/1\"");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
    }

    /**
     * The processes launcher keeps its rank JVMs from one repetition to the next, and from one benchmark to the next at
     * the same task count, while every rank passes; another task count or a failure starts fresh ones, and none
     * outlives the scenario. The observer is the process table: the test JVM's children when each rank enters its
     * timed phase.
     */
    @Test
    void processes_keepTheirJvmsAcrossRepetitionsAndBenchmarks_andStartFreshOnesForAnotherTaskCountOrAfterAFailure() {
        Map<String, java.util.Set<Long>> childrenInRun = new java.util.concurrent.ConcurrentHashMap<>();
        String[] execution = {""};
        ScenarioListener listener = new ScenarioListener() {
            @Override
            public void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
                execution[0] = benchmark.parameters().asText() + " t" + tasks + (warmup ? " w" : " r") + repetition;
            }

            @Override
            public void rankEntered(int rank, RankPhase phase) {
                if (phase == RankPhase.RUN) {
                    childrenInRun.computeIfAbsent(execution[0], k -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                            .addAll(ProcessHandle.current().children().map(ProcessHandle::pid).toList());
                }
            }
        };
        Benchmark first = sleep(-1, 0, -1);
        Benchmark second = sleep(-1, 1, -1);
        Scenario.builder().target(target).benchmarks(List.of(first, second)).tasks(2).repetitions(2).warmups(1)
                .launcher(Launcher.processes()).listener(listener).build().execute();
        String a = String.valueOf(first.parameters().asText());
        String b = String.valueOf(second.parameters().asText());
        java.util.Set<Long> two = childrenInRun.get(a + " t2 w0");
        assertThat(two).as("children at 2 tasks").hasSize(2);
        assertThat(childrenInRun).as("every execution, warm-ups and both benchmarks included, in the same JVMs")
                .containsEntry(a + " t2 r0", two).containsEntry(a + " t2 r1", two)
                .containsEntry(b + " t2 w0", two).containsEntry(b + " t2 r0", two).containsEntry(b + " t2 r1", two);
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).as("rank JVMs after the scenario").isEmpty();

        childrenInRun.clear();
        Scenario.builder().target(target).benchmark(first).tasks(2, 3).repetitions(1).warmups(0)
                .launcher(Launcher.processes()).listener(listener).build().execute();
        assertThat(childrenInRun.get(a + " t3 r0")).as("children at 3 tasks, after 2").hasSize(3)
                .doesNotContainAnyElementsOf(childrenInRun.get(a + " t2 r0"));

        childrenInRun.clear();
        Benchmark failing = sleep(-1, 0, 1);
        Scenario.builder().target(target).benchmarks(List.of(failing, first)).tasks(2).repetitions(1).warmups(0)
                .launcher(Launcher.processes()).listener(listener).build().execute();
        assertThat(childrenInRun.get(failing.parameters().asText() + " t2 r0")).hasSize(2);
        assertThat(childrenInRun.get(a + " t2 r0")).as("after a failed repetition, fresh JVMs").hasSize(2)
                .doesNotContainAnyElementsOf(childrenInRun.get(failing.parameters().asText() + " t2 r0"));
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void processesMeetingThroughFiles_runAndCleanUpTheirDirectory(@TempDir Path shared) throws IOException {
        RunResult run = Scenario.builder().target(target).benchmark(sleep(-1, 0, -1)).tasks(3).repetitions(2)
                .launcher(Launcher.processes(shared)).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.launcher()).isEqualTo("processes+file");
        assertThat(run.measurement("step").count()).isEqualTo(60);
        try (Stream<Path> left = Files.list(shared)) {
            assertThat(left).isEmpty();
        }
        RunResult failing = Scenario.builder().target(target).benchmark(sleep(-1, 0, 2)).tasks(3)
                .launcher(Launcher.processes(shared)).build().execute().runs().get(0);
        assertThat(failing.failure().rank()).isEqualTo(2);
        assertThat(failing.repetitions().get(0).ranks().get(0).failure().kind()).isEqualTo(Failure.Kind.ABORTED);
    }

    /**
     * As under {@code srun}: a worker task may start before rank 0 has created the meeting directory;
     * a directory a previous step left behind is never read; rank 0 removes its step's directory at the end.
     */
    @Test
    void slurmRanksMeetingThroughFiles_mayStartBeforeRankZero_andLeaveNothingBehind(@TempDir Path shared) throws Exception {
        Map<String, String> step = Map.of("SLURM_NTASKS", "2", "SLURM_STEP_NODELIST", "localhost",
                "SLURM_JOB_ID", "77", "SLURM_STEP_ID", "3");
        SlurmEnvironment rank0 = SlurmEnvironment.from(with(step, "SLURM_PROCID", "0")).orElseThrow();
        SlurmEnvironment rank1 = SlurmEnvironment.from(with(step, "SLURM_PROCID", "1")).orElseThrow();
        Path stale = Files.createDirectories(shared.resolve("prism-step-77.2"));
        Files.writeString(stale.resolve("rank-1.down"), "{\"type\":\"exit\"}\n");
        Path meeting = rank1.meetingDirectory(shared);
        assertThat(meeting).doesNotExist();

        CompletableFuture<Void> worker = CompletableFuture.runAsync(() -> {
            try {
                new RankWorker(dev.prism.internal.coordination.Rendezvous.directory(meeting), 1,
                        dev.prism.internal.coordination.RunSecret.forStep(System.getenv())).serve(Duration.ofSeconds(30));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the worker is first: it has made the meeting directory and announced itself there before rank 0 starts
        Await.until("rank 1 announced itself in " + meeting, () -> {
            try (Stream<Path> files = Files.list(meeting)) {
                return files.findAny().isPresent();
            }
        });
        RunResult run = Scenario.builder().target(target).benchmark(sleep(-1, 0, -1)).tasks(2).repetitions(2)
                .launcher(Launcher.slurm(rank0, shared)).build().execute().runs().get(0); // closes the launcher
        worker.get(30, TimeUnit.SECONDS);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.launcher()).isEqualTo("slurm+file");
        assertThat(run.measurement("step").count()).isEqualTo(2 * 10 * 2);
        assertThat(meeting).doesNotExist();
        assertThat(stale.resolve("rank-1.down")).exists();
    }

    /**
     * As under {@code srun} over TCP: rank 0 listens on a port the kernel picks and publishes host and port in
     * the target; a worker that starts first waits for that file, and the file goes when the run's launcher closes.
     */
    @Test
    void slurmRanksOverTcp_findRankZeroByTheAddressItPublishes_andTheFileGoesWithTheRun() throws Exception {
        Map<String, String> step = Map.of("SLURM_NTASKS", "2", "SLURM_JOB_ID", "78", "SLURM_STEP_ID", "0");
        SlurmEnvironment rank0 = SlurmEnvironment.from(with(step, "SLURM_PROCID", "0")).orElseThrow();
        SlurmEnvironment rank1 = SlurmEnvironment.from(with(step, "SLURM_PROCID", "1")).orElseThrow();
        Path published = rank1.endpointFile(target);
        java.util.concurrent.atomic.AtomicInteger looked = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<Void> worker = CompletableFuture.runAsync(() -> {
            try {
                dev.prism.internal.coordination.Rendezvous found = dev.prism.internal.coordination.CoordinatorEndpoint.await(published, 1,
                        java.time.Instant.now().plusSeconds(30), () -> looked.incrementAndGet() < 0);
                new RankWorker(found, 1, dev.prism.internal.coordination.RunSecret.forStep(System.getenv())).serve(Duration.ofSeconds(30));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the worker is first: it has looked for the address rank 0 has not published yet
        Await.until("rank 1 looked for " + published + " and found nothing", () -> looked.get() > 0);
        RunResult run = Scenario.builder().target(target).benchmark(sleep(-1, 0, -1)).tasks(2)
                .launcher(Launcher.slurm(rank0)).build().execute().runs().get(0); // closes the launcher
        worker.get(30, TimeUnit.SECONDS);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.launcher()).isEqualTo("slurm");
        assertThat(published).doesNotExist();
        assertThatThrownBy(() -> dev.prism.internal.coordination.CoordinatorEndpoint.await(published, 1,
                java.time.Instant.now().plusMillis(300), () -> false)).isInstanceOf(PrismException.class)
                .hasMessageContaining("rank 0 published no address in " + published + " within ")
                .hasMessageMatching("(?s).* within \\d{1,3}ms \\(.*") // the 300 ms it waited, rounded, never in ns
                .hasMessageContaining("On a node-local target give MASTER_ADDR and MASTER_PORT");
    }

    /**
     * With MASTER_ADDR naming an address of this node, rank 0 listens there only, not on every address (issue 38): the
     * ranks are told to reach it there, so nothing else need be open.
     */
    @Test
    void slurmRankZero_listensOnlyWhereMasterAddrSays() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> step = Map.of("SLURM_NTASKS", "2", "SLURM_JOB_ID", "79", "SLURM_STEP_ID", "0",
                "MASTER_ADDR", "127.0.0.2", "MASTER_PORT", String.valueOf(port));
        SlurmEnvironment rank0 = SlurmEnvironment.from(with(step, "SLURM_PROCID", "0")).orElseThrow();
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> Scenario.builder().target(target)
                .benchmark(sleep(-1, 0, -1)).tasks(2).launcher(Launcher.slurm(rank0)).build().execute().runs().get(0));
        int p = port;
        Await.until("rank 0 listens on 127.0.0.2:" + port, () -> {
            try (java.net.Socket probe = new java.net.Socket("127.0.0.2", p)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", p).close()).isInstanceOf(java.net.ConnectException.class);
        new RankWorker(dev.prism.internal.coordination.Rendezvous.tcp("127.0.0.2", port), 1,
                dev.prism.internal.coordination.RunSecret.forStep(System.getenv())).serve(Duration.ofSeconds(30));
        RunResult run = running.get(60, TimeUnit.SECONDS);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        // the probe above did not prove itself: counted, and nothing it did counts
        assertThat(run.notes().get("coordination")).startsWith("1 connection refused from ")
                .endsWith(": not of this run (1 closed the connection before it proved itself)");
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    @Test
    void aRankThatNeverHearsFromAFileCoordinator_givesUpWithinTheDeadline(@TempDir Path shared) {
        assertThatThrownBy(() -> new RankWorker(dev.prism.internal.coordination.Rendezvous.directory(shared), 1,
                dev.prism.internal.coordination.RunSecret.generate()).serve(Duration.ofSeconds(1)))
                .isInstanceOf(PrismException.class)
                .hasMessageContaining("rank 1 got no answer from the coordinator in directory " + shared + " within 1s");
    }

    @Test
    void aFailingRank_abortsTheOthersAtOnce() throws Exception {
        // the observer: three rank JVMs started side by side on this host now; the run takes their start, set-up and
        // the abort, far less than its 60 s timeout (which a run waiting for its sleeping ranks would reach)
        double starting = dev.prism.testing.RankJvms.startingSeconds(3);
        long start = System.nanoTime();
        RunResult run;
        try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
            run = Scenario.builder().target(target).benchmark(sleep(-1, 0, 1)).tasks(3)
                    .timeout(Duration.ofSeconds(60)).launcher(Launcher.processes()).build().execute().runs().get(0);
            assertThat((System.nanoTime() - start) / 1e9).as("seconds; three rank JVMs started in %.1f s", starting)
                    .isLessThan(3 * starting + 5 + 5 * delay.longest().toNanos() / 1e9);
        }
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.EXCEPTION);
        assertThat(run.failure().rank()).isEqualTo(1);
        assertThat(run.failure().message()).contains("rank 1 was told to fail");
    }

    @Test
    void aHungRank_isStoppedAtTheTimeoutAndNamed() {
        // the timeout leaves rank 2 room to start its JVM and be caught in its sleep past the 1 s stall threshold, even
        // with three JVMs starting on one core (at 3 s it could still be starting when the run timed out: no stall)
        RunResult run = Scenario.builder().target(target).benchmark(sleep(2, 120_000, -1)).tasks(3)
                .timeout(Duration.ofSeconds(10)).launcher(Launcher.processes()).build().execute().runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.TIMEOUT);
        assertThat(run.failure().rank()).isEqualTo(2);
        assertThat(run.stalls()).anySatisfy(s -> assertThat(s.operation()).isEqualTo("sleep"));
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void aCoordinatorThatNeverStarts_makesRanksGiveUpWithinTheDeadline() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        int p = port;
        try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> new RankWorker(dev.prism.internal.coordination.Rendezvous.tcp("127.0.0.1", p), 3,
                    dev.prism.internal.coordination.RunSecret.generate()).serve(Duration.ofSeconds(2)))
                    .isInstanceOf(PrismException.class)
                    .hasMessageContaining("rank 3 could not reach the coordinator at 127.0.0.1:" + port + " within 2s");
            // its deadline, one retry's pause past it at most, and the host's delays in waking it
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(2 + 1 + 5 * delay.longest().toNanos() / 1e9);
        }
    }

    @Test
    void aBenchmarkOfLambdas_cannotCrossProcesses_andBuildSaysSo_beforeAnyWork() {
        Benchmark lambda = Benchmark.builder("adhoc").run(ctx -> { }).build();
        Benchmark provided = sleep(-1, 0, -1);
        // said by build(), not by execute() after the benchmarks before it ran
        assertThatThrownBy(() -> Scenario.builder().target(target).benchmarks(List.of(provided, lambda))
                .launcher(Launcher.processes()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'adhoc' cannot run in other processes")
                .hasMessageContaining(".workload(YourWorkload.class), or use the threads launcher");
        assertThat(target).isEmptyDirectory();
    }

    /** A benchmark written in Java, as a workload class: made again by name in each rank's own JVM. */
    public static final class CountedTouches implements Workload {
        static final Parameter<Integer> FILES = Parameter.ofInt("files", 3, 1, 1000, "files", "files each rank creates");

        @Override
        public void run(WorkloadContext ctx) throws IOException {
            for (int i = 0; i < ctx.parameters().get(FILES); i++) {
                Path f = ctx.workDirectory().resolve("f" + i);
                try (var t = ctx.time("create", f)) {
                    Files.createFile(f);
                }
            }
            ctx.note("pid", String.valueOf(ProcessHandle.current().pid()));
        }
    }

    @Test
    void aWorkloadClass_runsUnderTheProcessesLauncher_eachRankInItsOwnJvm_withItsParameters() {
        Benchmark touches = Benchmark.builder("counted_touches")
                .parameters(Parameters.defaults(List.of(CountedTouches.FILES)).with(CountedTouches.FILES, 7))
                .workload(CountedTouches.class).build();
        RunResult run = Scenario.builder().target(target).benchmark(touches).tasks(2).repetitions(1)
                .launcher(Launcher.processes()).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.measurement("create").count()).isEqualTo(2 * 7);
        assertThat(run.parameters()).containsEntry("files", "7");
        List<String> pids = run.repetitions().get(0).ranks().stream().map(r -> r.notes().get("pid")).toList();
        assertThat(pids).doesNotContainNull().doesNotHaveDuplicates()
                .doesNotContain(String.valueOf(ProcessHandle.current().pid()));
    }
}
