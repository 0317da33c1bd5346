package dev.prism.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** {@code prism sbatch}: prints an sbatch script that sweeps task counts, one srun step per count. */
@Command(name = "sbatch", description = "Prints an sbatch script running 'prism run' once per task count under srun.",
        footer = {"", "Example:", "  prism sbatch --tasks 8,16,32 --nodes 4 -- create_files --target /mnt/lustre/prism -p files=5000 > sweep.sh",
                "  sbatch sweep.sh"})
final class SbatchCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--tasks", paramLabel = "N[,N…]", split = ",", required = true, description = "task counts to sweep")
    private int[] tasks;

    @Option(names = "--nodes", paramLabel = "N", description = "nodes to spread the tasks over (default: let SLURM choose)")
    private Integer nodes;

    @Option(names = "--time", paramLabel = "HH:MM:SS", defaultValue = "01:00:00", description = "job time limit (default: ${DEFAULT-VALUE})")
    private String time;

    @Option(names = "--partition", paramLabel = "NAME", description = "partition to submit to")
    private String partition;

    @Option(names = "--job-name", paramLabel = "NAME", defaultValue = "prism", description = "job name (default: ${DEFAULT-VALUE})")
    private String jobName;

    @CommandLine.Parameters(paramLabel = "RUN_ARGS", arity = "1..*",
            description = "after '--': what 'prism run' gets (benchmarks, --target, -p …); --launcher slurm and --tasks are added")
    private List<String> runArgs;

    @Override
    public void run() {
        for (int n : tasks) {
            if (n < 1) {
                throw new IllegalArgumentException("--tasks must each be at least 1, was " + n);
            }
        }
        if (!time.matches("(\\d+-)?\\d{1,2}:\\d{2}:\\d{2}")) {
            throw new IllegalArgumentException("--time must look like 01:00:00 or 1-12:00:00, was '" + time + "'");
        }
        int max = Arrays.stream(tasks).max().orElse(1);
        Path prism = Path.of(System.getProperty("prism.script", "prism")).toAbsolutePath();
        PrintWriter out = spec.commandLine().getOut();
        out.println("#!/bin/bash");
        out.println("# Written by 'prism sbatch': one srun step per task count; in each, every task is a PRISM rank");
        out.println("# and rank 0 coordinates, measures and writes the results.");
        out.println("#SBATCH --job-name=" + jobName);
        out.println("#SBATCH --ntasks=" + max);
        if (nodes != null) {
            out.println("#SBATCH --nodes=" + nodes);
        }
        out.println("#SBATCH --time=" + time);
        if (partition != null) {
            out.println("#SBATCH --partition=" + partition);
        }
        out.println("#SBATCH --output=prism-%j.out");
        out.println("set -euo pipefail");
        out.println("PRISM=${PRISM:-" + shellQuote(prism.toString()) + "}");
        out.println("for n in " + Arrays.stream(tasks).mapToObj(String::valueOf).collect(Collectors.joining(" ")) + "; do");
        out.println("  srun --ntasks=\"$n\" --overcommit \"$PRISM\" run "
                + runArgs.stream().map(SbatchCommand::shellQuote).collect(Collectors.joining(" "))
                + " --launcher slurm --tasks \"$n\" --run-id \"${SLURM_JOB_ID}-t$n\"");
        out.println("done");
        out.flush();
    }

    static String shellQuote(String s) {
        return s.matches("[A-Za-z0-9_./=:,@%+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
