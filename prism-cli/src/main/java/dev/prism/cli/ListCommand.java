package dev.prism.cli;

import dev.prism.BenchmarkProvider;
import dev.prism.Benchmarks;
import dev.prism.Suite;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** {@code prism list}: every benchmark and suite. */
@Command(name = "list", description = "Lists the benchmarks and suites.")
final class ListCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Benchmarks:");
        int width = Benchmarks.names().stream().mapToInt(String::length).max().orElse(0);
        for (BenchmarkProvider p : Benchmarks.providers()) {
            out.printf("  %-" + width + "s  %s%n", p.name(), p.description());
        }
        out.println("Suites:");
        for (Suite s : Suite.values()) {
            out.printf("  %-" + width + "s  %s%n", s.label(), s.description());
            out.printf("  %-" + width + "s    needs: %s; takes %s%n", "", s.needs(), s.duration());
        }
        out.flush();
    }
}
