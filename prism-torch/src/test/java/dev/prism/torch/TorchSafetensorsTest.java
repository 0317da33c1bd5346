package dev.prism.torch;

import dev.prism.DataSize;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.testing.TargetWatcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model's weights saved as Hugging Face safetensors through DCP's writer by two ranks, merged into full files by
 * rank 0 alone or by both, and loaded by every rank through mmap or by reading. A watcher on the target sees the
 * ranks' files and the full files; the bytes each rank says it merged are the full files' sizes, and the kernel's
 * counters say which loads read the files and which mapped them, and that both took them from the disk in the clock. Skipped without torch unless PRISM_REQUIRE_TORCH=1.
 */
class TorchSafetensorsTest {
    /** 12 layers of about 1.3 M parameters, full files of at most 8 MiB: several files, so every rank has some to merge. */
    private static final long PARAMS = 16_000_000;

    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    private static FsdpSave save(TorchConsolidation who) {
        return TorchBenchmarks.fsdpSave().parameters(PARAMS).layers(12).format(TorchCheckpointFormat.SAFETENSORS)
                .consolidate(who).shardSize(DataSize.ofMiB(8));
    }

    @Test
    void oneRankMerges_whileTheOtherWaits_andTheMergedBytesAreTheFullFiles() throws Exception {
        RunResult r;
        Map<String, Long> shards;
        Map<String, Long> full;
        try (TargetWatcher w = new TargetWatcher(target, false)) {
            r = TorchPresent.passedOnTwoRanks(target, save(TorchConsolidation.ONE_RANK));
            shards = w.seen("shard-", ".safetensors");
            full = w.seen("model-", ".safetensors");
        }
        // each rank wrote its own file of its shards; the full files hold the model's fp32 weights
        assertThat(shards.keySet()).anyMatch(f -> f.startsWith("shard-00001-")).anyMatch(f -> f.startsWith("shard-00002-"));
        long fullBytes = full.values().stream().mapToLong(Long::longValue).sum();
        long parameters = r.counters().get("model_parameters");
        assertThat(fullBytes).isGreaterThanOrEqualTo(4 * parameters).isLessThan(4 * parameters + (1 << 20));
        assertThat(full).hasSizeGreaterThan(2).allSatisfy((name, size) -> assertThat(size).isLessThanOrEqualTo(8L << 20));
        RankResult rank0 = r.repetitions().get(0).ranks().get(0);
        RankResult rank1 = r.repetitions().get(0).ranks().get(1);
        for (RankResult rank : new RankResult[]{rank0, rank1}) {
            String prefix = String.format("shard-%05d-", rank.rank() + 1);
            assertThat(rank.measurements().get("save").bytes()).as("rank " + rank.rank())
                    .isEqualTo(shards.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                            .mapToLong(Map.Entry::getValue).sum());
        }
        assertThat(rank0.measurements().get("consolidate").bytes()).isEqualTo(fullBytes);
        assertThat(rank1.measurements()).doesNotContainKey("consolidate");
        // rank 1 waited for rank 0's merge: both see it end at the same barrier
        assertThat(rank1.measurements().get("consolidated").count()).isEqualTo(1);
        assertThat(rank0.notes()).containsEntry("consolidated_by", "rank 0");
        assertThat(r.parameters()).containsEntry("format", "safetensors").containsEntry("consolidate", "one-rank");
    }

    @Test
    void everyRankMerges_itsShareOfTheFiles() throws Exception {
        RunResult r;
        long fullBytes;
        try (TargetWatcher w = new TargetWatcher(target, false)) {
            r = TorchPresent.passedOnTwoRanks(target, save(TorchConsolidation.EVERY_RANK));
            fullBytes = w.seen("model-", ".safetensors").values().stream().mapToLong(Long::longValue).sum();
        }
        long merged = 0;
        for (RankResult rank : r.repetitions().get(0).ranks()) {
            assertThat(rank.measurements().get("consolidate").bytes()).as("rank " + rank.rank()).isPositive();
            merged += rank.measurements().get("consolidate").bytes();
        }
        assertThat(merged).isEqualTo(fullBytes);
    }

