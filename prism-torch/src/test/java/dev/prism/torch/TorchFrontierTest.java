package dev.prism.torch;

import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.FaultFs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Frontier presets under real torchrun at two ranks: each rank materialises only its job rank's shard, DCP's writer
 * options and async save, save/load cycles with the page cache proved empty before each load, and the loading paths
 * (mmap against read) seen by the kernel and by faultfs. Skipped without torch unless PRISM_REQUIRE_TORCH=1.
 */
class TorchFrontierTest {
    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    private static RunResult run(Benchmark b, Path where) {
        return TorchPresent.passedOnTwoRanks(where, b);
    }

    /** Real layouts of each family, chosen so that a rank's shard is tens of megabytes: ranks 0-1 of each job. */
    @Test
    void eachPresetFamily_writesPerRankTheBytesItsJobRankHolds() {
        record Case(TorchModel model, ParallelLayout layout, TorchPrecision precision) {
        }
        for (Case c : List.of(new Case(TorchModel.LLAMA3_8B, ParallelLayout.of(8, 32, 16), TorchPrecision.MIXED),
                new Case(TorchModel.LLAMA3_70B, ParallelLayout.of(8, 80, 32), TorchPrecision.BF16),
                new Case(TorchModel.LLAMA3_405B, ParallelLayout.of(8, 126, 64), TorchPrecision.FP32))) {
            // the whole job's .metadata for the 4096-rank job only: at 20,480 and 64,512 ranks rank 0 would plan and
            // pickle millions of chunks (TorchJobCheckpointTest holds the job's metadata to Java's count)
            FsdpSave save = TorchBenchmarks.fsdpSave().model(c.model()).layout(c.layout().tp(), c.layout().pp(), c.layout().dp())
                    .precision(c.precision()).jobMetadata(c.model() == TorchModel.LLAMA3_8B);
            RunResult r = run(save, target);
            List<RankResult> ranks = r.repetitions().get(0).ranks();
            for (RankResult rank : ranks) {
                long computed = c.layout().shard(c.model(), rank.rank(), true).bytes(c.precision(), TorchOptimizer.ADAM);
                // the tensors the Python side built, against Java's arithmetic: exactly; the files DCP wrote: within 1%
                assertThat(rank.counters().get("shard_bytes")).as(c.model() + " rank " + rank.rank()).isEqualTo(computed);
                long metadata = rank.counters().getOrDefault("metadata_bytes", 0L);
                assertThat((double) rank.measurements().get("save").bytes() - metadata).as(c.model() + " rank " + rank.rank())
                        .isCloseTo(computed, within(computed * 0.01));
                assertThat(rank.notes()).containsEntry("job_world_size", String.valueOf(c.layout().world()))
                        .containsEntry("job_layout", c.layout().toString())
                        .containsEntry("emulates", "ranks 0-1 of " + c.layout().world() + ", " + c.model().label() + " " + c.layout());
            }
            assertThat(r.counters().get("model_parameters")).isEqualTo(c.model().parameterCount());
        }
    }

