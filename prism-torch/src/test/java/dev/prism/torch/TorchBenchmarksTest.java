package dev.prism.torch;

import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.Failure;
import dev.prism.RunResult;
import dev.prism.Scenario;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real torch under real torchrun, 2 ranks, CPU and gloo. Skipped without a Python that has torch,
 * unless PRISM_REQUIRE_TORCH=1 (as scripts/test.sh sets after creating .venv), which makes that a failure.
 */
class TorchBenchmarksTest {
    private static final long SMALL = 2_000_000;

    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        String version = null;
        String missing = null;
        try {
            version = TorchRun.builder().build().checkTorch();
        } catch (TorchException e) {
            missing = e.getMessage();
        }
        dev.prism.testing.Required.require(version != null, "PRISM_REQUIRE_TORCH", "no torch: " + missing);
        assertThat(TorchRun.atLeast(version, TorchRun.MINIMUM_TORCH)).isTrue();
    }

    private RunResult run(Benchmark b, int tasks) {
        return Scenario.builder().target(target).benchmark(b).tasks(tasks).timeout(Duration.ofMinutes(5))
                .build().execute().runs().get(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ddp_save", "ddp_load", "fsdp_save", "fsdp_load", "rl_load"})
    void everyBenchmark_runsWithTwoRanks_andCleansUp(String name) throws IOException {
        RunResult r = run(Benchmarks.create(name, Map.of("params", String.valueOf(SMALL))), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.launcher()).isEqualTo("torchrun");
        assertThat(r.repetitions().get(0).ranks()).hasSize(2);
        assertThat(r.measurement("train").count()).isEqualTo(2);
        assertThat(r.counters().get("model_parameters")).isBetween(SMALL * 9 / 10, SMALL * 11 / 10);
        String io = switch (name) {
            case "ddp_save", "fsdp_save" -> "save";
            case "rl_load" -> "consolidate";
            default -> "load";
        };
        assertThat(r.measurement(io).count()).isEqualTo(name.equals("ddp_save") ? 1 : 2);
        assertThat(r.measurement(io).bytes()).isPositive();
        assertThat(r.rankSpread().maxNanos()).isPositive();
        // what ran is recorded: versions, backend, device and world size
        assertThat(r.notes()).containsEntry("backend", "gloo").containsEntry("device", "cpu").containsEntry("world_size", "2")
                .containsKeys("python", "torch_version", "transformers");
        assertThat(r.notes().get("torch_version")).startsWith("2.");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aHuggingFaceArchitecture_builtFromItsConfig_checkpointsWithFsdp() {
        RunResult r = run(TorchBenchmarks.fsdpLoad().model(TorchModel.GPT2).parameters(5_000_000).layers(2)
                .fullStateDict(true).dropCache(true), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("full_state_dict").count()).isEqualTo(2);
        assertThat(r.measurement("drop_cache").count()).isEqualTo(2);
        // every rank drops what it will read, not rank 0 alone (each node has its own page cache)
        assertThat(r.repetitions().get(0).ranks()).allSatisfy(rank ->
                assertThat(rank.counters().getOrDefault("files_dropped", 0L)).isPositive());
    }

    @Test
    void bertUnderDdp_trainsAgainAfterLoading() {
        RunResult r = run(TorchBenchmarks.ddpLoad().model(TorchModel.BERT).parameters(3_000_000).layers(2), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("train_after_load").count()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fsdp_load", "ddp_load", "rl_load"})
    void aTruncatedCheckpoint_failsNamingTheFile(String name) {
        RunResult r = run(TorchBenchmarks.named(name, Map.of("params", String.valueOf(SMALL), "fault", "truncate_shard")), 2);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().kind()).isIn(Failure.Kind.EXCEPTION, Failure.Kind.VALIDATION);
        assertThat(r.failure().message()).containsAnyOf(".distcp is truncated", "model.pt");
    }

    @Test
    void anInterruption_stopsTorchrunAndItsWorkers_andCleansUp() throws Exception {
        dev.prism.Interruption stop = dev.prism.Interruption.create();
        java.util.concurrent.CompletableFuture<RunResult> running = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Scenario.builder().target(target).benchmark(TorchBenchmarks.fsdpSave().parameters(SMALL)).tasks(2)
                        .timeout(Duration.ofMinutes(5)).interruption(stop).build().execute().runs().get(0));
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (ProcessHandle.current().descendants().noneMatch(h -> h.info().commandLine().orElse("").contains("torch"))) {
            assertThat(System.nanoTime()).as("torchrun started").isLessThan(end);
            Thread.sleep(20);
        }
        long interrupted = System.nanoTime();
        stop.interrupt("SIGTERM");
        RunResult r = running.get(60, java.util.concurrent.TimeUnit.SECONDS);

        assertThat((System.nanoTime() - interrupted) / 1e9).isLessThan(15);
        assertThat(r.failure().kind()).isEqualTo(dev.prism.Failure.Kind.INTERRUPTED);
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aCrashingWorker_failsTheRunWithItsTraceback() {
        RunResult r = run(TorchBenchmarks.ddpSave().parameters(SMALL).fault(TorchFault.CRASH_RANK1), 2);
        assertThat(r.passed()).isFalse();
        String all = r.repetitions().get(0).ranks().stream().map(x -> String.valueOf(x.failure())).reduce("", String::concat);
        assertThat(all).contains("crash_rank1: rank 1 was told to crash").contains("Traceback");
    }

    @Test
    void aMissingInterpreterOrTorch_isSaidClearly() {
        assertThatThrownBy(() -> TorchRun.builder().python(Path.of("/no/such/python")).build().checkTorch())
                .isInstanceOf(TorchException.class).hasMessageContaining("cannot run /no/such/python")
                .hasMessageContaining("scripts/python-venv.sh");
        assertThatThrownBy(() -> TorchRun.builder().python(Path.of("/usr/bin/true")).build().checkTorch())
                .isInstanceOf(TorchException.class).hasMessageContaining("has torch");
        assertThat(TorchRun.atLeast("2.13.0+cpu", "2.4")).isTrue();
        assertThat(TorchRun.atLeast("1.13.1", "2.4")).isFalse();
        assertThat(TorchRun.atLeast("2.4.0", "2.4")).isTrue();
        assertThatThrownBy(() -> TorchRun.builder().nodes(0)).hasMessageContaining("nodes must be in 1..100000, was 0");
        assertThatThrownBy(() -> TorchRun.builder().rendezvousEndpoint("nohost")).hasMessageContaining("host:port");
    }
}
