package dev.prism.report;

import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RepetitionResult;
import dev.prism.RunResult;
import dev.prism.report.Qualification.Measure;
import dev.prism.report.Qualification.Requirement;
import dev.prism.report.internal.QualificationFile;
import dev.prism.report.internal.VerdictFormats;
import dev.prism.spi.Formats;
import dev.prism.spi.StudentT;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A qualification's outcome: per requirement, the figure it needs, the figure measured with its 95% interval over
 * repetitions, the margin, a verdict and the run that is the evidence. A verdict is {@code PASS} only where the whole
 * interval is on the passing side, {@code FAIL} where it is all on the failing side, and {@code INCONCLUSIVE} where it
 * straddles the figure needed: the repetitions cannot tell. Where the measurement ran at fewer ranks than the job, the
 * row says so and on what basis a figure stands for the job.
 *
 * <pre>{@code
 * import dev.prism.report.Qualification;
 * import java.util.List;
 *
 * var q = Qualification.fromJson("""
 *     {"job": {"ranks": 2}, "interactive": {"statP99": "50ms", "listDirectoryFiles": 100}}""");
 * var card = q.judge(List.of(), 2);   // no results yet: each row says what did not run
 * System.out.println(card.passed());            // false: nothing measured is nothing qualified
 * System.out.print(card.table());
 * }</pre>
 *
 * @param name     the requirements' name
 * @param jobRanks the ranks of the job the requirements describe
 * @param tasks    the ranks the measurements ran at
 * @param rows     one per requirement
 */
public record Scorecard(String name, int jobRanks, int tasks, List<Row> rows) {
    /** A requirement's verdict. */
    public enum Verdict {
        /** The whole 95% interval meets the figure needed. */
        PASS,
        /** The whole interval misses it, or the run failed. */
        FAIL,
        /** The interval straddles the figure needed. */
        INCONCLUSIVE,
        /** Nothing measured it: the benchmark did not run or could not. */
        NOT_MEASURED
    }

    /**
     * One requirement judged.
     *
     * @param requirement the requirement
     * @param measured    the figure measured (per second for a rate, ns for a latency; NaN when not measured)
     * @param low         the lower end of its 95% interval over repetitions (NaN with fewer than 2)
     * @param high        the upper end
     * @param repetitions the repetitions that measured it
     * @param verdict     the verdict
     * @param basis       at what scale it was measured and what, if anything, is extrapolated
     * @param evidence    the result document that holds the measurement ({@code <run id>/NN-benchmark-tN.json}), or
     *                    why there is none
     */
    public record Row(Requirement requirement, double measured, double low, double high, int repetitions,
                      Verdict verdict, String basis, String evidence) {
        /** Checks. */
        public Row {
            Objects.requireNonNull(requirement, "requirement");
            Objects.requireNonNull(verdict, "verdict");
        }

        /** @return how far the measured figure is past the one needed, as a fraction (negative: short of it) */
        public double margin() {
            return requirement.measure().isRate() ? measured / requirement.needed() - 1 : 1 - measured / requirement.needed();
        }

        /** @return the needed figure as text: {@code ≥ 9.15 MB/s per rank}, {@code ≤ 5.00 ms} */
        public String neededText() {
            return (requirement.measure().isRate() ? "≥ " : "≤ ") + show(requirement, requirement.needed())
                    + (requirement.measure().isRate() ? " per rank" : "");
        }

        /** @return the measured figure and its interval as text */
        public String measuredText() {
            if (Double.isNaN(measured)) {
                return "-";
            }
            return show(requirement, measured) + (Double.isNaN(low) ? "" : " [" + show(requirement, low) + ", "
                    + show(requirement, high) + "]");
        }

        /** @return a line saying what was needed, measured, the margin, the basis and the evidence */
        public String message() {
            if (verdict == Verdict.NOT_MEASURED) {
                return requirement.statement() + ": not measured: " + evidence;
            }
            return String.format(Locale.ROOT, "%s: needed %s, measured %s%s, margin %+.0f%%; %s; evidence %s",
                    requirement.statement(), neededText(), measuredText(),
                    repetitions == 1 ? " (1 repetition: no interval)" : " over " + repetitions + " repetitions",
                    margin() * 100, basis, evidence);
        }
    }

    /** Copies. */
    public Scorecard {
        rows = List.copyOf(rows);
    }

    /** @return whether every requirement passed */
    public boolean passed() {
        return rows.stream().allMatch(r -> r.verdict() == Verdict.PASS);
    }

    /** @return the rows that did not pass */
    public List<Row> failures() {
        return rows.stream().filter(r -> r.verdict() != Verdict.PASS).toList();
    }

