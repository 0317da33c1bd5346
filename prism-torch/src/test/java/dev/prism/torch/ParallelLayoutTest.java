package dev.prism.torch;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The arithmetic of a preset's shards, held to the architecture's parameter count and to MLPerf Storage's sizes. */
class ParallelLayoutTest {
    private static final double GIB = 1L << 30;

    @Test
    void presets_haveTheirArchitecturesParameterCounts() {
        // the model cards' 8.03B, 70.6B and 405.9B, from hidden size, layers, heads, KV heads, feed-forward and vocabulary
        assertThat(TorchModel.LLAMA3_8B.parameterCount()).isEqualTo(8_030_261_248L);
        assertThat(TorchModel.LLAMA3_70B.parameterCount()).isEqualTo(70_553_706_496L);
        assertThat(TorchModel.LLAMA3_405B.parameterCount()).isEqualTo(405_853_388_800L);
        assertThat(TorchModel.GPT2.isPreset()).isFalse();
        assertThat(TorchModel.LLAMA3_405B.label()).isEqualTo("llama3-405b");
    }

    @Test
    void aPresetsRecordedParameters_leaveOutTheSizeItDoesNotUse_andAWholeModelsTheLayoutItDoesNotUse() {
        var preset = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_8B).recordedParameters();
        assertThat(preset).containsKeys("model", "tp", "pp", "dp", "precision").doesNotContainKeys("params", "layers", "batch", "fault");
        var whole = TorchBenchmarks.fsdpSave().recordedParameters();
        assertThat(whole).containsKeys("model", "params", "layers", "batch").doesNotContainKeys("tp", "pp", "dp", "first_rank", "precision");
    }

    @Test
    void theWholeJobsCheckpoint_isWithinOnePercentOfMlperfStoragesPublishedSizes() {
        // MLPerf Storage v3's checkpoints: 105 GB (8b, 1x1x8), 912 GB (70b, 8x1x8), 5.29 TB (405b, 8x32x2), its GB
        // being GiB; bf16 weights, an fp32 master copy and Adam's two fp32 states: 14 bytes per parameter
        assertThat(jobBytes(TorchModel.LLAMA3_8B, ParallelLayout.of(1, 1, 8)) / GIB).isCloseTo(105, within(105 * 0.01));
        assertThat(jobBytes(TorchModel.LLAMA3_70B, ParallelLayout.of(8, 1, 8)) / GIB).isCloseTo(912, within(912 * 0.01));
        assertThat(jobBytes(TorchModel.LLAMA3_405B, ParallelLayout.of(8, 32, 2)) / GIB).isCloseTo(5290, within(5290 * 0.01));
    }

    private static double jobBytes(TorchModel model, ParallelLayout layout) {
        long total = 0;
        for (long r = 0; r < layout.world(); r++) {
            total += layout.shard(model, r, true).bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
        }
        return total;
    }

    @Property(tries = 60)
    void everyParameterIsHeldByExactlyOneRank_withFsdpAndWithout(@ForAll("layouts") ParallelLayout layout,
                                                                  @ForAll("presets") TorchModel model) {
        long fsdp = 0;
        for (long r = 0; r < layout.world(); r++) {
            fsdp += layout.shard(model, r, true).parameters();
        }
        assertThat(fsdp).isEqualTo(model.parameterCount());
        // without FSDP the data-parallel replicas hold the same model-parallel shard: one replica holds the model
        ParallelLayout modelParallel = ParallelLayout.of(layout.tp(), layout.pp(), 1);
        long replica = 0;
        for (long r = 0; r < modelParallel.world(); r++) {
            replica += modelParallel.shard(model, r, false).parameters();
        }
        assertThat(replica).isEqualTo(model.parameterCount());
    }

    /** DCP writes a value every rank holds alike once: each tensor's step count by the rank holding its first piece. */
    @Property(tries = 60)
    void eachTensorsStepCount_isWrittenByExactlyOneRank(@ForAll("layouts") ParallelLayout layout,
                                                         @ForAll("presets") TorchModel model) {
        long steps = 0;
        for (long r = 0; r < layout.world(); r++) {
            steps += layout.shard(model, r, true).steps();
        }
        assertThat(steps).isEqualTo(ParallelLayout.of(1, 1, 1).shard(model, 0, false).tensors());
    }

    /** The largest shard, found among the stages' leading ranks, is the largest of every rank's, the lowest on a tie. */
    @Property(tries = 40)
    void theLargestShardRank_holdsAsMuchAsAnyRank(@ForAll("layouts") ParallelLayout layout, @ForAll("presets") TorchModel model,
                                                   @ForAll boolean fsdp, @ForAll TorchPrecision precision) {
        long best = -1;
        long bestRank = -1;
        for (long r = 0; r < layout.world(); r++) {
            long bytes = layout.shard(model, r, fsdp).bytes(precision, TorchOptimizer.ADAM);
            if (bytes > best) {
                best = bytes;
                bestRank = r;
            }
        }
        assertThat(layout.largestShardRank(model, fsdp, precision, TorchOptimizer.ADAM)).isEqualTo(bestRank);
    }

    @Test
    void ranksPlacedOnTheLargestShard_includeIt_withinTheJob() {
        // llama3-70b at tp=8 pp=4 dp=2: the last stage (ranks 48-63) holds the output head beside its 20 layers
        FsdpSave save = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_70B).layout(8, 4, 2);
        assertThat(ParallelLayout.of(8, 4, 2).largestShardRank(TorchModel.LLAMA3_70B, true, TorchPrecision.MIXED,
                TorchOptimizer.ADAM)).isEqualTo(48);
        assertThat(save.placedOnLargestShard(2).parameters().get(TorchBenchmark.FIRST_RANK)).isEqualTo(48);
        assertThat(save.placedOnLargestShard(20).parameters().get(TorchBenchmark.FIRST_RANK)).isEqualTo(44);
        assertThat(save.placedOnLargestShard(64).parameters().get(TorchBenchmark.FIRST_RANK)).isZero();
        assertThatThrownBy(() -> save.placedOnLargestShard(65)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("are not all ranks of the 64-rank job");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().placedOnLargestShard(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("synthetic is built whole on every rank: it has no layout");
    }

    /** A restore of the whole job, at any layout, reads every piece that holds anything. */
    @Property(tries = 20)
    void restoringEveryRank_readsEverySavedRank(@ForAll("smallLayouts") ParallelLayout saved,
                                                @ForAll("smallLayouts") ParallelLayout restored) {
        var read = saved.readBy(TorchModel.LLAMA3_8B, restored, 0, (int) restored.world());
        long parameters = read.values().stream().mapToLong(ParallelLayout.Shard::parameters).sum();
        int steps = read.values().stream().mapToInt(ParallelLayout.Shard::steps).sum();
        assertThat(parameters).isEqualTo(TorchModel.LLAMA3_8B.parameterCount());
        assertThat(steps).isEqualTo(ParallelLayout.of(1, 1, 1).shard(TorchModel.LLAMA3_8B, 0, false).tensors());
    }

    @Provide
    Arbitrary<ParallelLayout> smallLayouts() {
        return Combinators.combine(Arbitraries.of(1, 2, 4, 8), Arbitraries.of(1, 2, 4, 32),
                Arbitraries.integers().between(1, 8)).as(ParallelLayout::of);
    }

    @Test
    void aRestoreIntoAnotherLayout_readsTheSavedRanksWhosePiecesOverlapItsOwn() {
        ParallelLayout saved = ParallelLayout.of(8, 32, 16);
        // the same layout: ranks 0-1 read their own pieces (rank 0 holds every step count of stage 0)
        assertThat(saved.readBy(TorchModel.LLAMA3_8B, saved, 0, 2).keySet()).containsExactly(0L, 1L);
        // ranks 130-131 (tp 2 and 3 of stage 1): their own pieces, and the step counts rank 128 (tp 0, dp 0 of the stage) wrote
        assertThat(saved.readBy(TorchModel.LLAMA3_8B, saved, 130, 2).keySet()).containsExactly(128L, 130L, 131L);
        // tp=4 dp=32: a rank's rows of q are one saved piece; its columns of o span two tensor-parallel ranks of tp=8
        var read = saved.readBy(TorchModel.LLAMA3_8B, ParallelLayout.of(4, 32, 32), 0, 2);
        assertThat(read.keySet()).containsExactly(0L, 1L, 2L, 3L);
        // rank 1 of tp=8 is read for the column-split projections (o, down) only
        assertThat(read.get(1L).parameters()).isLessThan(saved.shard(TorchModel.LLAMA3_8B, 1, true).parameters());
        assertThat(read.get(0L)).isEqualTo(saved.shard(TorchModel.LLAMA3_8B, 0, true));
    }

    @Test
    void aRestoresFootprint_countsTheSavedRanksItReads_andRefusesALayoutThatCannotHoldTheModel() {
        var b = TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(8, 32, 16).restoreInto(4, 0, 32);
        var f = b.footprint(2).orElseThrow();
        long read = ParallelLayout.of(8, 32, 16).readBy(TorchModel.LLAMA3_8B, ParallelLayout.of(4, 32, 32), 0, 2).values()
                .stream().mapToLong(s -> s.bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM)).sum();
        assertThat(f.targetBytes()).isEqualTo(read);
        assertThat(f.summary()).contains("llama3-8b tp=8 pp=32 dp=16, restored into tp=4 pp=32 dp=32 (4 saved ranks read)");
        assertThatThrownBy(() -> b.restoreInto(3, 0, 0).footprint(2))
                .hasMessage("the layout restored into: tp=3 does not divide llama3-8b's 32 attention heads");
        assertThatThrownBy(() -> b.restoreInto(8, 32, 1).firstRank(255).footprint(2))
                .hasMessageContaining("ranks 255-256 are not all ranks of the 256-rank job tp=8 pp=32 dp=1 the checkpoint is restored into");
        assertThat(b.recordedParameters()).containsEntry("restore_tp", "4").containsEntry("restore_dp", "32")
                .doesNotContainKey("restore_pp").containsEntry("job_metadata", "true");
        assertThat(TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).recordedParameters()).doesNotContainKeys(
                "restore_tp", "restore_pp", "restore_dp");
    }

    @Provide
    Arbitrary<ParallelLayout> layouts() {
        return Combinators.combine(Arbitraries.of(1, 2, 4, 8), Arbitraries.integers().between(1, 32),
                Arbitraries.integers().between(1, 48)).as(ParallelLayout::of);
    }

    @Provide
    Arbitrary<TorchModel> presets() {
        return Arbitraries.of(TorchModel.LLAMA3_8B, TorchModel.LLAMA3_70B, TorchModel.LLAMA3_405B);
    }

    @Test
    void aLayoutThatCannotSplitTheModel_orRanksOutsideTheJob_areRefusedBeforeAnythingRuns() {
        assertThat(ParallelLayout.of(16, 1, 1).unsplittable(TorchModel.LLAMA3_8B)).isEqualTo("tp=16 does not divide llama3-8b's 8 KV heads");
        assertThat(ParallelLayout.of(1, 33, 1).unsplittable(TorchModel.LLAMA3_8B)).contains("pp=33 is more pipeline stages than llama3-8b's 32 layers");
        assertThatThrownBy(() -> ParallelLayout.of(0, 1, 1)).hasMessage("tp must be in 1..1024, was 0");
        var b = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_405B).layout(8, 16, 4);
        assertThatThrownBy(() -> b.firstRank(510).footprint(3)).hasMessageContaining("ranks 510-512 are not all ranks of the 512-rank job tp=8 pp=16 dp=4");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_8B).layout(8, 1, 0).footprint(3))
                .hasMessageContaining("3 tasks must be a multiple of tp × pp = 8");
        assertThatThrownBy(() -> TorchBenchmarks.ddpSave().layout(2, 1, 0).footprint(2))
                .hasMessageContaining("tp, pp, dp, first_rank and the layout restored into lay out a preset");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpLoad().restoreInto(1, 0, 2).footprint(2))
                .hasMessageContaining("the layout restored into lay out a preset");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().jobMetadata(false).footprint(2))
                .hasMessageContaining("job_metadata=false leaves the absent ranks of a preset's job out");
        assertThat(TorchBenchmarks.ddpSave().footprint(2)).isEmpty();
        // what sizes or trains a model built whole is refused with a preset, not silently ignored
        assertThatThrownBy(() -> TorchBenchmarks.ddpSave().model(TorchModel.LLAMA3_8B).parameters(1_000_000).footprint(1))
                .hasMessage("params applies to models built whole; llama3-8b has its architecture's size and is saved and"
                        + " loaded without training or faults");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).fullStateDict(true).footprint(1))
                .hasMessageContaining("full_state_dict gathers a model built whole");
        assertThatThrownBy(() -> TorchBenchmarks.rlLoad().model(TorchModel.LLAMA3_8B)).hasMessageContaining("model must be one of");
    }

    @Test
    void aFootprint_saysWhatTheRanksWriteAndHold() {
        // ranks 0-1 of 405B's 512: stage 0 with the embedding; under DDP each would write its model-parallel shard
        var f = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_405B).layout(8, 16, 4).footprint(2).orElseThrow();
        ParallelLayout layout = ParallelLayout.of(8, 16, 4);
        long r0 = layout.shard(TorchModel.LLAMA3_405B, 0, true).bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
        long r1 = layout.shard(TorchModel.LLAMA3_405B, 1, true).bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
        assertThat(f.targetBytes()).isEqualTo(r0 + r1);
        assertThat(f.memoryBytesPerNode()).isEqualTo(2 * (Math.max(r0, r1) + ShardedCheckpoint.RUNTIME_BYTES));
        assertThat(f.summary()).startsWith("ranks 0-1 of 512, llama3-405b tp=8 pp=16 dp=4: up to 11.2 GiB per rank (12.2 GiB of memory)");
        // with more than one save the last checkpoint stays until the next is whole
        var twice = TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_405B).layout(8, 16, 4).saves(3).footprint(2).orElseThrow();
        assertThat(twice.targetBytes()).isEqualTo(2 * (r0 + r1));
    }

    @Test
    void aScenario_refusesWhatTheTargetCannotHold_beforeWritingAnything(@org.junit.jupiter.api.io.TempDir Path target)
            throws Exception {
        var b = TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_405B).layout(8, 16, 4);
        assertThatThrownBy(() -> dev.prism.Scenario.builder().target(target).benchmark(b).tasks(512).build().execute())
                .hasMessageContaining("fsdp_load at 512 tasks (ranks 0-511 of 512, llama3-405b tp=8 pp=16 dp=4")
                .hasMessageContaining("free; nothing was written");
        try (var left = java.nio.file.Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }
}
