package dev.prism.cli;

import dev.prism.Suite;
import dev.prism.internal.RunDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code prism suite quick}: a bundle of benchmarks, against a fresh temporary directory unless told otherwise. */
@Command(name = "suite", description = "Runs a suite of benchmarks (quick: the main job, under a minute).")
final class SuiteCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "SUITE", description = "the suite: quick")
    private String name;

    @Option(names = "--target", paramLabel = "DIR",
            description = "the directory on the filesystem to qualify (default: a fresh temporary directory, removed afterwards)")
    private Path target;

    @CommandLine.Mixin
    private ScenarioOptionsMixin options;

    @Override
    public Integer call() throws IOException {
        Suite suite = Suite.named(name);
        Path temporary = target == null ? Files.createTempDirectory("prism-target-") : null;
        try {
            return ScenarioExecution.run(spec.commandLine(), suite.scenario(target != null ? target : temporary),
                    options.options, options.judging, false, new int[0]);
        } finally {
            if (temporary != null) {
                // after the results: a problem here is said, never in their place
                RunDirectory.Removal removal = RunDirectory.remove(temporary);
                if (!removal.complete()) {
                    spec.commandLine().getErr().println("prism: could not remove the temporary target: " + removal.summary());
                }
            }
        }
    }
}