    static Row judge(Requirement r, List<RunResult> runs, int tasks, int jobRanks) {
        java.util.Map<String, String> parameters = r.benchmarkAt(tasks).recordedParameters();
        int index = -1;
        for (int i = 0; i < runs.size(); i++) {
            RunResult run = runs.get(i);
            if (run.benchmark().equals(r.benchmark().name()) && run.tasks() == tasks && run.parameters().equals(parameters)) {
                index = i;
            }
        }
        if (index < 0) {
            return new Row(r, Double.NaN, Double.NaN, Double.NaN, 0, Verdict.NOT_MEASURED, "",
                    "no run of " + r.configuration(tasks) + " at " + tasks + " task(s) in the results");
        }
        RunResult run = runs.get(index);
        String evidence = run.runId() + "/" + String.format(Locale.ROOT, "%02d-%s-t%d.json", index + 1, run.benchmark(), run.tasks());
        String basis = basis(r, tasks, jobRanks) + amplification(run) + busy(run.conditions());
        if (!run.passed()) {
            return new Row(r, Double.NaN, Double.NaN, Double.NaN, run.repetitions().size(), Verdict.FAIL,
                    basis + "; the run " + run.status() + "ED: " + run.failure().message(), evidence);
        }
        double[] samples = run.repetitions().stream().mapToDouble(rep -> sample(r, rep)).filter(v -> !Double.isNaN(v)).toArray();
        if (samples.length == 0) {
            return new Row(r, Double.NaN, Double.NaN, Double.NaN, 0, Verdict.NOT_MEASURED, basis,
                    evidence + " measured no " + r.operation());
        }
        double measured = r.measure() == Measure.P99 ? run.measurement(r.operation()).p99Nanos() : mean(samples);
        double low = Double.NaN;
        double high = Double.NaN;
        if (samples.length >= 2 && java.util.Arrays.stream(samples).allMatch(v -> v > 0)) {
            // on the log scale, as PRISM's intervals of means are: a rate or a latency is never below zero, and
            // repetitions of storage spread by factors more than by sums
            double[] logs = java.util.Arrays.stream(samples).map(Math::log).toArray();
            double mean = mean(logs);
            double sd = 0;
            for (double v : logs) {
                sd += (v - mean) * (v - mean);
            }
            double half = StudentT.quantile975(logs.length - 1) * Math.sqrt(sd / (logs.length - 1) / logs.length);
            low = Math.min(measured, Math.exp(mean - half));
            high = Math.max(measured, Math.exp(mean + half));
        }
        double needed = r.needed();
        double worst = Double.isNaN(low) ? measured : r.measure().isRate() ? low : high;
        double best = Double.isNaN(low) ? measured : r.measure().isRate() ? high : low;
        boolean worstMeets = r.measure().isRate() ? worst >= needed : worst <= needed;
        boolean bestMeets = r.measure().isRate() ? best >= needed : best <= needed;
        Verdict verdict = worstMeets ? Verdict.PASS : bestMeets ? Verdict.INCONCLUSIVE : Verdict.FAIL;
        if (r.measure().isRate()) {
            basis += String.format(Locale.ROOT, "; aggregate at %d rank(s) ≥ %s", tasks, show(r, measured * tasks));
        }
        return new Row(r, measured, low, high, samples.length, verdict, basis, evidence);
    }

    /** @return the requirement's figure in one repetition, or NaN where it measured none */
    static double sample(Requirement r, RepetitionResult rep) {
        switch (r.measure()) {
            case P99 -> {
                Measurement m = rep.measurements().get(r.operation());
                return m == null || m.count() == 0 ? Double.NaN : m.p99Nanos();
            }
            case MEAN -> {
                double sum = 0;
                for (String op : r.operation().split("\\+")) {
                    Measurement m = rep.measurements().get(op);
                    if (m == null || m.count() == 0) {
                        return Double.NaN;
                    }
                    sum += m.meanNanos();
                }
                return sum;
            }
            case SLOWEST_RANK_TIME -> {
                double slowest = Double.NaN;
                for (RankResult rank : rep.ranks()) {
                    Measurement m = rank.measurements().get(r.operation());
                    if (m != null && m.count() > 0) {
                        slowest = Double.isNaN(slowest) ? m.meanNanos() : Math.max(slowest, m.meanNanos());
                    }
                }
                return slowest;
            }
            default -> {
                // the slowest rank that did the work: a checkpoint is written, an epoch read, when its last rank is done
                double slowest = Double.NaN;
                for (RankResult rank : rep.ranks()) {
                    Measurement m = rank.measurements().get(r.operation());
                    if (m == null || m.count() == 0 || rank.phaseNanos() <= 0) {
                        continue;
                    }
                    double amount = r.measure() == Measure.READ_FILES_PER_RANK || r.measure() == Measure.SAMPLES_PER_RANK
                            ? m.count() : m.bytes();
                    double rate = amount / (rank.phaseNanos() / 1e9);
                    slowest = Double.isNaN(slowest) ? rate : Math.min(slowest, rate);
                }
                return slowest;
            }
        }
    }