    /**
     * Silent corruption: faultfs inverts the last byte of every read of the consolidated files. The load reads them
     * and its check of the loaded weights against the saved ones (each tensor's digest) fails the run as a validation
     * failure, naming the consolidated checkpoint and the tensors that differ; without the corruption the same benchmark
     * passes (the test below).
     */
    @Test
    void aCorruptedByteInTheConsolidatedFiles_failsTheLoadsCheck(@TempDir Path dir) throws Exception {
        try (dev.prism.testing.FaultFs fs = dev.prism.testing.FaultFs.mount(dir)) {
            fs.rule("read", "*/hf-model/*.safetensors", java.time.Duration.ZERO, "FLIP");
            FsdpLoad load = TorchBenchmarks.fsdpLoad().parameters(PARAMS).layers(12).format(TorchCheckpointFormat.SAFETENSORS)
                    .consolidate(TorchConsolidation.ONE_RANK).shardSize(DataSize.ofMiB(8)).dropCache(true).mmap(false);
            RunResult r = dev.prism.Scenario.builder().target(fs.mountPoint()).benchmark(load).tasks(2)
                    .timeout(java.time.Duration.ofMinutes(5)).build().execute().runs().get(0);
            assertThat(fs.log()).as("the consolidated files were read through faultfs")
                    .anyMatch(l -> l.startsWith("read ") && l.contains("/hf-model/") && l.endsWith(".safetensors"));
            assertThat(r.failure()).isNotNull();
            assertThat(r.failure().kind()).as(r.failure().toString()).isEqualTo(dev.prism.Failure.Kind.VALIDATION);
            assertThat(r.failure().message()).contains("hf-model")
                    .containsPattern("\\d+ of the 24 saved tensors differ after loading the consolidated safetensors"
                            + " \\(\\d+\\.(weight|bias)");
        }
    }

    @Test
    void theFullFiles_loadThroughMmap_orByReadingThem_andEveryWeightIsChecked() {
        FsdpLoad load = TorchBenchmarks.fsdpLoad().parameters(PARAMS).layers(12).format(TorchCheckpointFormat.SAFETENSORS)
                .consolidate(TorchConsolidation.EVERY_RANK).shardSize(DataSize.ofMiB(8)).dropCache(true);
        RunResult read = TorchPresent.passedOnTwoRanks(target, load.mmap(false));
        RunResult mapped = TorchPresent.passedOnTwoRanks(target, load.mmap(true));
        for (RunResult r : new RunResult[]{read, mapped}) {
            // the page cache dropped, the disk gave the files inside the clock, through either path (the two ranks
            // share one node's cache: one of them faults or reads a page in from the disk, the other finds it)
            long fileBytes = r.repetitions().get(0).ranks().get(0).measurements().get("load").bytes();
            long fromDisk = r.repetitions().get(0).ranks().stream()
                    .mapToLong(rank -> rank.counters().get("load_storage_read_bytes")).sum();
            assertThat((double) fromDisk).as(r.parameters().toString()).isGreaterThanOrEqualTo(0.9 * fileBytes);
            for (RankResult rank : r.repetitions().get(0).ranks()) {
                long files = rank.measurements().get("load").bytes();
                long readBytes = rank.counters().get("load_read_call_bytes");
                // reading returns every byte of every file through read calls; a mapping faults its pages in instead
                if (r == read) {
                    assertThat(readBytes).as("read, rank " + rank.rank()).isGreaterThanOrEqualTo(files);
                } else {
                    assertThat(readBytes).as("mmap, rank " + rank.rank()).isLessThan(files / 2);
                    assertThat(rank.counters().get("load_minor_faults") + rank.counters().get("load_major_faults"))
                            .isPositive();
                }
            }
        }
        assertThat(mapped.parameters()).containsEntry("mmap", "true");
    }
}
