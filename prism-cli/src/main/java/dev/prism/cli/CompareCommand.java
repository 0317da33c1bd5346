package dev.prism.cli;

import dev.prism.Comparison;
import dev.prism.Results;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code prism compare BASELINE CANDIDATE}: exit 1 when the candidate regressed. */
@Command(name = "compare", description = "Compares two result sets; exits 1 when the candidate has a significant"
        + " slowdown beyond the threshold.")
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", paramLabel = "BASELINE", description = "a result file or directory")
    private Path baseline;

    @CommandLine.Parameters(index = "1", paramLabel = "CANDIDATE", description = "a result file or directory")
    private Path candidate;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = "10",
            description = "slowdowns up to this are tolerated (default: ${DEFAULT-VALUE}%%)")
    private double threshold;

    @Option(names = "--format", paramLabel = "text|md", defaultValue = "text", description = "table format (default: ${DEFAULT-VALUE})")
    private String format;

    @Override
    public Integer call() throws IOException {
        if (!format.equals("text") && !format.equals("md")) {
            throw new IllegalArgumentException("--format must be text or md, was '" + format + "'");
        }
        Comparison c = Comparison.of(Results.load(baseline), Results.load(candidate), threshold);
        if (c.rows().isEmpty()) {
            throw new IllegalArgumentException(baseline + " and " + candidate + " share no benchmark, parameters and task count");
        }
        spec.commandLine().getOut().print(c.table(format.equals("md")));
        spec.commandLine().getOut().flush();
        return c.hasRegression() ? PrismCommand.EXIT_FAILED : PrismCommand.EXIT_PASSED;
    }
}
