package dev.prism.cli;

import dev.prism.report.Qualification;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code prism qualify REQUIREMENTS --target DIR}: the requirements' benchmarks, then a scorecard; exit 0 only if all pass. */
@Command(name = "qualify", description = "Derives from a requirements file (the job, checkpoints, data loading,"
        + " environments, interactive operations, in a team's units) the figure each requirement needs, runs the"
        + " benchmarks that measure them on the target, and prints a scorecard: needed, measured with its 95%% interval,"
        + " margin, PASS/FAIL/INCONCLUSIVE and the evidence. Exits 0 only when every requirement passes.")
final class QualifyCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "REQUIREMENTS", arity = "0..1", description = "the requirements file (JSON,"
            + " comments allowed); or --profile")
    private Path file;

    @Option(names = "--profile", paramLabel = "home|project", description = "a shipped requirements file instead of"
            + " REQUIREMENTS: home (code, environments, small I/O) or project (checkpoints, datasets, large I/O)")
    private String profile;

    @Option(names = "--print-profile", paramLabel = "home|project", description = "print a shipped requirements file, to"
            + " copy and edit, and exit")
    private String printProfile;

    @Option(names = "--plan", description = "print each requirement, what it needs and the benchmark that measures it, and exit")
    private boolean plan;

    @Option(names = "--target", paramLabel = "DIR", description = "the directory on the filesystem to qualify")
    private Path target;

    @Option(names = "--tasks", paramLabel = "N", description = "ranks to measure at (default: this host's CPUs, at most"
            + " the job's ranks); the scorecard says where the job has more")
    private Integer tasks;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "3", description = "measured repetitions of each benchmark,"
            + " after a warm-up; the 95%% interval needs at least 2 (default: ${DEFAULT-VALUE})")
    private int repetitions;

    @Option(names = "--results", paramLabel = "DIR", description = "judge results already written (a run of the same"
            + " configurations at --tasks) instead of running; no --target needed")
    private Path results;

    @CommandLine.Mixin
    private ScenarioOptionsMixin options;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (printProfile != null) {
            out.print(Qualification.profileText(printProfile));
            out.flush();
            return PrismCommand.EXIT_PASSED;
        }
        if ((file == null) == (profile == null)) {
            throw new IllegalArgumentException("give the requirements as a file (prism qualify requirements.json) or a"
                    + " shipped profile (--profile home|project), one of them");
        }
        Qualification q = file != null ? Qualification.fromJson(file) : Qualification.profile(profile);
        int at = tasks != null ? tasks : Math.max(1, Math.min(q.jobRanks(), Runtime.getRuntime().availableProcessors()));
        dev.prism.Scenario.builder().tasks(at); // the API's rule for task counts, said before the plan too
        if (plan) {
            out.print(q.plan(at));
            out.flush();
            return PrismCommand.EXIT_PASSED;
        }
        if (results != null) {
            Verdicts verdicts = Verdicts.ofQualification(runs -> q.judge(runs, at), options.options.junit,
                    options.options.markdown);
            return verdicts.judge(dev.prism.Results.load(results), false, out, spec.commandLine().getErr())
                    ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
        }
        if (target == null) {
            throw new IllegalArgumentException("--target DIR is required: the directory on the filesystem to qualify");
        }
        // the task count is the qualification's own, under SLURM too: the scorecard judges the runs at it
        return ScenarioExecution.run(spec.commandLine(), q.scenario(target, at, repetitions), target, true, options.options,
                options.judging, runs -> q.judge(runs, at));
    }
}
