package dev.prism.torch.internal;

import dev.prism.Benchmark;
import dev.prism.BenchmarkProvider;
import dev.prism.Parameter;
import dev.prism.Suite;
import dev.prism.torch.TorchRun;
import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchBenchmarks;

import java.util.List;
import java.util.Map;

/** The torch benchmarks' providers, listed in META-INF/services/dev.prism.BenchmarkProvider. */
public final class TorchProviders {
    private TorchProviders() {
    }

    /** Whether this machine's Python has torch, and transformers: asked once per process, on first need. */
    private static final class Availability {
        static final String MISSING = check(false);
        static final String MISSING_FOR_HUGGING_FACE = MISSING != null ? MISSING : check(true);

        private static String check(boolean transformers) {
            try {
                TorchRun run = TorchRun.builder().build();
                if (transformers) {
                    run.checkPackage("transformers");
                } else {
                    run.checkTorch();
                }
                return null;
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        }
    }

    /**
     * One provider per torch benchmark. Torch benchmarks join no JDK-only suite: the standard suite takes them at
     * the defaults (a 25M-parameter synthetic model with Adam, a 25M GPT-2 for hf_load, 1,000 files of 128 KiB for
     * dataloader), the paper suite with GPT-2's 124M parameters and 100,000 files of 32 KiB in 1,000 shards.
     */
    abstract static class TorchProvider implements BenchmarkProvider {
        private final String name;

        TorchProvider(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return TorchBenchmarks.named(name, Map.of()).description() + " (needs Python with torch)";
        }

        @Override
        public List<Parameter<?>> parameters() {
            return TorchBenchmark.parametersOf(name);
        }

        @Override
        public Benchmark create(Map<String, String> values) {
            return TorchBenchmarks.named(name, values);
        }

        @Override
        public List<Benchmark> suite(Suite suite) {
            List<Benchmark> configurations = new java.util.ArrayList<>(switch (suite) {
                case QUICK, FRONTIER -> List.<Benchmark>of();
                case STANDARD -> List.of(TorchBenchmarks.named(name, Map.of()));
                case PAPER -> List.of(TorchBenchmarks.named(name, paperSize(name)));
            });
            frontier(suite).forEach(values -> configurations.add(TorchBenchmarks.named(name, values)));
            return configurations;
        }

        /**
         * The presets a suite holds: the standard suite two ranks' worth of llama3-8b at dp=64 (1.6 GiB per rank); the
         * paper suite llama3-70b and llama3-405b at cluster scale (its 8 to 256 tasks play the first ranks of 256- and
         * 512-rank jobs); the frontier suite MLPerf Storage v3's layouts (llama3-8b through MLPerf's own procedure,
         * the others' first ranks with 10 saves and 10 loads), and the loading paths' A/B through torch.save per
         * model-parallel shard. The dataloader's formats join the standard suite (2,000 samples of 32 KiB in every
         * format, beside the same as files) and the paper suite (its 800K files of 32 KiB beside the same in tar shards).
         */
        private List<Map<String, String>> frontier(Suite suite) {
            Map<String, String> cycle = Map.of("saves", "10", "loads", "10", "drop_cache", "true");
            return switch (suite) {
                case STANDARD -> switch (name) {
                    case "fsdp_load" -> List.of(Map.of("model", "llama3-8b", "dp", "64", "drop_cache", "true"));
                    case "fsdp_save" -> List.of(Map.of("model", "llama3-8b", "dp", "64", "async_save", "true"));
                    case "dataloader" -> formats(Map.of("drop_cache", "true"), "2000", "32KiB", FORMATS);
                    default -> List.of();
                };
                case PAPER -> switch (name) {
                    case "fsdp_load" -> List.of(
                            Map.of("model", "llama3-70b", "tp", "8", "pp", "4", "dp", "8", "drop_cache", "true"),
                            Map.of("model", "llama3-405b", "tp", "8", "pp", "16", "dp", "4", "drop_cache", "true"));
                    // the paper's Figure 6: 800K files of 32 KiB, beside the same samples in tar shards
                    case "dataloader" -> formats(Map.of("num_workers", "8", "batch_size", "64", "drop_cache", "true",
                            "layout", "sharded", "shards", "1000"), "800000", "32KiB", List.of("files", "tar-shards"));
                    default -> List.of();
                };
                // MLPerf Storage v3's layouts: 8B 1×1×8, 70B 8×1×8, 405B 8×32×2. At the suite's 8 tasks the 8B job is
                // whole, so it runs MLPerf's own procedure; the 70B and 405B jobs are not (MLPerf defines no subset
                // run for them), so their first 8 ranks run PRISM's cycles of 10 saves and 10 loads
                case FRONTIER -> switch (name) {
                    case "fsdp_load" -> List.of(Map.of("model", "llama3-8b", "dp", "8", "procedure", "mlperf", "saves", "10",
                                    "drop_cache", "true"),
                            with(cycle, "model", "llama3-70b", "tp", "8", "pp", "1", "dp", "8"),
                            with(cycle, "model", "llama3-405b", "tp", "8", "pp", "32", "dp", "2"));
                    case "fsdp_save" -> List.of(Map.of("model", "llama3-405b", "tp", "8", "pp", "32", "dp", "2",
                            "saves", "10", "async_save", "true"));
                    // torch.save holds a whole model-parallel shard per rank: 70B at 8×4×2 keeps it to 29 GiB
                    case "ddp_load" -> List.of(with(cycle, "model", "llama3-70b", "tp", "8", "pp", "4", "dp", "2", "mmap", "false"),
                            with(cycle, "model", "llama3-70b", "tp", "8", "pp", "4", "dp", "2", "mmap", "true"));
                    default -> List.of();
                };
                case QUICK -> List.of();
            };
        }

