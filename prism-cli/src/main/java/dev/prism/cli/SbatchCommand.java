package dev.prism.cli;

import dev.prism.Suite;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.prism.Benchmarks;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code prism sbatch}: prints an sbatch script that sweeps task counts, one srun step per count in
 * which every task is a PRISM rank; for torch benchmarks, which bring their own ranks, one
 * {@code prism run --torch-nodes N} per count, starting one torchrun agent per node itself.
 */
@Command(name = "sbatch", description = "Prints an sbatch script running 'prism run' once per task count under srun"
        + " (torch benchmarks: once per task count with --torch-nodes, one torchrun agent per node).",
        footer = {"", "Examples:", "  prism sbatch --tasks 8,16,32 --nodes 4 -- create_files --target /mnt/lustre/prism -p files=5000 > sweep.sh",
                "  prism sbatch --tasks 16,32 --nodes 4 -- fsdp_save fsdp_load --target /mnt/lustre/prism > torch.sh",
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

    @Option(names = "--suite", paramLabel = "NAME", description = "write one 'prism run' per configuration of this suite"
            + " (quick, standard, paper) and task count; RUN_ARGS are then options only (--target …)")
    private String suite;

    @CommandLine.Parameters(paramLabel = "RUN_ARGS", arity = "0..*",
            description = "after '--': what 'prism run' gets (benchmarks, --target, -p …); --tasks and --launcher slurm"
                    + " (torch: --torch-nodes) are added")
    private List<String> runArgs = new java.util.ArrayList<>();

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
        if (suite != null) {
            writeSuite(Suite.named(suite));
            return;
        }
        if (runArgs.isEmpty()) {
            throw new IllegalArgumentException("name what to run after '--' (benchmarks and --target), or give --suite NAME");
        }
        for (String arg : runArgs) {
            for (String added : List.of("--tasks", "--launcher", "--torch-nodes", "--run-id")) {
                if (arg.equals(added) || arg.startsWith(added + "=")) {
                    throw new IllegalArgumentException(added + " is what 'prism sbatch' adds to each 'prism run' (from its own"
                            + " --tasks and --nodes); leave it out of RUN_ARGS");
                }
            }
        }
        int max = Arrays.stream(tasks).max().orElse(1);
        boolean torch = bringsOwnRanks(benchmarkNames());
        int torchNodes = nodes == null ? 1 : nodes;
        if (torch) {
            for (int n : tasks) {
                if (n % torchNodes != 0) {
                    throw new IllegalArgumentException("torch benchmarks run the same number of ranks on each of the "
                            + torchNodes + " nodes: --tasks must be multiples of " + torchNodes + ", was " + n);
                }
            }
        }
        Path prism = Path.of(System.getProperty("prism.script", "prism")).toAbsolutePath();
        PrintWriter out = spec.commandLine().getOut();
        out.println("#!/bin/bash");
        if (torch) {
            out.println("# Written by 'prism sbatch': one 'prism run' per task count on the first node; it starts one");
            out.println("# torchrun agent per node with srun, and every rank writes into the run directory on the target.");
        } else {
            out.println("# Written by 'prism sbatch': one srun step per task count; in each, every task is a PRISM rank");
            out.println("# and rank 0 coordinates, measures and writes the results.");
        }
        out.println("#SBATCH --job-name=" + jobName);
        if (torch) {
            out.println("#SBATCH --nodes=" + torchNodes);
            out.println("#SBATCH --ntasks-per-node=1");
            out.println("#SBATCH --exclusive");
        } else {
            out.println("#SBATCH --ntasks=" + max);
            if (nodes != null) {
                out.println("#SBATCH --nodes=" + nodes);
            }
            // the steps overcommit, so the allocation must too: without it sbatch refuses more tasks than the nodes' CPUs
            out.println("#SBATCH --overcommit");
        }
        warnAboutPaths(prism);
        writeTail(out, prism, "set -euo pipefail");
        String args = runArgs.stream().map(SbatchCommand::shellQuote).collect(Collectors.joining(" "));
        if (torch) {
            out.println("  \"$PRISM\" run " + args + " --tasks \"$n\" --torch-nodes " + torchNodes
                    + " --run-id \"${SLURM_JOB_ID}-t$n\"");
        } else {
            writeKillOnBadExit(out);
            out.println("  srun --ntasks=\"$n\" --overcommit --kill-on-bad-exit=0 \"$PRISM\" run " + args
                    + " --launcher slurm --tasks \"$n\" --run-id \"${SLURM_JOB_ID}-t$n\"");
        }
        out.println("done");
        out.flush();
    }

    /** Says in the script why its srun steps keep the other tasks running when one dies. */
    private static void writeKillOnBadExit(PrintWriter out) {
        out.println("  # --kill-on-bad-exit=0: a task that dies (its node lost, the OOM killer) does not make srun end the");
        out.println("  # step; rank 0 notices, stops the others and writes the run's documents with all they measured. With");
        out.println("  # KillOnBadExit=1 (some sites' default) srun would SIGTERM every task at once and SIGKILL it KillWait");
        out.println("  # later: each still writes its own rank document, but the run's holds only what reached rank 0 in time.");
    }

    /** Writes the header's last lines (time, partition, output), the shell options, PRISM's path and the loop's head. */
    private void writeTail(PrintWriter out, Path prism, String shellOptions) {
        out.println("#SBATCH --time=" + time);
        if (partition != null) {
            out.println("#SBATCH --partition=" + partition);
        }
        out.println("#SBATCH --output=prism-%j.out");
        out.println(shellOptions);
        out.println("PRISM=${PRISM:-" + shellQuote(prism.toString()) + "}");
        // the ranks of each step prove with it that they belong to this job; made here, in the job's own environment
        // (srun hands it to every task), never written to a file or the target
        out.println("export PRISM_RUN_SECRET=${PRISM_RUN_SECRET:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \\n')}");
        out.println("for n in " + Arrays.stream(tasks).mapToObj(String::valueOf).collect(Collectors.joining(" ")) + "; do");
    }

    /**
     * Writes a script that runs every configuration of {@code suite} at every task count, each as its own
     * {@code prism run} with the parameters that differ from the defaults: under srun for PRISM's own ranks, directly
     * with --torch-nodes for torch benchmarks, which start their own.
     */
    private void writeSuite(Suite suite) {
        if (!runArgs.isEmpty() && !runArgs.get(0).startsWith("-")) {
            throw new IllegalArgumentException("with --suite, RUN_ARGS are options only (--target DIR …), was '"
                    + runArgs.get(0) + "'");
        }
        int torchNodes = nodes == null ? 1 : nodes;
        List<Suite.Entry> entries = suite.plan();
        boolean torch = entries.stream().anyMatch(e -> e.benchmark().launcher().isPresent());
        for (int n : tasks) {
            if (torch && n % torchNodes != 0) {
                throw new IllegalArgumentException("the suite's torch benchmarks run the same number of ranks on each of the "
                        + torchNodes + " nodes: --tasks must be multiples of " + torchNodes + ", was " + n);
            }
        }
        Path prism = Path.of(System.getProperty("prism.script", "prism")).toAbsolutePath();
        PrintWriter out = spec.commandLine().getOut();
        out.println("#!/bin/bash");
        out.println("# Written by 'prism sbatch --suite " + suite.label() + "': " + entries.size() + " configurations at each task"
                + " count, each its own 'prism run'; PRISM's ranks run as srun steps, torch benchmarks start their own.");
        out.println("#SBATCH --job-name=" + jobName);
        out.println("#SBATCH --ntasks=" + Arrays.stream(tasks).max().orElse(1));
        if (nodes != null) {
            out.println("#SBATCH --nodes=" + nodes);
        }
        out.println("#SBATCH --overcommit");
        warnAboutPaths(prism);
        writeTail(out, prism, "set -uo pipefail   # one configuration's failure does not stop the others");
        String args = runArgs.stream().map(SbatchCommand::shellQuote).collect(Collectors.joining(" "));
        String repetitions = "--reps " + suite.repetitions() + " --warmups " + suite.warmups();
        if (entries.stream().anyMatch(e -> e.benchmark().launcher().isEmpty())) {
            writeKillOnBadExit(out);
        }
        int i = 0;
        for (Suite.Entry entry : entries) {
            i++;
            StringBuilder run = new StringBuilder(entry.benchmark().name());
            entry.benchmark().parameters().changedFromDefaults().forEach((k, v) -> run.append(" -p ")
                    .append(shellQuote(k + "=" + v)));
            String id = String.format("--run-id \"${SLURM_JOB_ID}-t$n-%02d\"", i);
            if (entry.benchmark().launcher().isPresent()) {
                out.println("  \"$PRISM\" run " + run + " " + args + " --tasks \"$n\" --torch-nodes " + torchNodes + " "
                        + repetitions + " " + id);
            } else {
                out.println("  srun --ntasks=\"$n\" --overcommit --kill-on-bad-exit=0 \"$PRISM\" run " + run + " " + args
                        + " --launcher slurm --tasks \"$n\" " + repetitions + " " + id);
            }
        }
        out.println("done");
        out.flush();
    }

    /** Directories that are each node's own on nearly every cluster. */
    private static final List<String> NODE_LOCAL = List.of("/tmp", "/var/tmp", "/dev/shm", "/run", "/scratch/local", "/local");
    /** Filesystem types that live on one machine: a path on one is not the compute nodes' path. */
    private static final Set<String> LOCAL_TYPES = Set.of("ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "overlay",
            "zfs", "f2fs", "vfat", "devtmpfs");

    /**
     * Warns (on stderr; the script is still written) where the script cannot work across nodes: a target that is
     * node-local (each node would write its own copy, and the other nodes could not read rank 0's published address),
     * or a PRISM that lives on this machine's own disk, which the compute nodes do not see.
     */
    private void warnAboutPaths(Path prism) {
        PrintWriter err = spec.commandLine().getErr();
        String target = null;
        for (int i = 0; i < runArgs.size(); i++) {
            if (runArgs.get(i).equals("--target") && i + 1 < runArgs.size()) {
                target = runArgs.get(i + 1);
            } else if (runArgs.get(i).startsWith("--target=")) {
                target = runArgs.get(i).substring("--target=".length());
            }
        }
        if (target == null) {
            err.println("prism sbatch: warning: no --target given: give a directory on the filesystem to qualify, which"
                    + " every node mounts at the same path");
        } else {
            String t = target;
            String type = localType(Path.of(t));
            if (NODE_LOCAL.stream().anyMatch(d -> t.equals(d) || t.startsWith(d + "/")) || type != null && type.equals("tmpfs")) {
                err.println("prism sbatch: warning: the target " + t + " is node-local on most clusters: each node would"
                        + " write its own copy and the other nodes could not find rank 0's address there; give a"
                        + " directory on the shared filesystem (or set MASTER_ADDR and MASTER_PORT for the steps)");
            }
        }
        String type = localType(prism);
        if (type != null) {
            err.println("prism sbatch: warning: PRISM at " + prism + " is on " + type + ", a filesystem of this machine's own:"
                    + " the compute nodes run the same path, so it must be on the shared filesystem (or set PRISM=… to"
                    + " where the nodes find it when you submit)");
        }
    }

    /** @return the filesystem type holding {@code path} on this machine when it is a local one, else null (shared, or unknown) */
    private static String localType(Path path) {
        String real;
        try {
            real = path.toAbsolutePath().toRealPath().toString();
        } catch (java.io.IOException e) {
            return null; // not here: nothing to say about it
        }
        String type = dev.prism.TargetInfo.of(Path.of(real)).filesystemType();
        return LOCAL_TYPES.contains(type) ? type : null;
    }

    /** @return the benchmark names at the head of the run arguments, before the first option */
    private List<String> benchmarkNames() {
        List<String> names = new ArrayList<>();
        for (String arg : runArgs) {
            if (arg.startsWith("-")) {
                break;
            }
            names.add(arg);
        }
        return names;
    }

    /**
     * @return whether the named benchmarks bring their own ranks (torch); a mix of both kinds is refused,
     *         since one script launches them differently
     */
    private static boolean bringsOwnRanks(List<String> names) {
        Set<Boolean> kinds = new HashSet<>();
        for (String name : names) {
            kinds.add(Benchmarks.provider(name).create(Map.of()).launcher().isPresent());
        }
        if (kinds.size() > 1) {
            throw new IllegalArgumentException("torch benchmarks (their own torchrun ranks) and the others (srun ranks) are"
                    + " launched differently: write one sbatch script for each kind, not one for " + String.join(", ", names));
        }
        return kinds.contains(true);
    }

    static String shellQuote(String s) {
        return s.matches("[A-Za-z0-9_./=:,@%+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
