package dev.prism.cli;

import picocli.CommandLine;

/** Puts {@link ScenarioOptions} into a command. */
final class ScenarioOptionsMixin {
    @CommandLine.ArgGroup(exclusive = false, heading = "%nResults and progress:%n")
    ScenarioOptions options = new ScenarioOptions();
}
