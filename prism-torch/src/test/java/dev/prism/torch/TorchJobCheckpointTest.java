package dev.prism.torch;

import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.testing.TargetWatcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The job's DCP checkpoint written by two processes that play two of its ranks: the {@code .metadata} rank 0 writes
 * holds every rank's pieces, each job rank's pieces land in that rank's own file, and a restore into another layout
 * reads the saved ranks Java's arithmetic says it must and checks every element it loads (the run fails otherwise).
 * A watcher on the target sees the files and their sizes while the run holds them. Skipped without torch unless
 * PRISM_REQUIRE_TORCH=1.
 */
class TorchJobCheckpointTest {
    private static final ParallelLayout SAVED = ParallelLayout.of(8, 32, 16);

    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    /** Weights, fp32 master copy and Adam's two states per tensor piece, and each step count written once. */
    private static long chunksOf(ParallelLayout layout, long from, long to) {
        long chunks = 0;
        for (long r = from; r < to; r++) {
            ParallelLayout.Shard s = layout.shard(TorchModel.LLAMA3_8B, r, true);
            chunks += 4L * s.tensors() + s.steps();
        }
        return chunks;
    }

    @Test
    void theMetadata_holdsEveryRankOfTheJob_andEachJobRankWritesItsOwnFile() throws Exception {
        RunResult r;
        Map<String, Long> seen;
        Map<String, Long> files;
        try (TargetWatcher w = new TargetWatcher(target, false)) {
            r = TorchPresent.passedOnTwoRanks(target,
                    TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).dropCache(true));
            seen = w.seen();
            files = w.seen("", ".distcp");
        }
        assertThat(files).containsOnlyKeys("__0_0.distcp", "__1_0.distcp");
        for (int rank = 0; rank < 2; rank++) {
            long computed = SAVED.shard(TorchModel.LLAMA3_8B, rank, true).bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
            // the file format adds a few hundred bytes per tensor
            assertThat((double) files.get("__" + rank + "_0.distcp")).isCloseTo(computed, within(computed * 0.01));
        }
        long metadata = r.counters().get("metadata_bytes");
        assertThat(seen.get(".metadata")).isEqualTo(metadata);
        // the 4096-rank job's chunks, as DCP read them back from the file, against Java's count of every rank's pieces
        assertThat(r.repetitions().get(0).ranks()).allSatisfy(rank ->
                assertThat(rank.counters().get("metadata_chunks")).isEqualTo(chunksOf(SAVED, 0, SAVED.world())));
        // the two ways a restart gets it, each timed on every rank over the whole file
        for (String way : new String[]{"metadata_read", "metadata_broadcast"}) {
            assertThat(r.measurement(way).count()).isEqualTo(2);
            assertThat(r.measurement(way).bytes()).isEqualTo(2 * metadata);
        }
    }

    @Test
    void withoutTheJobsMetadata_onlyThePiecesOfTheRanksPlayedAreListed() {
        RunResult r = TorchPresent.passedOnTwoRanks(target,
                    TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).jobMetadata(false));
        assertThat(r.counters().get("metadata_chunks")).isEqualTo(2 * chunksOf(SAVED, 0, 2));
        assertThat(r.parameters()).containsEntry("job_metadata", "false");
    }

    /**
     * Saved at tp=8 dp=16, restored at tp=4 dp=32 (a job of the same size laid out again): rank 0 of tp=4 needs rows
     * of the row-split projections that one saved rank holds and columns of the column-split ones that two do; the
     * save writes job ranks 0-3, as {@link ParallelLayout#readBy} says, and every element loaded is checked.
     */
    @Test
    void aRestoreIntoAnotherLayout_readsTheSavedRanksItNeeds_andEveryElementIsChecked() throws Exception {
        ParallelLayout restored = ParallelLayout.of(4, 32, 32);
        var read = SAVED.readBy(TorchModel.LLAMA3_8B, restored, 0, 2);
        RunResult r;
        Map<String, Long> files;
        try (TargetWatcher w = new TargetWatcher(target, false)) {
            r = TorchPresent.passedOnTwoRanks(target,
                    TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).restoreInto(4, 0, 32)
                    .dropCache(true));
            files = w.seen("", ".distcp");
        }
        assertThat(read.keySet()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(files).containsOnlyKeys("__0_0.distcp", "__1_0.distcp", "__2_0.distcp", "__3_0.distcp");
        read.forEach((rank, shard) -> {
            long computed = shard.bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
            assertThat((double) files.get("__" + rank + "_0.distcp")).as("job rank " + rank)
                    .isCloseTo(computed, within(computed * 0.01));
        });
        for (RankResult rank : r.repetitions().get(0).ranks()) {
            assertThat(rank.notes()).containsEntry("restores_into", "llama3-8b tp=4 pp=32 dp=32")
                    .containsEntry("saved_ranks", "0-3");
            ParallelLayout.Shard held = restored.shard(TorchModel.LLAMA3_8B, rank.rank(), true);
            // what the rank loaded is its piece of the restored layout, with the step count of every tensor it holds
            long expected = held.parameters() * TorchPrecision.MIXED.bytesPerParameter(TorchOptimizer.ADAM) + 4L * held.tensors();
            assertThat(rank.measurements().get("load").bytes()).isEqualTo(expected);
            assertThat(rank.counters().get("resident_pages_before_load")).isZero();
        }
    }
}
