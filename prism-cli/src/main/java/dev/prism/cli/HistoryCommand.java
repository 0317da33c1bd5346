package dev.prism.cli;

import dev.prism.report.History;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code prism history DIR…}: many runs over time as series; names where one shifted; exit 1 when one shifted slower. */
@Command(name = "history", description = "Reads the results of many runs (each result directory one run, ordered by"
        + " start), judges each run of every series against the runs before it, and names the first run where a series"
        + " shifted and stayed shifted, with what changed there (labels, programs, PRISM's commit, the host). Exits 1"
        + " when a series shifted slower.")
final class HistoryCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "DIR", arity = "1..*", description = "result directories, or directories holding"
            + " them (such as prism-results)")
    private List<Path> directories;

    @Option(names = "--window", paramLabel = "N", defaultValue = "5",
            description = "how many runs before each run it is judged against, 3..100 (default: ${DEFAULT-VALUE})")
    private int window;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "also write the history as one HTML page")
    private Path output;

    @CommandLine.ArgGroup(exclusive = false, heading = "%nJudging:%n")
    private ComparisonOptions judging = new ComparisonOptions();

    @Override
    public Integer call() throws IOException {
        History history = History.load(directories).window(window).options(judging.toOptions());
        spec.commandLine().getOut().print(history.table());
        spec.commandLine().getOut().flush();
        if (output != null) {
            history.writeHtml(output.toAbsolutePath());
            spec.commandLine().getErr().println("history: " + output);
            spec.commandLine().getErr().flush();
        }
        return history.passed() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
    }
}
