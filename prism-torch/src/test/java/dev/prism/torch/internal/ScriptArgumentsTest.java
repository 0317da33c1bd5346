package dev.prism.torch.internal;

import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchBenchmarks;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every option the launcher gives the bundled script is one the script's argument parser declares: an unknown one
 * ends every torch run at its start (argparse exits 2), which only a run with torch installed would show. The
 * observer is the script itself, its {@code add_argument} calls read from the jar's copy.
 */
class ScriptArgumentsTest {
    private static final List<String> BENCHMARKS = List.of("ddp_save", "ddp_load", "fsdp_save", "fsdp_load", "rl_load",
            "hf_load", "dataloader");

    private static Set<String> declaredByTheScript() throws IOException {
        try (InputStream in = TorchRunLauncher.class.getResourceAsStream("/dev/prism/torch/prism_torch_bench.py")) {
            assertThat(in).as("the bundled script").isNotNull();
            String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Set<String> options = new TreeSet<>();
            Matcher m = Pattern.compile("add_argument\\(\"(--[a-z0-9-]+)\"").matcher(script);
            while (m.find()) {
                options.add(m.group(1));
            }
            return options;
        }
    }

    @Test
    void everyOptionGiven_isOneTheScriptDeclares_atEveryBenchmarkAndOnSeveralNodes() throws IOException {
        Set<String> declared = declaredByTheScript();
        assertThat(declared).contains("--benchmark", "--out", "--shared-dir");
        for (String name : BENCHMARKS) {
            for (TorchBenchmark b : List.of(TorchBenchmarks.named(name, Map.of()), TorchBenchmarks.named(name,
                    Map.of("nodes", "2")))) {
                List<String> arguments = TorchRunLauncher.arguments(b, Path.of("/out"), Path.of("/shared"));
                List<String> options = arguments.stream().filter(a -> a.startsWith("--")).toList();
                assertThat(declared).as(b.toString()).containsAll(options);
                assertThat(options).as(b.toString()).doesNotContain("--nodes");
            }
        }
    }
}