    @Test
    void asyncSave_givesTrainingBackBeforeTheCheckpointIsDurable_andRecordsTheStagingMemory() {
        RunResult r = run(TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).asyncSave(true)
                .threadCount(2).singleFilePerRank(true), target);
        assertThat(r.measurement("blocked").count()).isEqualTo(2);
        assertThat(r.measurement("durable").count()).isEqualTo(2);
        for (RankResult rank : r.repetitions().get(0).ranks()) {
            Measurement blocked = rank.measurements().get("blocked");
            Measurement durable = rank.measurements().get("durable");
            // one save per rank, both timed from the same start: training could go on before the checkpoint was durable
            assertThat(blocked.maxNanos()).isPositive().isLessThanOrEqualTo(durable.minNanos());
            assertThat(rank.counters()).containsKey("staging_memory_bytes");
            assertThat(rank.notes()).containsEntry("save_mode", "dcp.async_save, thread");
            // two writer threads: two files per rank (rank 0 the metadata too)
            assertThat(rank.counters().get("checkpoint_files")).isEqualTo(rank.rank() == 0 ? 3 : 2);
        }
        assertThat(r.measurements()).doesNotContainKey("save");
    }

    /**
     * The four clocks of every save, from one start: blocked ≤ staged ≤ durable ≤ visible. dcp.save blocks until the
     * checkpoint is durable, so its first three are one; async_save in a thread or in a process DCP keeps returns
     * once the state is staged. A staged async save needs a GPU and says so on a rank without one.
     */
    @Test
    void everySave_isTimedOnFourClocks_inTheirOrder_forEverySaveModeThisTorchHas() {
        for (String mode : new String[]{"sync", "thread", "process"}) {
            FsdpSave b = TorchBenchmarks.fsdpSave().parameters(2_000_000);
            if (!mode.equals("sync")) {
                b = b.asyncSave(true).asyncMode(TorchAsyncMode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)));
            }
            RunResult r = run(b, target);
            for (RankResult rank : r.repetitions().get(0).ranks()) {
                long blocked = rank.measurements().get("blocked").maxNanos();
                long staged = rank.measurements().get("staged").maxNanos();
                long durable = rank.measurements().get("durable").maxNanos();
                long visible = rank.measurements().get("visible").maxNanos();
                assertThat(blocked).as(mode).isPositive().isLessThanOrEqualTo(staged);
                assertThat(staged).as(mode).isLessThanOrEqualTo(durable);
                assertThat(durable).as(mode).isLessThanOrEqualTo(visible);
                assertThat(rank.notes()).containsEntry("visible_from", "this node (every rank is on one)");
                if (mode.equals("sync")) {
                    assertThat(blocked).isEqualTo(durable);
                    assertThat(rank.measurements().get("save").maxNanos()).isEqualTo(durable);
                } else {
                    assertThat(blocked).as(mode).isEqualTo(staged);
                    assertThat(rank.notes()).containsEntry("save_mode", "dcp.async_save, " + mode);
                }
            }
        }
        RunResult staged = Scenario.builder().target(target).tasks(2).timeout(Duration.ofMinutes(5))
                .benchmark(TorchBenchmarks.fsdpSave().parameters(2_000_000).asyncSave(true).asyncMode(TorchAsyncMode.STAGED))
                .build().execute().runs().get(0);
        if (!staged.passed()) { // on a machine without a GPU
            assertThat(String.valueOf(staged.failure())).contains("async_mode=staged stages on a CUDA stream")
                    .contains("this rank has no GPU");
        }
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().asyncMode(TorchAsyncMode.PROCESS).footprint(2))
                .hasMessageContaining("async_mode=process says how async_save hands the state over");
    }

    @Test
    void saveLoadCycles_dropTheCheckpointBeforeEachLoad_andTakeEachFromItsSlowestRank() {
        RunResult r = run(TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).saves(3).loads(3)
                .singleFilePerRank(false).dropCache(true), target);
        assertThat(r.measurement("save").count()).isEqualTo(6);
        assertThat(r.measurement("load").count()).isEqualTo(6);
        // rank 0 records each cycle's slowest and fastest rank; the slowest's rate is over every rank's bytes
        assertThat(r.measurement("save_slowest").count()).isEqualTo(3);
        assertThat(r.measurement("load_slowest").count()).isEqualTo(3);
        assertThat(r.measurement("load_slowest").bytes()).isEqualTo(r.measurement("load").bytes());
        assertThat(r.measurement("load_slowest").sumNanos()).isGreaterThanOrEqualTo(r.measurement("load_fastest").sumNanos());
        long shards = 0;
        long fromStorage = 0;
        for (RankResult rank : r.repetitions().get(0).ranks()) {
            assertThat(rank.measurements().get("load").sumNanos()).isLessThanOrEqualTo(r.measurement("load_slowest").sumNanos());
            long shard = rank.counters().get("shard_bytes");
            shards += shard;
            fromStorage += rank.counters().get("load_storage_read_bytes");
            // mincore saw none of the checkpoint cached before any of the three loads; the kernel read it from the disk
            assertThat(rank.counters().get("resident_pages_before_load")).isZero();
            assertThat(rank.counters().get("pages_before_load")).isPositive();
            assertThat(rank.counters().get("load_storage_read_bytes")).isGreaterThanOrEqualTo(3 * shard * 9 / 10);
            assertThat(rank.measurements().get("load").bytes()).isEqualTo(3 * shard);
            // single_file_per_rank=false: a file per tensor
            assertThat(rank.counters().get("checkpoint_files")).isGreaterThan(rank.counters().get("shard_tensors") / 2);
        }
        // each load also reads the job's .metadata (dcp.load on every rank; the node's page cache serves the second)
        long metadata = r.counters().get("metadata_bytes");
        assertThat(fromStorage).isLessThanOrEqualTo(3 * (shards + metadata) * 12 / 10);
        // the checkpoint before the last is removed once the next is whole: one directory left at the end
        assertThat(r.measurement("drop_cache").count()).isEqualTo(6);
    }

    /**
     * faultfs delays every read by 1 ms: both loading paths fetch the checkpoint through it, one by read calls, the
     * other by page faults; the kernel's counts of both (/proc/self/io, /proc/self/stat) tell them apart.
     * Ranks 8-9 of llama3-8b tp=8 pp=32 hold a layer of the second stage each, written by torch.save (164 MB in bf16
     * with SGD's momentum).
     */
    @Test
    void mmapAgainstRead_onStorageThatDelaysEveryRead_areBothSeenByTheKernelAndTheFilesystem() throws Exception {
        Path dir = Files.createDirectories(target.resolve("fs"));
        try (FaultFs fs = FaultFs.mount(dir)) {
            fs.rule("read", "*model-pp*", Duration.ofMillis(1), null);
            for (boolean mmap : new boolean[]{false, true}) {
                fs.clearLog();
                Path where = Files.createDirectories(fs.mountPoint().resolve(mmap ? "mmap" : "read"));
                RunResult r = run(TorchBenchmarks.ddpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 1).firstRank(8)
                        .precision(TorchPrecision.BF16).optimizer(TorchOptimizer.SGD).mmap(mmap).dropCache(true), where);
                long reads = fs.log().stream().filter(line -> line.startsWith("read ") && line.contains("/model-pp")).count();
                assertThat(reads).as("reads faultfs served, mmap=" + mmap).isPositive();
                long file = r.counters().get("pages_before_load") * 4096;
                long returned = r.counters().get("load_read_call_bytes");
                long faults = r.counters().get("load_minor_faults") + r.counters().get("load_major_faults");
                if (mmap) {
                    // the mapping was faulted in (a fault maps many pages: fault-around, large folios), not read
                    assertThat(faults).as("page faults through the mapping").isPositive();
                    assertThat(returned).as("bytes read() returned, mmap").isLessThan(file / 10);
                } else {
                    assertThat(returned).as("bytes read() returned, read").isGreaterThanOrEqualTo(file * 9 / 10);
                }
                // every read waited 1 ms and each rank reads one after another: the loads took at least half of that
                assertThat(r.measurement("load").sumNanos()).isGreaterThanOrEqualTo(reads / 2 * 1_000_000L);
                assertThat(r.counters().get("resident_pages_before_load")).isZero();
            }
        }
    }

    /**
     * Ranks 2-3 of llama3-8b at tp=1 pp=32 dp=2 are the two data-parallel replicas of stage 1 (one layer, 1.3 GB
     * in bf16 with SGD's momentum): both read the shard from storage, or the first reads it and broadcasts it. What
     * read() returned to each (rchar of /proc/self/io) tells the two apart; every element is checked either way.
     */
    @Test
    void replicaReads_everyReplicaReadingAgainstOneReadingAndBroadcasting_areSeenPerRankByTheKernel() {
        for (boolean broadcast : new boolean[]{false, true}) {
            RunResult r = run(TorchBenchmarks.ddpLoad().model(TorchModel.LLAMA3_8B).layout(1, 32, 2).firstRank(2)
                    .precision(TorchPrecision.BF16).optimizer(TorchOptimizer.SGD).replicaBroadcast(broadcast)
                    .dropCache(true), target);
            long file = r.repetitions().get(0).ranks().get(0).counters().get("pages_before_load") * 4096;
            for (RankResult rank : r.repetitions().get(0).ranks()) {
                long returned = rank.counters().get("load_read_call_bytes");
                if (!broadcast || rank.rank() == 0) {
                    assertThat(returned).as("read() bytes, rank " + rank.rank() + ", broadcast=" + broadcast)
                            .isGreaterThanOrEqualTo(file * 9 / 10);
                } else {
                    assertThat(returned).as("read() bytes of the replica that received it").isLessThan(file / 100);
                    assertThat(rank.counters().get("load_storage_read_bytes")).isLessThan(file / 100);
                }
                assertThat(rank.notes()).containsEntry("replica_reads", broadcast
                        ? "one replica reads, broadcasts to the others" : "every replica reads");
            }
            assertThat(r.parameters().containsKey("replica_broadcast")).isEqualTo(broadcast);
        }
    }

    /** from_pretrained's two paths over the same safetensors files, from a dropped page cache, in one invocation */
    @Test
    void hfLoad_throughMmapOrReadingTheFilesFirst_isSeenByTheKernel() {
        List<RunResult> both = Scenario.builder().target(target).tasks(2).timeout(Duration.ofMinutes(5))
                .benchmark(TorchBenchmarks.hfLoad().model(TorchModel.LLAMA).parameters(3_000_000).layers(2).dropCache(true).mmap(true))
                .benchmark(TorchBenchmarks.hfLoad().model(TorchModel.LLAMA).parameters(3_000_000).layers(2).dropCache(true).mmap(false))
                .build().execute().runs();
        for (RunResult r : both) {
            assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
            boolean mmap = r.parameters().get("mmap").equals("true");
            long file = r.counters().get("pages_before_load") * 4096;
            long returned = r.counters().get("load_read_call_bytes");
            assertThat(r.counters().get("resident_pages_before_load")).isZero();
            if (mmap) {
                assertThat(returned).as("bytes read() returned through mmap").isLessThan(file / 10);
                assertThat(r.counters().get("load_minor_faults") + r.counters().get("load_major_faults")).isPositive();
            } else {
                assertThat(returned).as("bytes read() returned reading the files").isGreaterThanOrEqualTo(file * 9 / 10);
            }
            // on a block device the kernel also counts what came from the disk: the whole model once (both ranks read
            // the same files through one page cache), either way
            assertThat(r.counters().get("load_storage_read_bytes")).isGreaterThanOrEqualTo(file / 2 * 9 / 10);
        }
    }
}
