package dev.prism.torch;

/**
 * Who merges the ranks' safetensors files into full ones ({@code consolidate}, with
 * {@link TorchCheckpointFormat#SAFETENSORS}), each full file at most {@code shard_size}: the step that can leave every
 * rank but one idle while one writes the whole model.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchCheckpointFormat;
 * import dev.prism.torch.TorchConsolidation;
 *
 * var b = TorchBenchmarks.fsdpSave().format(TorchCheckpointFormat.SAFETENSORS).consolidate(TorchConsolidation.ONE_RANK);
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum TorchConsolidation {
    /** The ranks' files are the checkpoint; nothing is merged. */
    NONE,
    /** Rank 0 writes every full file (DCP's {@code consolidate_safetensors_files}) while the others wait. */
    ONE_RANK,
    /**
     * Each rank writes its share of the full files ({@code consolidate_safetensors_files_on_every_rank}: file i by
     * rank i mod ranks), so a model of fewer files than ranks still leaves ranks idle.
     */
    EVERY_RANK
}
