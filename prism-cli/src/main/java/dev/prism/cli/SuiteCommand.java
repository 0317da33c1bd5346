package dev.prism.cli;

import dev.prism.Suite;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code prism suite quick}: a bundle of benchmarks, against a fresh temporary directory unless told otherwise. */
@Command(name = "suite", description = "Runs a suite of benchmarks: quick (the main job, about a minute), standard (the"
        + " nightly qualification, 15-30 min on one node, torch included), paper (the paper's Table 3 at its sizes) or"
        + " frontier (llama3 8B/70B/405B checkpoints as their training jobs write them);"
        + " --plan prints every configuration without running it.")
final class SuiteCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "SUITE", description = "the suite: quick, standard, paper or frontier")
    private String name;

    @Option(names = "--plan", description = "print every configuration, the task counts and what this machine lacks, and exit")
    private boolean plan;

    @Option(names = "--tasks", paramLabel = "N[,N…]", split = ",",
            description = "task counts to sweep instead of the suite's own (quick, standard: 1,2; paper: 8 to 256; frontier: 8)")
    private int[] tasks;

    @Option(names = "--target", paramLabel = "DIR",
            description = "the directory on the filesystem to qualify (default: a fresh temporary directory, removed afterwards)")
    private Path target;

    @CommandLine.Mixin
    private ScenarioOptionsMixin options;

    /** Prints each configuration of {@code suite}, numbered, with the parameters that differ from its defaults. */
    private void printPlan(Suite suite, List<Suite.Entry> entries, int[] taskCounts) {
        PrintWriter out = spec.commandLine().getOut();
        long runs = entries.stream().filter(Suite.Entry::runs).count();
        out.println("suite " + suite.label() + ": " + suite.description());
        out.println("needs: " + suite.needs());
        out.println("takes: " + suite.duration());
        out.println("tasks " + Arrays.stream(taskCounts).mapToObj(String::valueOf).collect(Collectors.joining(","))
                + "; " + suite.repetitions() + " repetitions after " + suite.warmups() + " warm-up(s); " + entries.size()
                + " configurations, " + runs + " run here (" + runs * taskCounts.length + " runs in all)");
        int width = entries.stream().mapToInt(e -> e.benchmark().name().length()).max().orElse(0);
        int i = 0;
        for (Suite.Entry e : entries) {
            String number = e.runs() ? String.format("%3d", ++i) : "  -";
            String parameters = dev.prism.spi.Formats.parameters(e.benchmark().parameters().changedFromDefaults());
            out.printf("%s  %-" + width + "s  %s%s%n", number, e.benchmark().name(), parameters.isEmpty() ? "(defaults)" : parameters,
                    e.runs() ? "" : "   left out: " + e.missing());
            for (int tasks : taskCounts) {
                footprint(e.benchmark(), tasks).ifPresent(line -> out.printf("     %-" + width + "s  at %d task%s: %s%n", "", tasks,
                        tasks == 1 ? "" : "s", line));
            }
        }
        out.flush();
    }

    /** @return what a configuration writes and holds at a task count, or why it cannot run at it; empty when not known */
    private static java.util.Optional<String> footprint(dev.prism.Benchmark benchmark, int tasks) {
        try {
            return benchmark.footprint(tasks).map(f -> "writes " + dev.prism.spi.Formats.bytes(f.targetBytes())
                    + " at its peak, holds " + dev.prism.spi.Formats.bytes(f.memoryBytesPerNode()) + " of memory per node ("
                    + f.summary() + ")");
        } catch (IllegalArgumentException e) {
            return java.util.Optional.of("refused: " + e.getMessage());
        }
    }

    @Override
    public Integer call() throws IOException {
        Suite suite = Suite.named(name);
        int[] taskCounts = tasks != null ? tasks : suite.tasks();
        dev.prism.Scenario.builder().tasks(taskCounts); // the API's rule for task counts, said before the plan too
        List<Suite.Entry> entries = suite.plan();
        if (plan) {
            printPlan(suite, entries, taskCounts);
            return PrismCommand.EXIT_PASSED;
        }
        PrintWriter err = spec.commandLine().getErr();
        java.util.Set<String> said = new java.util.HashSet<>();
        entries.stream().filter(e -> !e.runs() && said.add(e.benchmark().name())).forEach(e -> err.println(
                "prism: suite " + suite.label() + " leaves out " + e.benchmark().name() + ": " + e.missing()));
        err.flush();
        Path temporary = target == null ? Files.createTempDirectory("prism-target-") : null;
        try {
            Path measured = target != null ? target : temporary;
            return ScenarioExecution.run(spec.commandLine(), suite.scenario(measured).tasks(taskCounts), measured,
                    tasks != null, options.options, options.judging, null);
        } finally {
            if (temporary != null) {
                // after the results: a problem here is said, never in their place
                dev.prism.DirectoryRemoval removal = dev.prism.DirectoryRemoval.of(temporary);
                if (!removal.complete()) {
                    spec.commandLine().getErr().println("prism: could not remove the temporary target: " + removal.summary());
                }
            }
        }
    }
}
