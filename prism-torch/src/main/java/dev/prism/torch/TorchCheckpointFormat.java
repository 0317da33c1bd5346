package dev.prism.torch;

/**
 * What {@code fsdp_save} and {@code fsdp_load} write and read ({@code format}).
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchCheckpointFormat;
 * import dev.prism.torch.TorchConsolidation;
 *
 * var b = TorchBenchmarks.fsdpSave().format(TorchCheckpointFormat.SAFETENSORS).consolidate(TorchConsolidation.EVERY_RANK);
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum TorchCheckpointFormat {
    /** DCP's own files: model and optimizer state, a {@code .metadata} and each rank's {@code .distcp} files. */
    DCP,
    /**
     * The model's weights as Hugging Face safetensors, through DCP's {@code HuggingFaceStorageWriter}: each rank its
     * own file of its shards, then, with {@link TorchConsolidation}, full files an evaluation or inference job loads
     * (models built whole on every rank; a preset's job has ranks not run, whose shards a consolidation needs).
     */
    SAFETENSORS
}
