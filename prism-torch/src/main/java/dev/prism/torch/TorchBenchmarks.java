package dev.prism.torch;

import dev.prism.Parameter;
import dev.prism.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

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

    /** What makes one torch benchmark: the parameters it declares and its type's constructor. */
    private record Kind(List<Parameter<?>> parameters, BiFunction<Parameters, TorchRun, TorchBenchmark> make) {
    }

    /** Every torch benchmark by name, in the order {@code prism list} shows them: the one table of them. */
    private static final Map<String, Kind> KINDS = kinds();

    private static Map<String, Kind> kinds() {
        Map<String, Kind> kinds = new LinkedHashMap<>();
        kinds.put("ddp_save", new Kind(TorchBenchmark.DDP_SAVE_PARAMETERS, DdpSave::new));
        kinds.put("ddp_load", new Kind(TorchBenchmark.DDP_LOAD_PARAMETERS, DdpLoad::new));
        kinds.put("fsdp_save", new Kind(TorchBenchmark.FSDP_SAVE_PARAMETERS, FsdpSave::new));
        kinds.put("fsdp_load", new Kind(TorchBenchmark.FSDP_LOAD_PARAMETERS, FsdpLoad::new));
        kinds.put("rl_load", new Kind(TorchBenchmark.RL_LOAD_PARAMETERS, RlLoad::new));
        kinds.put("hf_load", new Kind(TorchBenchmark.HF_LOAD_PARAMETERS, HfLoad::new));
        kinds.put("dataloader", new Kind(TorchBenchmark.DATALOADER_PARAMETERS, Dataloader::new));
        return java.util.Collections.unmodifiableMap(kinds);
    }

    private static Kind kind(String name) {
        Kind kind = KINDS.get(name);
        if (kind == null) {
            throw new IllegalArgumentException("not a torch benchmark: " + name + "; the torch benchmarks are "
                    + String.join(", ", KINDS.keySet()));
        }
        return kind;
    }

    /** @return the parameters the torch benchmark {@code name} declares */
    static List<Parameter<?>> parametersOf(String name) {
        return kind(name).parameters();
    }

    /** @return a named torch benchmark with these parameter values (missing ones at their defaults) */
    public static TorchBenchmark named(String name, Map<String, String> values) {
        Kind kind = kind(name);
        return kind.make().apply(Parameters.defaults(kind.parameters()).withText(values), TorchRun.builder().build());
    }

    /** @return {@code ddp_save}: a 25M-parameter synthetic model with Adam state */
    public static DdpSave ddpSave() {
        return (DdpSave) named("ddp_save", Map.of());
    }

    /** @return {@code ddp_load} */
    public static DdpLoad ddpLoad() {
        return (DdpLoad) named("ddp_load", Map.of());
    }

    /** @return {@code fsdp_save} */
    public static FsdpSave fsdpSave() {
        return (FsdpSave) named("fsdp_save", Map.of());
    }

    /** @return {@code fsdp_load} */
    public static FsdpLoad fsdpLoad() {
        return (FsdpLoad) named("fsdp_load", Map.of());
    }

    /**
     * MLPerf Storage v3's checkpointing of a preset: {@code fsdp_load} with {@code procedure=mlperf} at MLPerf's layout
     * (llama3-8b 1×1×8, llama3-70b 8×1×8, llama3-405b 8×32×2; tp × pp × dp), its 10 writes and 10 reads, and the
     * page cache dropped between them ({@code drop_cache=true}, which the procedure requires). MLPerf
     * runs the whole job (8, 64, 512 processes); llama3-8b alone may run a subset of its ranks.
     *
     * @param model a preset
     * @return the benchmark; {@code .saves(n)}, {@code .layout(…)} or {@code .acceleratorMemory(…)} change it
     */
    public static FsdpLoad mlperfCheckpointing(TorchModel model) {
        ParallelLayout layout = switch (model) {
            case LLAMA3_8B -> ParallelLayout.of(1, 1, 8);
            case LLAMA3_70B -> ParallelLayout.of(8, 1, 8);
            case LLAMA3_405B -> ParallelLayout.of(8, 32, 2);
            default -> throw new IllegalArgumentException("model must be a preset MLPerf Storage checkpoints (llama3-8b,"
                    + " llama3-70b, llama3-405b), was " + model.label());
        };
        return fsdpLoad().model(model).layout(layout.tp(), layout.pp(), layout.dp()).procedure(TorchProcedure.MLPERF)
                .saves(10).dropCache(true);
    }

    /** @return {@code rl_load} */
    public static RlLoad rlLoad() {
        return (RlLoad) named("rl_load", Map.of());
    }

    /** @return {@code hf_load}: a 25M-parameter GPT-2 */
    public static HfLoad hfLoad() {
        return (HfLoad) named("hf_load", Map.of());
    }

    /** @return {@code dataloader}: 1,000 generated files of 128 KiB, 2 workers, batches of 16 */
    public static Dataloader dataloader() {
        return (Dataloader) named("dataloader", Map.of());
    }
}