        /** The formats the standard suite reads the same samples from: every format, and the same as files. */
        private static final List<String> FORMATS = List.of("files", "parquet", "arrow", "tar-shards", "indexed",
                "image-folder", "safetensors");

        /**
         * @return the dataloader reading {@code samples} of {@code size} from each of {@code formats}: a dataset of
         *         files holds them as that many files of that size, the others as samples (the files' layout kept to
         *         files)
         */
        private static List<Map<String, String>> formats(Map<String, String> base, String samples, String size,
                                                         List<String> formats) {
            List<Map<String, String>> configurations = new java.util.ArrayList<>();
            for (String format : formats) {
                Map<String, String> values = new java.util.LinkedHashMap<>(base);
                values.put("format", format);
                if (format.equals("files")) {
                    values.put("files", samples);
                    values.put("file_size", size);
                } else {
                    values.remove("layout");
                    values.remove("shards");
                    values.put("samples", samples);
                    values.put("sample_size", size);
                }
                configurations.add(values);
            }
            return configurations;
        }

        private static Map<String, String> with(Map<String, String> base, String... pairs) {
            Map<String, String> values = new java.util.LinkedHashMap<>(base);
            for (int i = 0; i < pairs.length; i += 2) {
                values.put(pairs[i], pairs[i + 1]);
            }
            return values;
        }

        /** GPT-2's 124M parameters for the checkpoints and hf_load; the paper's md5_check dataset shape for dataloader */
        private static Map<String, String> paperSize(String name) {
            return name.equals("dataloader")
                    ? Map.of("files", "100000", "file_size", "32KiB", "layout", "sharded", "shards", "1000", "num_workers", "8",
                    "batch_size", "64", "drop_cache", "true")
                    : Map.of("model", "gpt2", "params", "124000000");
        }

        @Override
        public String needs() {
            return name.equals("hf_load") ? "Python with torch and transformers" : "Python with torch";
        }

        @Override
        public String missing() {
            return name.equals("hf_load") ? Availability.MISSING_FOR_HUGGING_FACE : Availability.MISSING;
        }
    }

    /** ddp_save */
    public static final class DdpSave extends TorchProvider {
        public DdpSave() {
            super("ddp_save");
        }
    }

    /** ddp_load */
    public static final class DdpLoad extends TorchProvider {
        public DdpLoad() {
            super("ddp_load");
        }
    }

    /** fsdp_save */
    public static final class FsdpSave extends TorchProvider {
        public FsdpSave() {
            super("fsdp_save");
        }
    }

    /** fsdp_load */
    public static final class FsdpLoad extends TorchProvider {
        public FsdpLoad() {
            super("fsdp_load");
        }
    }

    /** rl_load */
    public static final class RlLoad extends TorchProvider {
        public RlLoad() {
            super("rl_load");
        }
    }

    /** hf_load */
    public static final class HfLoad extends TorchProvider {
        public HfLoad() {
            super("hf_load");
        }
    }

    /** dataloader */
    public static final class Dataloader extends TorchProvider {
        public Dataloader() {
            super("dataloader");
        }
    }
}
