package dev.prism.torch;

import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.DataSize;
import dev.prism.Failure;
import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.FaultFs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real torch under real torchrun, 1 and 2 ranks, CPU and gloo. Skipped without a Python that has torch,
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
        return runs(b, tasks).get(0);
    }

    private List<RunResult> runs(Benchmark b, int... tasks) {
        return Scenario.builder().target(target).benchmark(b).tasks(tasks).timeout(Duration.ofMinutes(5))
                .build().execute().runs();
    }

    /** Small sizes of each benchmark, so that all seven run at 1 and 2 ranks in the test suite. */
    private static Map<String, String> small(String name) {
        return switch (name) {
            case "hf_load" -> Map.of("params", String.valueOf(SMALL), "layers", "2");
            case "dataloader" -> Map.of("files", "64", "file_size", "16KiB");
            default -> Map.of("params", String.valueOf(SMALL));
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"ddp_save", "ddp_load", "fsdp_save", "fsdp_load", "rl_load", "hf_load", "dataloader"})
    void everyBenchmark_runsWithOneAndTwoRanks_andCleansUp(String name) throws IOException {
        List<RunResult> runs = runs(Benchmarks.create(name, small(name)), 1, 2);
        assertThat(runs).hasSize(2);
        for (RunResult r : runs) {
            int ranks = r.tasks();
            assertThat(r.passed()).as(ranks + " ranks: " + r.failure()).isTrue();
            assertThat(r.launcher()).isEqualTo("torchrun");
            assertThat(r.repetitions().get(0).ranks()).hasSize(ranks);
            String io = switch (name) {
                case "ddp_save", "fsdp_save" -> "save";
                case "rl_load" -> "consolidate";
                case "dataloader" -> "sample";
                default -> "load";
            };
            long expected = switch (name) {
                case "ddp_save" -> 1;
                case "dataloader" -> 64;
                default -> ranks;
            };
            assertThat(r.measurement(io).count()).isEqualTo(expected);
            assertThat(r.measurement(io).bytes()).isPositive();
            if (!name.equals("dataloader")) {
                // a Hugging Face architecture rounds its width to whole attention heads of 64
                assertThat(r.counters().get("model_parameters")).isBetween(SMALL * 7 / 10, SMALL * 13 / 10);
            }
            if (!name.equals("dataloader") && !name.equals("hf_load")) {
                assertThat(r.measurement("train").count()).isEqualTo(ranks);
            }
            assertThat(r.rankSpread().maxNanos()).isPositive();
            // what ran is recorded: versions, backend, device and world size
            assertThat(r.notes()).containsEntry("backend", "gloo").containsEntry("device", "cpu")
                    .containsEntry("world_size", String.valueOf(ranks)).containsKeys("python", "torch_version", "transformers");
            assertThat(r.notes().get("torch_version")).startsWith("2.");
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void checkpointsHoldTheOptimizerState_adamTwoTensorsPerParameter_sgdOne() {
        // fp32: 4 bytes per parameter for the weights, 4 more per optimizer state tensor; the pickle and DCP
        // metadata add little. A checkpoint of weights alone would be 4 bytes per parameter.
        for (TorchOptimizer optimizer : TorchOptimizer.values()) {
            double perParameter = optimizer == TorchOptimizer.ADAM ? 12 : 8;
            RunResult ddp = run(TorchBenchmarks.ddpSave().parameters(SMALL).optimizer(optimizer), 2);
            RunResult fsdp = run(TorchBenchmarks.fsdpSave().parameters(SMALL).optimizer(optimizer), 2);
            for (RunResult r : List.of(ddp, fsdp)) {
                assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
                double bytesPerParameter = (double) r.measurement("save").bytes() / r.counters().get("model_parameters");
                assertThat(bytesPerParameter).as(r.benchmark() + " " + optimizer).isBetween(perParameter, perParameter * 1.03);
            }
            // files written per rank: rank 0 alone under DDP; every rank its shard under DCP, rank 0 the metadata too
            assertThat(ddp.counters().get("checkpoint_files")).isEqualTo(1);
            assertThat(fsdp.repetitions().get(0).ranks()).extracting(rank -> rank.counters().get("checkpoint_files"))
                    .containsExactly(2L, 1L);
            assertThat(fsdp.repetitions().get(0).ranks()).allSatisfy(rank ->
                    assertThat(rank.measurements().get("save").bytes()).isPositive());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama", "bert"})
    void hfLoad_readsSafetensorsShardsThroughFromPretrained_andRunsAFirstForwardApart(String model) {
        RunResult r = run(TorchBenchmarks.named("hf_load", Map.of("model", model, "params", "3000000", "layers", "2",
                "shard_size", "4MB", "drop_cache", "true")), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("load").count()).isEqualTo(2);
        assertThat(r.measurement("first_forward").count()).isEqualTo(2);
        long parameters = r.counters().get("model_parameters");
        // safetensors in fp32: 4 bytes per parameter, plus config.json and the shard index; each rank reads it all
        assertThat(r.measurement("load").bytes() / 2).isBetween(parameters * 4, parameters * 4 + 200_000);
        // a 4 MB shard size splits the weights over several files (a tensor is never split, so a shard may pass it);
        // every rank reads them all, none of them in the page cache before loading
        assertThat(r.repetitions().get(0).ranks()).allSatisfy(rank -> {
            assertThat(rank.counters().get("model_files")).isGreaterThanOrEqualTo(2);
            assertThat(rank.counters().get("resident_pages_before_load")).isZero();
        });
    }

    /** @return the public methods a benchmark's type adds for its parameters */
    private static java.util.Set<String> setters(Class<? extends TorchBenchmark> type) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getParameterCount() == 1 && TorchBenchmark.class.isAssignableFrom(m.getReturnType())) {
                names.add(m.getName());
            }
        }
        return names;
    }

    @Test
    void eachBenchmarkRefusesWhatItCannotDo_namingTheParameter() {
        assertThatThrownBy(() -> TorchBenchmarks.hfLoad().model(TorchModel.SYNTHETIC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model must be one of gpt2, llama, bert")
                .hasMessageContaining("was synthetic");
        // what a benchmark does not take has no setter: hfLoad().optimizer(…) and ddpSave().epochs(3) do not compile
        assertThat(setters(HfLoad.class)).doesNotContain("optimizer", "threadCount", "epochs", "fault")
                .contains("model", "parameters", "shardSize", "dropCache");
        assertThat(setters(DdpSave.class)).doesNotContain("epochs", "numWorkers", "shardSize", "fullStateDict")
                .contains("optimizer", "threadCount", "fault");
        assertThat(setters(FsdpLoad.class)).contains("fullStateDict");
        assertThat(setters(Dataloader.class)).doesNotContain("optimizer", "layers", "model").contains("epochs", "numWorkers");
        // the typed factories build what the CLI builds by name: the same parameters
        for (String name : java.util.List.of("ddp_save", "fsdp_load", "hf_load", "dataloader")) {
            TorchBenchmark b = TorchBenchmarks.named(name, Map.of());
            assertThat(b.parameters().declared()).as(name).isEqualTo(TorchBenchmark.parametersOf(name));
        }
        assertThatThrownBy(() -> TorchBenchmarks.dataloader().dataset(target.resolve("absent")))
                .hasMessageContaining("is not an existing directory");
        assertThatThrownBy(() -> TorchBenchmarks.dataloader().numWorkers(257))
                .hasMessageContaining("num_workers").hasMessageContaining("257");
    }

    @Test
    void dataloader_readsEveryFileOncePerEpoch_fromStorageWhenTheCacheIsDropped() throws Exception {
        // a node that has lost torch's and numpy's libraries from its page cache: what the loader's workers fault in
        // of them is read before the clock, not counted in an epoch's storage_read_bytes (1.6 times the samples'
        // bytes when it was)
        dropFromPageCache(librariesOfTheLoadersWorkers());
        RunResult r = run(TorchBenchmarks.dataloader().files(200).fileSize(DataSize.ofKiB(64))
                .layout(TorchDatasetLayout.SHARDED).shards(7).epochs(2).dropCache(true), 2);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.measurement("sample").count()).isEqualTo(400);
        assertThat(r.measurement("sample").bytes()).isEqualTo(400L * 64 * 1024);
        assertThat(r.measurement("batch").count()).isEqualTo(2 * 2 * 7); // 100 samples per rank and epoch, in 16s
        assertThat(r.measurement("epoch").count()).isEqualTo(4);
        // the kernel's own count of bytes fetched from the disk, DataLoader workers included, against what was read
        long fromStorage = r.counters().get("storage_read_bytes");
        assertThat(fromStorage).isBetween(r.measurement("sample").bytes() * 9 / 10, r.measurement("sample").bytes() * 11 / 10);
        assertThat(r.counters().get("resident_pages_before_read")).isZero();
        assertThat(r.counters().get("pages_before_read")).isEqualTo(400L * 16);
        assertThat(r.notes().get("dataset")).startsWith("200 files, " + 200L * 64 * 1024 + " bytes");
    }

    /** @return torch's and numpy's shared libraries in the interpreter's site-packages */
    private static List<Path> librariesOfTheLoadersWorkers() throws Exception {
        Process p = new ProcessBuilder(TorchRun.defaultPython().toString(), "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])").redirectErrorStream(true).start();
        Path sitePackages = Path.of(new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip());
        assertThat(p.waitFor()).isZero();
        List<Path> libraries = new java.util.ArrayList<>();
        for (String module : List.of("torch", "numpy")) {
            try (Stream<Path> files = Files.walk(sitePackages.resolve(module))) {
                files.filter(f -> f.getFileName().toString().endsWith(".so") && Files.isRegularFile(f)).forEach(libraries::add);
            }
        }
        assertThat(libraries).isNotEmpty();
        return libraries;
    }

    /** Drops each file's pages from the page cache (GNU dd's nocache advice over the whole file; mapped pages stay). */
    private static void dropFromPageCache(List<Path> files) throws Exception {
        for (Path file : files) {
            Process dd = new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0", "status=none")
                    .redirectErrorStream(true).start();
            String said = new String(dd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(dd.waitFor()).as(said).isZero();
        }
    }

    /**
     * Timing-dependent: a sample without the injected delay must take less than the delay, which a loaded host
     * stretches. The bounds allow for observers measured in the same test: a plain Java open and read of each of those
     * files through the same mount, and the host's longest delay in running a ready thread ({@link
     * dev.prism.testing.SchedulingDelay}) over the run.
     */
    @Test
    @org.junit.jupiter.api.Tag("timing")
    void dataloader_overAKeptDataset_timesEverySample_andNeverWritesIt() throws Exception {
        Path dir = Files.createDirectories(target.resolve("fs"));
        try (FaultFs fs = FaultFs.mount(dir)) {
            Path data = Files.createDirectories(fs.source().resolve("data"));
            for (int i = 0; i < 40; i++) {
                Files.write(data.resolve(String.format("file-%03d.bin", i)), new byte[8192 + i]);
            }
            // an injected 30 ms on opening a tenth of the files: the observer of the per-sample latency
            fs.rule("open", "/data/file-*5.bin", Duration.ofMillis(30), null);
            fs.clearLog();
            Path run = Files.createDirectories(target.resolve("run"));
            RunResult r;
            long late;
            try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
                r = Scenario.builder().target(run).benchmark(TorchBenchmarks.dataloader()
                                .dataset(fs.mountPoint().resolve("data")).numWorkers(0).shuffle(false).batchSize(4))
                        .tasks(1).timeout(Duration.ofMinutes(5)).build().execute().runs().get(0);
                late = delay.longest().toNanos();
            }
            assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
            assertThat(fs.log()).noneMatch(line -> line.matches("(create|write|unlink|rename|truncate|setattr|mkdir) .*"));
            // the observer of a sample without the delay: the same file opened and read through the same mount, here
            long plain = 0;
            for (int i = 0; i < 40; i++) {
                if (i % 10 != 5) {
                    long began = System.nanoTime();
                    Files.readAllBytes(fs.mountPoint().resolve("data").resolve(String.format("file-%03d.bin", i)));
                    plain = Math.max(plain, System.nanoTime() - began);
                }
            }
            long undelayed = 30_000_000L + plain + late;
            Measurement sample = r.measurement("sample");
            assertThat(sample.count()).isEqualTo(40);
            assertThat(sample.bytes()).isEqualTo(40L * 8192 + 39 * 40 / 2);
            // the delayed files are the slowest; the others, with a plain read and the host's delays, faster than the delay
            assertThat(sample.percentileNanos(95)).isGreaterThanOrEqualTo(30_000_000L);
            assertThat(sample.percentileNanos(50)).as("a plain read took %d µs, the host's delay %d µs", plain / 1000, late / 1000)
                    .isLessThan(undelayed);
            // batches of 4 in order: files 5, 15, 25 and 35 fall in 4 of the 10 batches, each waiting for its slow file
            Measurement batch = r.measurement("batch");
            assertThat(batch.count()).isEqualTo(10);
            assertThat(batch.percentileNanos(50)).isLessThan(30_000_000L + 4 * (plain + late));
            assertThat(batch.percentileNanos(70)).isGreaterThanOrEqualTo(30_000_000L);
            try (Stream<Path> files = Files.list(data)) {
                assertThat(files).hasSize(40);
            }
        }
    }

    @Test
    void theGpuPath_givesEachRankItsOwnGpuAndNccl_byConstruction() throws Exception {
        // the script's own placement, asked with CUDA present and absent, on a machine that has no GPU
        Path script = Files.createDirectories(target.resolve("py")).resolve("prism_torch_bench.py");
        try (java.io.InputStream in = TorchBenchmark.class.getResourceAsStream("/dev/prism/torch/prism_torch_bench.py")) {
            Files.copy(in, script);
        }
        Process p = new ProcessBuilder(TorchRun.defaultPython().toString(), "-c",
                "import prism_torch_bench as b; print(*b.placement(True, 3)); print(*b.placement(False, 3))")
                .directory(script.getParent().toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out.strip().split("\\n")).containsExactly("cuda:3 nccl", "cpu gloo");
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
        // in PRISM's words, for torch.save's file as for DCP's shards: which file, what it holds, what it should
        assertThat(r.failure().message()).containsPattern(name.equals("ddp_load")
                ? "model\\.pt is truncated: holds \\d+ bytes, torch\\.save wrote \\d+"
                : "\\.distcp is truncated: holds \\d+ bytes, the checkpoint's metadata needs \\d+");
    }

    /**
     * "Every element is checked": one byte inverted inside a tensor's data between save and load, which neither
     * torch.load nor dcp.load notices (they read no checksum; a float sum of the state could not see a low mantissa
     * bit), fails the verification after the load, naming the tensor.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fsdp_load", "ddp_load", "rl_load"})
    void aByteFlippedInsideATensor_failsValidationNamingIt(String name) {
        RunResult r = run(TorchBenchmarks.named(name, Map.of("params", String.valueOf(SMALL), "fault", "flip_element")), 2);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().kind()).as(r.failure().message()).isEqualTo(Failure.Kind.VALIDATION);
        // DCP: the first model tensor, by its key; torch.save: whichever tensor its first data entry holds
        assertThat(r.failure().message()).containsPattern("1 of the \\d+ saved tensors differ after [^(]*\\((model|optimizer)\\.[\\w.]+\\)")
                .contains(name.equals("ddp_load") ? "model.pt" : "dcp");
    }

    /**
     * Timing-dependent: how soon torchrun's workers stop depends on the host. The bound is PRISM's own grace before it
     * escalates to SIGKILL (10 s) plus an observer measured in the same test: how long the run took to start torchrun.
     */
    @Test
    @org.junit.jupiter.api.Tag("timing")
    void anInterruption_stopsTorchrunAndItsWorkers_andCleansUp() throws Exception {
        dev.prism.Interruption stop = dev.prism.Interruption.create();
        long began = System.nanoTime();
        java.util.concurrent.CompletableFuture<RunResult> running = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Scenario.builder().target(target).benchmark(TorchBenchmarks.fsdpSave().parameters(SMALL)).tasks(2)
                        .timeout(Duration.ofMinutes(5)).interruption(stop).build().execute().runs().get(0));
        // torchrun itself, not the version check that comes before it
        dev.prism.testing.Await.until("torchrun started", () -> ProcessHandle.current().descendants()
                .anyMatch(h -> h.info().commandLine().orElse("").contains("torch.distributed.run")));
        long interrupted = System.nanoTime();
        stop.interrupt("SIGTERM");
        RunResult r = running.get(60, java.util.concurrent.TimeUnit.SECONDS);

        double starting = (interrupted - began) / 1e9;
        assertThat((System.nanoTime() - interrupted) / 1e9).as("seconds to stop; %.1f s to start torchrun", starting)
                .isLessThan(10 + starting);
        assertThat(r.failure().kind()).isEqualTo(dev.prism.Failure.Kind.INTERRUPTED);
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aCrashingWorker_failsTheRunWithItsTraceback_andLeavesNothingInTheTemporaryDirectory(@TempDir Path tmp)
            throws IOException {
        // torchrun's agents put their logs (an error file for the crashed worker among them) in a directory of
        // TMPDIR unless told where: PRISM tells them its run directory, so TMPDIR stays as it was
        TorchBenchmark crashing = TorchBenchmarks.ddpSave().parameters(SMALL).fault(TorchFault.CRASH_RANK1);
        crashing = crashing.torchRun(crashing.torchRun().toBuilder().environment("TMPDIR", tmp.toString()).build());
        RunResult r = run(crashing, 2);
        assertThat(r.passed()).isFalse();
        String all = r.repetitions().get(0).ranks().stream().map(x -> String.valueOf(x.failure())).reduce("", String::concat);
        assertThat(all).contains("crash_rank1: rank 1 was told to crash").contains("Traceback");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left).isEmpty();
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
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
