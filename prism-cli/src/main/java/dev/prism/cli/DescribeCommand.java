package dev.prism.cli;

import dev.prism.BenchmarkProvider;
import dev.prism.Benchmarks;
import dev.prism.Parameter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** {@code prism describe NAME}: a benchmark's parameters with defaults, ranges and documentation. */
@Command(name = "describe", description = "Shows a benchmark's parameters with their defaults and documentation.")
final class DescribeCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "NAME", description = "the benchmark, as 'prism list' shows it")
    private String name;

    @Override
    public void run() {
        BenchmarkProvider provider = Benchmarks.provider(name);
        PrintWriter out = spec.commandLine().getOut();
        out.println(provider.name() + ": " + provider.description());
        out.println();
        out.println("Parameters (set with -p name=value):");
        int name = provider.parameters().stream().mapToInt(p -> p.name().length()).max().orElse(0);
        int value = provider.parameters().stream().mapToInt(p -> formatDefault(p).length()).max().orElse(0);
        int range = provider.parameters().stream().mapToInt(p -> p.range().length()).max().orElse(0);
        for (Parameter<?> p : provider.parameters()) {
            out.printf("  %-" + name + "s  default %-" + value + "s  accepts %-" + range + "s  %s%s%n", p.name(),
                    formatDefault(p), p.range(), p.description(), p.unit() == null ? "" : " [" + p.unit() + "]");
        }
        out.println();
        out.println("--continue-on-error: " + provider.create(java.util.Map.of()).passesOverOnError()
                .map(item -> "passes over " + item + ", counting each failure per errno (errors:<op>:<ERRNO>)")
                .orElse("not honoured: the run stops at its first error"));
        out.flush();
    }

    private static <T> String formatDefault(Parameter<T> p) {
        return p.format(p.defaultValue());
    }
}
