package dev.prism.cli;

import dev.prism.Results;
import dev.prism.RunResult;
import dev.prism.report.Gate;
import dev.prism.spi.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
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
        Gate gate;
        try {
            gate = Gate.fromJson(gateFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the gate file " + gateFile + ": " + e.getMessage(), e);
        }
        List<RunResult> runs = Results.load(results);
        List<RunResult> before = baseline == null ? null : Results.load(baseline);
        Gate.Verdict verdict = gate.evaluate(runs, before);
        PrintWriter out = spec.commandLine().getOut();
        out.println(verdict);
        out.flush();
        writeVerdict(verdict, junit, markdown, spec.commandLine().getErr());
        return verdict.passed() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
    }

    /** Writes the verdict as JUnit XML and Markdown where asked (atomically), saying on stderr what was written. */
    static void writeVerdict(Gate.Verdict verdict, Path junit, Path markdown, PrintWriter err) {
        write(junit, verdict.toJUnitXml("prism gate"), err);
        write(markdown, verdict.toMarkdown(), err);
    }

    /** Writes {@code text} to {@code file} atomically; a failure is said on stderr and never hides the verdict. */
    static void write(Path file, String text, PrintWriter err) {
        if (file == null) {
            return;
        }
        try {
            AtomicFiles.write(file.toAbsolutePath(), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            err.println("prism: could not write " + file + ": " + dev.prism.spi.Errno.describe(e));
        }
        err.flush();
    }
}
