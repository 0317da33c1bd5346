package dev.prism.cli;

import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.report.Comparison;
import dev.prism.report.Gate;
import dev.prism.report.Scorecard;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Everything that judges results beyond their own pass or fail, in one place for {@code run}, {@code suite},
 * {@code qualify} and {@code gate}: a gate (with its baseline), a comparison table against the baseline, a
 * qualification's scorecard, the verdict as JUnit XML and Markdown, and the figures as metrics. Its inputs are read and
 * checked when it is made, and against the scenario before any work ({@link #check}); {@link #judge} says every verdict
 * and whether all passed.
 */
final class Verdicts {
    private final Gate gate;
    private final List<RunResult> baseline;
    private final Comparison.Options comparing;
    private final Function<List<RunResult>, Scorecard> qualification;
    private final Path junit;
    private final Path markdown;
    private final MetricsExport metrics;

    private Verdicts(Gate gate, List<RunResult> baseline, Comparison.Options comparing,
                     Function<List<RunResult>, Scorecard> qualification, Path junit, Path markdown, MetricsExport metrics) {
        this.gate = gate;
        this.baseline = baseline;
        this.comparing = comparing;
        this.qualification = qualification;
        this.junit = junit;
        this.markdown = markdown;
        this.metrics = metrics;
    }

    /**
     * @param qualification the scorecard of the results, or null where no qualification judges them
     * @return the verdicts a command's options ask for, each input read and checked now
     */
    static Verdicts of(ScenarioOptions options, ComparisonOptions judging, Function<List<RunResult>, Scorecard> qualification) {
        MetricsExport metrics;
        try {
            metrics = MetricsExport.of(options.metrics, options.push, options.pushAuthFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the push auth file " + options.pushAuthFile + ": "
                    + dev.prism.spi.Errno.describe(e), e);
        }
        return of(options.gate, options.baseline, judging.toOptions(), qualification, options.junit, options.markdown, metrics);
    }

    /** @return the verdicts of {@code prism gate}: a gate file, a baseline, where to write the verdict; no metrics */
    static Verdicts ofGate(Path gateFile, Path baseline, Path junit, Path markdown) {
        if (gateFile == null) {
            throw new IllegalArgumentException("give the gate file: prism gate GATE RESULTS");
        }
        return of(gateFile, baseline, null, null, junit, markdown, MetricsExport.none());
    }

    /** @return the verdicts of {@code prism qualify --results}: the scorecard, written where asked */
    static Verdicts ofQualification(Function<List<RunResult>, Scorecard> qualification, Path junit, Path markdown) {
        return of(null, null, null, qualification, junit, markdown, MetricsExport.none());
    }

    private static Verdicts of(Path gateFile, Path baselineDirectory, Comparison.Options comparing,
                               Function<List<RunResult>, Scorecard> qualification, Path junit, Path markdown,
                               MetricsExport metrics) {
        if ((junit != null || markdown != null) && gateFile == null && qualification == null) {
            throw new IllegalArgumentException((junit != null ? "--junit" : "--markdown") + " writes a gate's verdict;"
                    + " give the expectations with --gate FILE");
        }
        if ((junit != null || markdown != null) && gateFile != null && qualification != null) {
            throw new IllegalArgumentException((junit != null ? "--junit" : "--markdown") + " holds one verdict, and here"
                    + " both the scorecard and --gate would write it; judge the gate apart with prism gate GATE RESULTS");
        }
        Gate gate = null;
        try {
            gate = gateFile == null ? null : Gate.fromJson(gateFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the gate file " + gateFile + ": " + e.getMessage(), e);
        }
        List<RunResult> baseline;
        try {
            baseline = baselineDirectory == null ? null : dev.prism.Results.load(baselineDirectory);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + baselineDirectory + ": " + e.getMessage(), e);
        }
        return new Verdicts(gate, baseline, comparing, qualification, junit, markdown, metrics);
    }

    /** Refuses, before any work, a gate naming what the scenario will not produce (a typo: crate, create_file). */
    void check(Scenario scenario) {
        if (gate != null) {
            gate.requireMatches(scenario);
        }
    }

    /** @return the export of the figures, for a listener that pushes intervals as they close */
    MetricsExport metrics() {
        return metrics;
    }

    /**
     * Says each verdict — the comparison with the baseline (tables only), the gate's, the scorecard — on {@code out}
     * ({@code err} for the gate's with {@code --json}, whose stdout holds only documents), writes JUnit XML, Markdown and
     * metrics where asked (a failure to write is said on {@code err}, never in a verdict's place).
     *
     * @return whether every verdict passed (true with none)
     */
    boolean judge(List<RunResult> runs, boolean json, PrintWriter out, PrintWriter err) {
        boolean passed = true;
        if (baseline != null && comparing != null && !json) {
            out.println();
            out.print(comparing.compare(baseline, runs).table(false));
        }
        if (gate != null) {
            Gate.Verdict verdict = gate.evaluate(runs, baseline);
            (json ? err : out).println(verdict);
            passed = verdict.passed();
            if (qualification == null) {
                write(junit, verdict.toJUnitXml("prism gate"), err);
                write(markdown, verdict.toMarkdown(), err);
            }
        }
        metrics.export(runs, err);
        if (qualification != null && !runs.isEmpty()) {
            Scorecard card = qualification.apply(runs);
            out.println();
            out.print(card.table());
            write(junit, card.toJUnitXml(), err);
            write(markdown, card.toMarkdown(), err);
            passed &= card.passed();
        }
        out.flush();
        err.flush();
        return passed;
    }

    /** Writes {@code text} to {@code file} atomically; a failure is said on stderr and never hides the verdict. */
    private static void write(Path file, String text, PrintWriter err) {
        if (file == null) {
            return;
        }
        try {
            dev.prism.spi.AtomicFiles.write(file.toAbsolutePath(), text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            err.println("prism: could not write " + file + ": " + dev.prism.spi.Errno.describe(e));
        }
        err.flush();
    }
}
