package dev.prism.cli;

import dev.prism.report.Report;
import dev.prism.Results;
import dev.prism.RunResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code prism report RESULTS… -o report.html}: result sets side by side as one self-contained HTML page. */
@Command(name = "report", description = "Writes one self-contained HTML report (and optionally CSV and an HdrHistogram"
        + " log) of result sets side by side: a summary against the first set, latency on a log axis, percentile"
        + " distributions and throughput per operation.")
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "[LABEL=]RESULTS", arity = "1..*",
            description = "result files or directories, each a set; LABEL names it (default: the directory's name)")
    private List<String> results;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "the HTML file to write")
    private Path output;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write every measurement as CSV")
    private Path csv;

    @Option(names = "--hdr-log", paramLabel = "FILE", description = "also write the histograms as an HdrHistogram log")
    private Path hdrLog;

    @Option(names = "--x", paramLabel = "PARAM", description = "put a swept parameter (-p files=100,1000) on the x axis of"
            + " the latency and throughput charts instead of the task count")
    private String xParameter;

    @Option(names = "--history", paramLabel = "DIR", description = "result directories of runs over time (as for prism"
            + " history): the report shows what shifted, and draws the series that did; repeatable")
    private List<Path> history;

    @CommandLine.ArgGroup(exclusive = false, heading = "%nThe summary's pairing and judging (with two or more sets):%n")
    private ComparisonOptions judging = new ComparisonOptions();

    @Override
    public Integer call() throws IOException {
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        for (String spec : results) {
            int eq = spec.indexOf('=');
            Path path = Path.of(eq > 0 ? spec.substring(eq + 1) : spec);
            String label = eq > 0 ? spec.substring(0, eq) : path.toAbsolutePath().normalize().getFileName().toString();
            if (sets.put(label, Results.load(path)) != null) {
                throw new IllegalArgumentException("two result sets are labelled '" + label + "': name them LABEL=PATH");
            }
        }
        Report report = Report.of(sets, judging.toOptions());
        if (xParameter != null) {
            report = report.xAxis(xParameter);
        }
        if (history != null && !history.isEmpty()) {
            report = report.history(dev.prism.report.History.load(history).options(judging.toOptions()));
        }
        report.writeHtml(output);
        if (csv != null) {
            report.writeCsv(csv);
        }
        if (hdrLog != null) {
            report.writeHistogramLog(hdrLog);
        }
        spec.commandLine().getErr().println("report: " + output + (csv == null ? "" : ", " + csv)
                + (hdrLog == null ? "" : ", " + hdrLog));
        return PrismCommand.EXIT_PASSED;
    }
}
