package dev.prism.torch;

/**
 * How {@code fsdp_load} runs its checkpoints ({@code procedure}).
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 * import dev.prism.torch.TorchModel;
 *
 * var b = TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_70B);
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum TorchProcedure {
    /** PRISM's: the save before is untimed set-up, the loads ({@code loads} of the last checkpoint) are timed. */
    PRISM,
    /**
     * MLPerf Storage v3's checkpointing: {@code saves} checkpoints written and fsync'd, each kept, then the page cache
     * dropped on every node and each checkpoint read once in the order written, the reads starting within 30 s of
     * the last write; both phases timed, with MLPerf's duration (the slowest rank) and throughput (the lowest rank's)
     * beside PRISM's percentiles. Refused where MLPerf's rules refuse the run: a subset of the ranks of any model but
     * llama3-8b, and a job whose accelerators cannot hold its checkpoint.
     */
    MLPERF
}
