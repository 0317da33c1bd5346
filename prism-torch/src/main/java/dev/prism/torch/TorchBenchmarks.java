package dev.prism.torch;

import dev.prism.Parameters;

/**
 * Typed factories for the PyTorch benchmarks: checkpoints of a 25M-parameter synthetic model with Adam
 * state by default, Hugging Face model loading, a DataLoader; torchrun from {@link TorchRun#defaultPython()}.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchBenchmarks;
 *
 * var save = TorchBenchmarks.fsdpSave().threadCount(4);
 * }</pre>
 */
public final class TorchBenchmarks {
    private TorchBenchmarks() {
    }

    /** @return a named torch benchmark with these parameter values (missing ones at their defaults) */
    public static TorchBenchmark named(String name, java.util.Map<String, String> values) {
        Parameters p = Parameters.defaults(TorchBenchmark.parametersOf(name)).withText(values);
        TorchRun run = TorchRun.builder().build();
        return switch (name) {
            case "ddp_save" -> new DdpSave(p, run);
            case "ddp_load" -> new DdpLoad(p, run);
            case "fsdp_save" -> new FsdpSave(p, run);
            case "fsdp_load" -> new FsdpLoad(p, run);
            case "rl_load" -> new RlLoad(p, run);
            case "hf_load" -> new HfLoad(p, run);
            case "dataloader" -> new Dataloader(p, run);
            default -> throw new IllegalArgumentException("not a torch benchmark: " + name);
        };
    }

    /** @return {@code ddp_save}: a 25M-parameter synthetic model with Adam state */
    public static DdpSave ddpSave() {
        return (DdpSave) named("ddp_save", java.util.Map.of());
    }

    /** @return {@code ddp_load} */
    public static DdpLoad ddpLoad() {
        return (DdpLoad) named("ddp_load", java.util.Map.of());
    }

    /** @return {@code fsdp_save} */
    public static FsdpSave fsdpSave() {
        return (FsdpSave) named("fsdp_save", java.util.Map.of());
    }

    /** @return {@code fsdp_load} */
    public static FsdpLoad fsdpLoad() {
        return (FsdpLoad) named("fsdp_load", java.util.Map.of());
    }

    /** @return {@code rl_load} */
    public static RlLoad rlLoad() {
        return (RlLoad) named("rl_load", java.util.Map.of());
    }

    /** @return {@code hf_load}: a 25M-parameter GPT-2 */
    public static HfLoad hfLoad() {
        return (HfLoad) named("hf_load", java.util.Map.of());
    }

    /** @return {@code dataloader}: 1,000 generated files of 128 KiB, 2 workers, batches of 16 */
    public static Dataloader dataloader() {
        return (Dataloader) named("dataloader", java.util.Map.of());
    }
}
