package dev.prism.cli;

import picocli.CommandLine;

/** Puts {@link ScenarioOptions} and the {@link ComparisonOptions} of {@code --baseline} into a command. */
final class ScenarioOptionsMixin {
    @CommandLine.ArgGroup(exclusive = false, heading = "%nResults and progress:%n")
    ScenarioOptions options = new ScenarioOptions();

    @CommandLine.ArgGroup(exclusive = false, heading = "%nAgainst a baseline (--baseline):%n")
    ComparisonOptions judging = new ComparisonOptions();
}
