package dev.prism.torch;

import dev.prism.DataSize;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MLPerf Storage v3's checkpointing as fsdp_load's procedure: its layouts, and its rules as refusals at build. */
class MlperfProcedureTest {
    @Test
    void mlperfsModels_runAtItsLayouts_andHoldItsCheckpointSizes() {
        // MLPerf's table gives 105 GB, 912 GB and 5.29 TB, its GB being GiB
        long[][] expected = {{1, 1, 8}, {8, 1, 8}, {8, 32, 2}};
        TorchModel[] models = {TorchModel.LLAMA3_8B, TorchModel.LLAMA3_70B, TorchModel.LLAMA3_405B};
        double[] gib = {105, 912, 5290}; // "5.29 TB" is 5,290 of the GB that are GiB
        for (int i = 0; i < models.length; i++) {
            FsdpLoad b = TorchBenchmarks.mlperfCheckpointing(models[i]);
            ParallelLayout layout = ParallelLayout.of((int) expected[i][0], (int) expected[i][1], (int) expected[i][2]);
            assertThat(b.layout((int) layout.world())).isEqualTo(layout);
            assertThat(b.parameters().get(TorchBenchmark.SAVES)).isEqualTo(10);
            assertThat(b.recordedParameters()).containsEntry("procedure", "mlperf").containsEntry("accelerator_memory", "80GiB");
            double checkpoint = models[i].parameterCount() * 14.0 / (1L << 30);
            assertThat(checkpoint).as(models[i].label()).isCloseTo(gib[i], org.assertj.core.data.Percentage.withPercentage(1.5));
        }
        assertThatThrownBy(() -> TorchBenchmarks.mlperfCheckpointing(TorchModel.GPT2))
                .hasMessageStartingWith("model must be a preset MLPerf Storage checkpoints");
    }

    @Test
    void aSubsetRun_isLlama3_8bsAlone() {
        // 2 of llama3-8b's 8 ranks: MLPerf's subset run, and the only one it defines
        FsdpLoad small = TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_8B).saves(2);
        assertThat(small.footprint(2)).isPresent();
        assertThatThrownBy(() -> TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_70B).footprint(8))
                .hasMessage("MLPerf Storage v3 defines a subset run only for llama3-8b (rule 4.3.5): llama3-70b runs every"
                        + " rank of its job, 64 at tp=8 pp=1 dp=8, not 8; or use procedure=prism, which plays any of the"
                        + " job's ranks");
    }

    @Test
    void accelerators_mustHoldTheCheckpoint_andTheRefusalNamesBothFigures() {
        FsdpLoad tight = TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_405B).acceleratorMemory(DataSize.ofGiB(8));
        assertThatThrownBy(() -> tight.footprint(512)).hasMessage("the job's 512 accelerators of 8GiB hold 4.0 TiB, less"
                + " than its 5.2 TiB checkpoint (llama3-405b tp=8 pp=32 dp=2); MLPerf Storage v3 requires the"
                + " accelerators' memory to hold it (rule 4.3.4): give a larger accelerator_memory or more data-parallel"
                + " ranks");
    }

    @Test
    void whatTheProcedureDoesNotDo_isRefused_andItsFootprintHoldsEveryCheckpoint() {
        FsdpLoad mlperf = TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_8B).layout(1, 1, 64).saves(3);
        assertThatThrownBy(() -> mlperf.dropCache(false).footprint(2)).hasMessageEndingWith("give drop_cache=true");
        for (FsdpLoad wrong : new FsdpLoad[]{mlperf.loads(2), mlperf.asyncSave(true), mlperf.syncFiles(false),
                mlperf.restoreInto(0, 0, 32)}) {
            assertThatThrownBy(() -> wrong.footprint(2)).hasMessageStartingWith("procedure=mlperf writes saves"
                    + " checkpoints with dcp.save and fsync");
        }
        assertThatThrownBy(() -> TorchBenchmarks.fsdpLoad().procedure(TorchProcedure.MLPERF).dropCache(true).footprint(2))
                .hasMessageStartingWith("procedure=mlperf runs MLPerf Storage's checkpointing of a preset");
        // the read phase reads all three, so all three are on the target at once
        long one = TorchBenchmarks.fsdpLoad().model(TorchModel.LLAMA3_8B).layout(1, 1, 64).footprint(2).orElseThrow().targetBytes();
        assertThat(mlperf.footprint(2).orElseThrow().targetBytes()).isEqualTo(3 * one);
        assertThatThrownBy(() -> TorchBenchmarks.fsdpLoad().acceleratorMemory(DataSize.ofGiB(180)).footprint(2))
                .hasMessageEndingWith("it applies to procedure=mlperf");
        // PRISM's procedure records neither
        assertThat(TorchBenchmarks.fsdpLoad().recordedParameters()).doesNotContainKeys("procedure", "accelerator_memory");
    }
}
