package dev.prism.cli;

import dev.prism.Results;
import dev.prism.RunResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code prism gate GATE RESULTS}: judges results already written against a gate file; exit 1 when one fails. */
@Command(name = "gate", description = "Judges results already written against a gate file of expectations (and a"
        + " baseline for the relative ones); exits 1 when an expectation fails. --junit and --markdown write the verdict"
        + " where CI systems show it.")
final class GateCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", paramLabel = "GATE", description = "the gate file (JSON expectations)")
    private Path gateFile;

    @CommandLine.Parameters(index = "1", paramLabel = "RESULTS", description = "a result file or directory")
    private Path results;

    @Option(names = "--baseline", paramLabel = "DIR", description = "earlier results, for expectations that say"
            + " notSlowerThanBaselineBy")
    private Path baseline;

    @Option(names = "--junit", paramLabel = "FILE", description = "write the verdict as JUnit XML, one test case per"
            + " expectation and run")
    private Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "write the verdict as Markdown, for a CI job's"
            + " summary page")
    private Path markdown;

    @Override
    public Integer call() throws IOException {
        Verdicts verdicts = Verdicts.ofGate(gateFile, baseline, junit, markdown);
        List<RunResult> runs = Results.load(results);
        return verdicts.judge(runs, false, spec.commandLine().getOut(), spec.commandLine().getErr())
                ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
    }
}
