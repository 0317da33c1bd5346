package dev.prism.torch;

import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioListener;
import dev.prism.Stall;
import dev.prism.SyscallTracing;
import dev.prism.spi.SyscallTrace;
import dev.prism.testing.FaultFs;
import dev.prism.testing.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which file call got slow, under real torchrun at two ranks: faultfs delays one call on one file by a known amount,
 * and the attribution — in the kernel (bpftrace) or by Python interposition — names that call on that file with at
 * least the delay, and the same call on every other file well below it. Skipped without torch, FUSE or bpftrace
 * unless PRISM_REQUIRE_TORCH / PRISM_REQUIRE_FUSE / PRISM_REQUIRE_BPF say they must be there.
 */
class TorchAttributionTest {
    private static final Duration DELAY = Duration.ofMillis(600);

    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    private static void bpfIsThere() {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
    }

    private RunResult run(TorchBenchmark b, Path where, List<Stall> heard) {
        RunResult r = Scenario.builder().target(where).benchmark(b).tasks(2).timeout(Duration.ofMinutes(5))
                .stallThreshold(Duration.ofMillis(300)).listener(new ScenarioListener() {
                    @Override
                    public void stallDetected(Stall stall) {
                        heard.add(stall);
                    }
                }).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        return r;
    }

    /** Each rank's DCP load opens its own shard: opening rank 1's takes 600 ms more, and the attribution says so. */
    @Test
    void fsdpLoad_whereOneShardIsSlowToOpen_namesThatShardsOpen_inTheKernelAndInPython(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(target.resolve("fs"));
        try (FaultFs fs = FaultFs.mount(dir)) {
            fs.rule("open", "*/__1_0.distcp", DELAY, null);
            for (SyscallTracing mode : List.of(SyscallTracing.KERNEL, SyscallTracing.PYTHON)) {
                if (mode == SyscallTracing.KERNEL) {
                    bpfIsThere();
                }
                String open = mode == SyscallTracing.KERNEL ? "syscall:openat" : "syscall:open";
                List<Stall> heard = new CopyOnWriteArrayList<>();
                Path where = Files.createDirectories(fs.mountPoint().resolve(mode.name()));
                // a preset's ranks each hold their own job rank's tensors: each load reads its own shard only
                FsdpLoad load = TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16)
                        .precision(TorchPrecision.BF16).syscalls(mode);
                // torch makes a compiler cache directory in TMPDIR on some imports unless told where: PRISM tells it
                // the run's own directory, so TMPDIR stays as it was
                load = load.torchRun(load.torchRun().toBuilder().environment("TMPDIR", tmp.toString()).build());
                RunResult r = run(load, where, heard);
                List<RankResult> ranks = r.repetitions().get(0).ranks();
                Measurement slow = ranks.get(1).measurements().get(open);
                assertThat(slow).as(mode + ": rank 1's " + open + " in " + ranks.get(1).measurements().keySet()).isNotNull();
                assertThat(slow.maxNanos()).as(mode + ": rank 1's slowest open").isGreaterThanOrEqualTo(DELAY.toNanos());
                assertThat(ranks.get(1).notes().get("syscalls_slowest")).as(mode + ": rank 1's slowest calls")
                        .startsWith(open.substring("syscall:".length()) + " ").contains("__1_0.distcp");
                // rank 0 opened its own shard and the metadata, never the delayed one
                assertThat(ranks.get(0).measurements().get(open).maxNanos()).as(mode + ": rank 0's slowest open, of "
                                + ranks.get(0).notes().get("syscalls_slowest"))
                        .isLessThan(DELAY.toNanos() / 2);
                assertThat(ranks.get(0).notes().get("syscalls_slowest")).doesNotContain("__1_0.distcp");
                assertThat(r.notes().get("syscalls")).startsWith(mode.name().toLowerCase(java.util.Locale.ROOT));
                if (mode == SyscallTracing.KERNEL) {
                    // past the stall threshold: told with its rank and path as soon as it returned, and kept
                    assertThat(heard).anySatisfy(s -> {
                        assertThat(s.rank()).isEqualTo(1);
                        assertThat(s.operation()).isEqualTo("syscall:openat");
                        assertThat(s.path()).endsWith("__1_0.distcp");
                        assertThat(s.durationNanos()).isGreaterThanOrEqualTo(DELAY.toNanos());
                    });
                    assertThat(ranks.get(1).stalls()).anySatisfy(s -> assertThat(s.path()).endsWith("__1_0.distcp"));
                }
                try (java.util.stream.Stream<Path> left = Files.list(tmp)) {
                    assertThat(left).as(mode + ": what the run left in TMPDIR").isEmpty();
                }
            }
        }
    }

    /**
     * A DataLoader's reads happen in its workers: one image-folder file slow to open, and one tar shard slow to read,
     * are named by the rank whose worker read them — in the kernel (the workers are the rank's children) and, for the
     * open, in Python (each worker hands its calls over with its samples).
     */
    @Test
    void dataloader_whereOneFileIsSlow_namesItFromTheWorkers(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(target.resolve("fs"));
        try (FaultFs fs = FaultFs.mount(dir)) {
            Path images = fs.mountPoint().resolve("images");
            Path tars = fs.mountPoint().resolve("tars");
            TorchDataset.builder().format(TorchDataFormat.IMAGE_FOLDER).samples(200).sampleSize(dev.prism.DataSize.ofKiB(8))
                    .classes(4).build().create(images, TorchRun.builder().build());
            TorchDataset.builder().format(TorchDataFormat.TAR_SHARDS).samples(200).sampleSize(dev.prism.DataSize.ofKiB(8))
                    .shardSize(dev.prism.DataSize.ofKiB(256)).build().create(tars, TorchRun.builder().build());
            fs.rule("open", "*/sample-000000123.bin", DELAY, null);
            fs.rule("read", "*/shard-00001.tar", DELAY, null);
            for (SyscallTracing mode : List.of(SyscallTracing.KERNEL, SyscallTracing.PYTHON)) {
                if (mode == SyscallTracing.KERNEL) {
                    bpfIsThere();
                }
                String open = mode == SyscallTracing.KERNEL ? "openat" : "open";
                Path where = Files.createDirectories(target.resolve("runs-" + mode));
                Dataloader load = TorchBenchmarks.dataloader().dataset(images).syscalls(mode);
                load = load.torchRun(load.torchRun().toBuilder().environment("TMPDIR", tmp.toString()).build());
                RunResult r = run(load, where, new CopyOnWriteArrayList<>());
                assertThat(r.repetitions().get(0).ranks()).as(mode + ": the rank whose worker opened sample 123")
                        .anySatisfy(rank -> {
                            assertThat(rank.notes().get("syscalls_slowest")).startsWith(open + " ")
                                    .contains("sample-000000123.bin");
                            assertThat(rank.measurements().get("syscall:" + open).maxNanos())
                                    .isGreaterThanOrEqualTo(DELAY.toNanos());
                        });
                if (mode == SyscallTracing.KERNEL) {
                    // tarfile reads through a file object, which only the kernel sees
                    Dataloader stream = TorchBenchmarks.dataloader().dataset(tars).syscalls(mode);
                    stream = stream.torchRun(stream.torchRun().toBuilder().environment("TMPDIR", tmp.toString()).build());
                    RunResult t = run(stream, where, new CopyOnWriteArrayList<>());
                    assertThat(t.repetitions().get(0).ranks()).as("the rank whose worker streamed shard 1")
                            .anySatisfy(rank -> assertThat(rank.notes().get("syscalls_slowest")).startsWith("read ")
                                    .contains("shard-00001.tar"));
                }
            }
        }
    }

    /** torch.save writes through its C++ writer, then PRISM's script fsyncs the file: the kernel sees the delayed fsync. */
    @Test
    void ddpSave_whereFsyncIsSlow_showsItUnderSyscallFsync(@TempDir Path tmp) throws Exception {
        bpfIsThere();
        Path dir = Files.createDirectories(target.resolve("fs"));
        try (FaultFs fs = FaultFs.mount(dir)) {
            fs.rule("fsync", "*/model.pt*", DELAY, null);
            TorchBenchmark save = TorchBenchmarks.ddpSave().parameters(2_000_000).layers(2).syscalls(SyscallTracing.KERNEL);
            // torch made a compiler cache directory in TMPDIR here (torchinductor_<user>) before PRISM named one in the
            // run's directory
            save = save.torchRun(save.torchRun().toBuilder().environment("TMPDIR", tmp.toString()).build());
            RunResult r = run(save, fs.mountPoint(), new CopyOnWriteArrayList<>());
            try (java.util.stream.Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("what the run left in TMPDIR").isEmpty();
            }
            RankResult writer = r.repetitions().get(0).ranks().get(0);
            Measurement fsync = writer.measurements().get("syscall:fsync");
            assertThat(fsync).as("rank 0's calls: " + writer.measurements().keySet()).isNotNull();
            assertThat(fsync.maxNanos()).isGreaterThanOrEqualTo(DELAY.toNanos());
            assertThat(writer.notes().get("syscalls_slowest")).startsWith("fsync ").contains("model.pt");
            // the write calls carried the checkpoint's bytes: at least the file torch.save wrote
            assertThat(writer.measurements().get("syscall:write").bytes()).isGreaterThanOrEqualTo(r.measurement("save").bytes());
        }
    }
}
