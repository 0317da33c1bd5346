package dev.prism.torch;

import dev.prism.DataSize;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What each checkpoint format takes, refused at build naming the parameters, and recorded only where it applies. */
class CheckpointFormatTest {
    @Test
    void safetensorsParameters_areRefusedWithDcpsFiles() {
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().consolidate(TorchConsolidation.ONE_RANK).footprint(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consolidate, shard_size and mmap apply to format=safetensors; DCP's files (format=dcp) are"
                        + " read by dcp.load as written");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpLoad().mmap(true).footprint(2))
                .hasMessageStartingWith("consolidate, shard_size and mmap apply to format=safetensors");
        assertThatThrownBy(() -> TorchBenchmarks.fsdpSave().shardSize(DataSize.ofMiB(8)).footprint(2))
                .hasMessageStartingWith("consolidate, shard_size and mmap apply to format=safetensors");
    }

    @Test
    void safetensors_refusesAPreset_asyncSave_aTruncation_andALoadOfNothingMerged() {
        FsdpSave st = TorchBenchmarks.fsdpSave().format(TorchCheckpointFormat.SAFETENSORS);
        assertThat(st.footprint(2)).isEmpty();
        assertThatThrownBy(() -> st.model(TorchModel.LLAMA3_8B).footprint(2))
                .hasMessage("format=safetensors saves the weights of a model built whole on every rank; llama3-8b is a"
                        + " preset whose job has ranks not run, whose shards a consolidation needs");
        assertThatThrownBy(() -> st.asyncSave(true).footprint(2))
                .hasMessageStartingWith("async_save, fault=truncate_shard and fault=flip_element apply to format=dcp");
        FsdpLoad load = TorchBenchmarks.fsdpLoad().format(TorchCheckpointFormat.SAFETENSORS);
        assertThatThrownBy(() -> load.fault(TorchFault.TRUNCATE_SHARD).consolidate(TorchConsolidation.ONE_RANK).footprint(2))
                .hasMessageStartingWith("async_save, fault=truncate_shard and fault=flip_element apply to format=dcp");
        assertThatThrownBy(() -> load.footprint(2))
                .hasMessageStartingWith("fsdp_load of format=safetensors loads the full files, as an evaluation or"
                        + " inference job does: give consolidate=one-rank or every-rank");
        assertThat(load.consolidate(TorchConsolidation.EVERY_RANK).mmap(true).footprint(2)).isEmpty();
    }

    @Test
    void theFormatsParameters_areRecordedOnlyWhereTheyApply() {
        // DCP's files, as before these parameters existed: a result written then pairs with one written now
        assertThat(TorchBenchmarks.fsdpLoad().recordedParameters())
                .doesNotContainKeys("format", "consolidate", "shard_size", "mmap");
        assertThat(TorchBenchmarks.fsdpLoad().format(TorchCheckpointFormat.SAFETENSORS)
                .consolidate(TorchConsolidation.EVERY_RANK).mmap(true).recordedParameters())
                .containsEntry("format", "safetensors").containsEntry("consolidate", "every-rank")
                .containsEntry("shard_size", "5GiB").containsEntry("mmap", "true");
        // ddp_load's and hf_load's mmap stay recorded
        assertThat(TorchBenchmarks.ddpLoad().recordedParameters()).containsKey("mmap");
        assertThat(TorchBenchmarks.hfLoad().recordedParameters()).containsKeys("mmap", "shard_size");
    }
}
