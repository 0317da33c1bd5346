package dev.prism.torch;

import dev.prism.Parameters;

/**
 * Typed factories for the PyTorch benchmarks: checkpoints of a 25M-parameter synthetic model with Adam
 * state by default, Hugging Face model loading, a DataLoader; torchrun from {@link TorchRun#defaultPython()}.
 *
 * <pre>{@code
 * var save = dev.prism.torch.TorchBenchmarks.fsdpSave().threadCount(4);
 * }</pre>
 */
public final class TorchBenchmarks {
    private TorchBenchmarks() {
    }

    /** @return a named torch benchmark with these parameter values (missing ones at their defaults) */
    public static TorchBenchmark named(String name, java.util.Map<String, String> values) {
        Parameters p = Parameters.defaults(TorchBenchmark.parametersOf(name)).withText(values);
        return switch (name) {
            case "ddp_save" -> new TorchBenchmark(name, "a training iteration, then rank 0 writes the full state dict"
                    + " with torch.save (atomically)", p, TorchRun.builder().build());
            case "ddp_load" -> new TorchBenchmark(name, "all ranks torch.load the same checkpoint, train an iteration"
                    + " and verify a parameter checksum", p, TorchRun.builder().build());
            case "fsdp_save" -> new TorchBenchmark(name, "FSDP2 ranks write their shards in parallel with"
                    + " torch.distributed.checkpoint.save", p, TorchRun.builder().build());
            case "fsdp_load" -> new TorchBenchmark(name, "FSDP2 ranks load their shards with"
                    + " torch.distributed.checkpoint.load and verify a checksum", p, TorchRun.builder().build());
            case "rl_load" -> new TorchBenchmark(name, "every rank consolidates the full model from a sharded DCP"
                    + " checkpoint, as RL rollout workers do", p, TorchRun.builder().build());
            case "hf_load" -> new TorchBenchmark(name, "every rank loads a Hugging Face model saved on the target"
                    + " (safetensors) with from_pretrained, then runs its first forward pass", p, TorchRun.builder().build());
            case "dataloader" -> new TorchBenchmark(name, "every rank reads its DistributedSampler share of a dataset's"
                    + " files through a torch DataLoader with worker processes", p, TorchRun.builder().build());
            default -> throw new IllegalArgumentException("not a torch benchmark: " + name);
        };
    }

    private static TorchBenchmark defaults(String name) {
        return named(name, java.util.Map.of());
    }

    /** @return {@code ddp_save} */
    public static TorchBenchmark ddpSave() {
        return defaults("ddp_save");
    }

    /** @return {@code ddp_load} */
    public static TorchBenchmark ddpLoad() {
        return defaults("ddp_load");
    }

    /** @return {@code fsdp_save} */
    public static TorchBenchmark fsdpSave() {
        return defaults("fsdp_save");
    }

    /** @return {@code fsdp_load} */
    public static TorchBenchmark fsdpLoad() {
        return defaults("fsdp_load");
    }

    /** @return {@code rl_load} */
    public static TorchBenchmark rlLoad() {
        return defaults("rl_load");
    }

    /** @return {@code hf_load}: a 25M-parameter GPT-2 */
    public static TorchBenchmark hfLoad() {
        return defaults("hf_load");
    }

    /** @return {@code dataloader}: 1,000 generated files of 128 KiB, 2 workers, batches of 16 */
    public static TorchBenchmark dataloader() {
        return defaults("dataloader");
    }
}
