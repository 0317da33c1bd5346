package dev.prism.cli;

import dev.prism.Benchmark;
import dev.prism.BenchmarkProvider;
import dev.prism.Benchmarks;
import dev.prism.Parameter;
import dev.prism.Sweep;
import dev.prism.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code prism run NAME… --target DIR}: runs benchmarks against a directory. */
@Command(name = "run", description = "Runs benchmarks against a target directory.")
final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "NAME", arity = "1..*", description = "benchmarks to run, as 'prism list' shows them")
    private List<String> names;

    @Option(names = "--target", paramLabel = "DIR", required = true,
            description = "the directory on the filesystem to qualify; PRISM works in DIR/prism-<run id> and removes it")
    private Path target;

    @Option(names = "--tasks", paramLabel = "N[,N…]", split = ",", defaultValue = "1",
            description = "task counts to sweep, e.g. 1,2,4 (default: ${DEFAULT-VALUE})")
    private int[] tasks;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "1", description = "measured repetitions (default: ${DEFAULT-VALUE})")
    private int repetitions;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "0", description = "unmeasured repetitions first (default: ${DEFAULT-VALUE})")
    private int warmups;

    @Option(names = {"-p", "--param"}, paramLabel = "[BENCH.]KEY=VALUE",
            description = "a benchmark parameter, e.g. -p files=5000 or -p create_files.file_size=1MiB; see 'prism describe NAME'."
                    + " Each key once. Commas sweep a number, size, duration, boolean or choice: -p files=100,1000 runs"
                    + " both as configurations of their own")
    private List<String> rawParameters = new ArrayList<>();

    @Option(names = "--torch-nodes", paramLabel = "N", defaultValue = "1",
            description = "torch benchmarks: run torchrun on N nodes of this SLURM allocation (srun, one agent per node;"
                    + " --tasks counts ranks in all, a multiple of N); run it in an sbatch script. The same as -p nodes=N"
                    + " for the torch benchmarks named (default: ${DEFAULT-VALUE})")
    private int torchNodes;

    @CommandLine.Mixin
    private ScenarioOptionsMixin options;

    @Override
    public Integer call() {
        List<Benchmark> benchmarks = benchmarks();
        Scenario.Builder scenario = Scenario.builder().target(target).benchmarks(benchmarks).tasks(tasks)
                .repetitions(repetitions).warmups(warmups);
        boolean tasksGiven = spec.commandLine().getParseResult().hasMatchedOption("--tasks");
        return ScenarioExecution.run(spec.commandLine(), scenario, target, tasksGiven, options.options, options.judging, null);
    }

    /** @return the {@code -p KEY=VALUE}s in order; a key given twice is refused rather than silently overridden */
    static Map<String, String> parameters(List<String> raw) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String p : raw) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("-p takes KEY=VALUE, was '" + p + "'");
            }
            String key = p.substring(0, eq).trim();
            String previous = parameters.put(key, p.substring(eq + 1));
            if (previous != null) {
                throw new IllegalArgumentException("-p " + key + " is given twice ('" + previous + "' and '"
                        + p.substring(eq + 1) + "'); give each parameter once");
            }
        }
        return parameters;
    }

    /**
     * @return every configuration {@code values} make, through the API's {@link Sweep} (the first parameter varying
     *         slowest): a value {@code a,b,c} of a parameter that {@linkplain Parameter#sweepable can be swept} is three
     *         configurations; a list or text parameter takes its commas as part of its one value
     */
    static List<Benchmark> sweep(BenchmarkProvider provider, Map<String, String> values) {
        Map<String, List<String>> choices = new LinkedHashMap<>();
        Map<String, String> first = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            boolean sweepable = provider.parameters().stream().anyMatch(p -> p.name().equals(name) && p.sweepable());
            List<String> split = sweepable ? List.of(value.split(",", -1)) : List.of(value);
            if (split.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("-p " + name + "=" + value + " has an empty value in its sweep");
            }
            choices.put(name, split);
            first.put(name, split.get(0).strip());
        });
        // the base holds each parameter's first value, so a provider that needs a parameter makes it; the sweep then
        // sets every value, each configuration made again by the provider
        Sweep sweep = Sweep.of(provider.create(first));
        for (Map.Entry<String, List<String>> e : choices.entrySet()) {
            try {
                sweep = sweep.param(e.getKey(), e.getValue().toArray(String[]::new));
            } catch (IllegalArgumentException problem) {
                throw new IllegalArgumentException("-p " + e.getKey() + "=" + values.get(e.getKey()) + ": " + problem.getMessage(), problem);
            }
        }
        return sweep.benchmarks();
    }

    /** The torch benchmarks' parameter {@code --torch-nodes} sets. */
    private static final String NODES = "nodes";

    private static boolean declares(BenchmarkProvider provider, String parameter) {
        return provider.parameters().stream().anyMatch(p -> p.name().equals(parameter));
    }

    /** Applies each {@code -p} to the named benchmarks that declare it; a key none declares is an error. */
    private List<Benchmark> benchmarks() {
        Map<String, String> parameters = parameters(rawParameters);
        List<BenchmarkProvider> providers = new ArrayList<>();
        for (String name : names) {
            providers.add(Benchmarks.provider(name));
        }
        if (torchNodes < 1 || torchNodes > 100_000) {
            throw new IllegalArgumentException("--torch-nodes must be in 1..100000, was " + torchNodes);
        }
        if (torchNodes > 1) {
            // the torch benchmarks' own parameter, set like any -p: what checks it against --tasks is the benchmark's
            if (parameters.keySet().stream().anyMatch(k -> k.equals(NODES) || k.endsWith("." + NODES))) {
                throw new IllegalArgumentException("--torch-nodes " + torchNodes + " and -p " + NODES + " say the same;"
                        + " give one of them");
            }
            List<String> torch = providers.stream().filter(p -> declares(p, NODES)).map(BenchmarkProvider::name).toList();
            if (torch.isEmpty()) {
                throw new IllegalArgumentException("--torch-nodes spreads torch benchmarks over nodes; none of "
                        + String.join(", ", names) + " is one");
            }
            torch.forEach(name -> parameters.put(name + "." + NODES, String.valueOf(torchNodes)));
        }
        Set<String> used = new HashSet<>();
        List<Benchmark> benchmarks = new ArrayList<>();
        for (BenchmarkProvider provider : providers) {
            Map<String, String> values = new LinkedHashMap<>();
            parameters.forEach((key, value) -> {
                String qualifier = key.contains(".") ? key.substring(0, key.indexOf('.')) : null;
                String name = key.substring(key.indexOf('.') + 1);
                if ((qualifier == null || qualifier.equals(provider.name())) && declares(provider, name)) {
                    values.put(name, value);
                    used.add(key);
                }
            });
            benchmarks.addAll(sweep(provider, values));
        }
        for (String key : parameters.keySet()) {
            if (!used.contains(key)) {
                List<String> known = new ArrayList<>();
                providers.forEach(p -> p.parameters().stream().map(Parameter::name).forEach(known::add));
                throw new IllegalArgumentException("parameter '" + key + "' is not a parameter of "
                        + String.join(", ", names) + "; known: " + String.join(", ", known));
            }
        }
        return benchmarks;
    }
}