    private static String basis(Requirement r, int tasks, int jobRanks) {
        if (tasks >= jobRanks) {
            return "measured at the job's " + jobRanks + " rank(s)";
        }
        if (r.measure().isRate()) {
            return String.format(Locale.ROOT, "measured at %d of the job's %d ranks: the per-rank figure is the slowest of"
                    + " %d; that the job's %d ranks each get as much (linear scaling) is extrapolated, not measured",
                    tasks, jobRanks, tasks, jobRanks);
        }
        if (r.measure() == Measure.SLOWEST_RANK_TIME) {
            return String.format(Locale.ROOT, "measured at %d of the job's %d ranks, the largest shard's among them; that"
                    + " the storage serves the job's %d ranks at once is not measured%s", tasks, jobRanks, jobRanks,
                    tasks > 1 ? "" : "; one rank is the coordinator alone: the other ranks' wait for the .metadata it"
                            + " sends every rank at the end of a save is not measured (run 2 or more tasks)");
        }
        return String.format(Locale.ROOT, "measured at %d of the job's %d ranks: the load of %d ranks on the metadata"
                + " service was not measured", tasks, jobRanks, jobRanks);
    }

    /**
     * @return for a dataloader's run, the read amplification beside its rate: bytes the ranks and their workers read
     *         from storage ({@code storage_read_bytes}, the kernel's) ÷ bytes of the samples delivered; empty otherwise
     */
    static String amplification(RunResult run) {
        double amplification = dev.prism.report.internal.BreakdownTables.readAmplification(run);
        if (Double.isNaN(amplification)) {
            return "";
        }
        return String.format(Locale.ROOT, "; read amplification %.2f (bytes read from storage ÷ bytes of the samples"
                + " delivered%s)", amplification, amplification == 0 ? ": the kernel counted none from storage, a warm"
                + " cache or a filesystem whose reads it does not count" : "");
    }

    /** @return where the host was busy while the run measured, a clause naming the figures; empty otherwise */
    static String busy(dev.prism.HostConditions c) {
        List<String> said = c.differences(dev.prism.HostConditions.IDLE);
        return said.isEmpty() ? "" : "; WARNING the host was busy while it ran (measured vs idle): " + String.join(", ", said);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    static String show(Requirement r, double v) {
        return switch (r.measure()) {
            case WRITE_BYTES_PER_RANK, READ_BYTES_PER_RANK -> QualificationFile.decimal(v) + "/s";
            case READ_FILES_PER_RANK -> String.format(Locale.ROOT, "%.4g files/s", v);
            case SAMPLES_PER_RANK -> String.format(Locale.ROOT, "%.4g samples/s", v);
            default -> Formats.latency(v);
        };
    }

    /** @return the scorecard as a table: requirement, needed, measured [95% CI], margin, verdict, evidence; the bases below */
    public String table() {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[]{"requirement", "needed", "measured (per rank for rates) [95% CI over reps]", "margin", "verdict",
                "evidence"});
        for (Row row : rows) {
            lines.add(new String[]{row.requirement().id(), row.neededText(), row.measuredText(),
                    Double.isNaN(row.measured()) ? "-" : String.format(Locale.ROOT, "%+.0f%%", row.margin() * 100),
                    row.verdict().name(), row.evidence()});
        }
        lines.replaceAll(l -> java.util.Arrays.stream(l).map(dev.prism.spi.TerminalText::escape).toArray(String[]::new));
        int[] w = new int[lines.get(0).length];
        lines.forEach(l -> {
            for (int i = 0; i < l.length; i++) {
                w[i] = Math.max(w[i], l[i].length());
            }
        });
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "qualification %s: a job of %d rank(s), measured at %d%n",
                name, jobRanks, tasks));
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                boolean left = i == 0 || i >= 4;
                String pad = " ".repeat(w[i] - l[i].length());
                line.append(i == 0 ? "" : "  ").append(left ? l[i] + pad : pad + l[i]);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        for (Row row : rows) {
            out.append("  ").append(dev.prism.spi.TerminalText.escape(row.requirement().id() + ": "
                    + row.requirement().statement() + " ⇒ " + row.requirement().derivation() + "; "
                    + (row.basis().isEmpty() ? row.evidence() : row.basis()))).append('\n');
        }
        long passed = rows.stream().filter(r -> r.verdict() == Verdict.PASS).count();
        out.append(String.format(Locale.ROOT, "%s: %d of %d requirement(s) passed%n", passed() ? "QUALIFIED" : "NOT QUALIFIED",
                passed, rows.size()));
        return out.toString();
    }

    /** @return the scorecard as JUnit XML: one test case per requirement, any verdict but PASS a failure */
    public String toJUnitXml() {
        return VerdictFormats.junitXml("prism qualify " + name, checks(), List.of());
    }

    /** @return the scorecard as Markdown, for a CI job's summary page */
    public String toMarkdown() {
        return VerdictFormats.markdown("Qualification " + name, checks(), List.of());
    }

    private List<VerdictFormats.Check> checks() {
        return rows.stream().map(r -> new VerdictFormats.Check(r.requirement().id() + ": " + r.requirement().statement(),
                r.verdict() == Verdict.PASS, r.verdict() + " " + r.message())).toList();
    }
}
