package dev.prism.cli;

import dev.prism.report.Comparison;
import dev.prism.Results;
import dev.prism.RunResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/** {@code prism compare BASELINE CANDIDATE}: exit 0 when it passed on evidence, 1 when the candidate regressed or failed, 4 when inconclusive. */
@Command(name = "compare", description = "Compares two result sets statistic by statistic (mean and tails), over"
        + " repetitions; exits 1 when the candidate has a significant slowdown beyond a threshold or a failed run, 4 when"
        + " nothing regressed but not every statistic could be judged (inconclusive or n/a), 0 only when every one was.")
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", paramLabel = "BASELINE", description = "a result file or directory")
    private Path baseline;

    @CommandLine.Parameters(index = "1", paramLabel = "CANDIDATE", description = "a result file or directory")
    private Path candidate;

    @CommandLine.ArgGroup(exclusive = false, heading = "%nPairing and judging:%n")
    private ComparisonOptions judging = new ComparisonOptions();

    @Option(names = "--format", paramLabel = "text|md", defaultValue = "text", description = "table format (default: ${DEFAULT-VALUE})")
    private String format;

    @Override
    public Integer call() throws IOException {
        if (!format.equals("text") && !format.equals("md")) {
            throw new IllegalArgumentException("--format must be text or md, was '" + format + "'");
        }
        List<RunResult> before = Results.load(baseline);
        List<RunResult> after = Results.load(candidate);
        Comparison c = judging.toOptions().compare(before, after);
        if (c.rows().isEmpty() && c.failures().isEmpty()) {
            throw new IllegalArgumentException(baseline + " and " + candidate + " share no benchmark, parameters and task count"
                    + hint(before, after));
        }
        spec.commandLine().getOut().print(c.table(format.equals("md")));
        spec.commandLine().getOut().flush();
        return switch (c.outcome()) {
            case PASSED -> PrismCommand.EXIT_PASSED;
            case INCONCLUSIVE -> PrismCommand.EXIT_INCONCLUSIVE;
            case REGRESSION, FAILED -> PrismCommand.EXIT_FAILED;
        };
    }

    /** @return where runs of one benchmark and task count differ only in some parameters: the flag that pairs them */
    static String hint(List<RunResult> before, List<RunResult> after) {
        Set<String> differing = new TreeSet<>();
        for (RunResult a : after) {
            for (RunResult b : before) {
                if (a.benchmark().equals(b.benchmark()) && a.tasks() == b.tasks()) {
                    Set<String> keys = new TreeSet<>(a.parameters().keySet());
                    keys.addAll(b.parameters().keySet());
                    keys.stream().filter(k -> !Objects.equals(a.parameters().get(k), b.parameters().get(k))).forEach(differing::add);
                }
            }
        }
        return differing.isEmpty() ? "" : "; runs of the same benchmark differ in " + String.join(", ", differing)
                + " (pair them with --pair-ignoring " + String.join(",", differing) + ")";
    }
}
