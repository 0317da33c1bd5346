package dev.prism.internal.launch;

import dev.prism.internal.output.Durations;
import dev.prism.internal.rank.RankExecution;
import dev.prism.internal.output.ResultJson;
import dev.prism.internal.files.RunDirectory;
import dev.prism.internal.rank.StorageCall;

import dev.prism.Benchmark;
import dev.prism.Failure;
import dev.prism.HostInfo;
import dev.prism.Launcher;
import dev.prism.Measurement;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.RunPlan;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.Status;
import dev.prism.TargetInfo;
import dev.prism.WorkloadContext;
import dev.prism.internal.coordination.HostLoad;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Executes a {@link Scenario}: every benchmark × task count × (warm-ups + repetitions). */
public final class ScenarioRunner {
    private final Scenario scenario;
    private final int totalExecutions;
    private int doneExecutions;
    /** What emptying the run directory between repetitions could not remove (the first time), said beside the results */
    private String betweenRepetitions;

    /** @param scenario what to run */
    public ScenarioRunner(Scenario scenario) {
        this.scenario = scenario;
        this.totalExecutions = scenario.benchmarks().size() * scenario.tasks().size()
                * (scenario.warmups() + scenario.repetitions());
    }

    /**
     * @return what the scenario measured. The run directory is removed before this returns, or, on
     *         storage that hangs, abandoned after the scenario's clean-up grace; the result says what was left.
     */
    /** The device and inode of the run directory this run made: one put in its place is never written or removed */
    private Object runDirectoryIdentity;
    /** Other PRISM runs' directories in the target, looked at when the run starts and at each repetition */
    private dev.prism.internal.files.OtherRuns others;

    public ScenarioResult execute() {
        Instant startedAt = Instant.now();
        requireOutputDirectory(scenario.output());
        requireFootprints();
        // the driver's own calls on the target are bounded by the timeout too: storage that never answers ends the
        // scenario with a message naming the call, not a driver that waits for ever
        Path runDirectory = onTarget("creating the run directory in " + scenario.target(),
                () -> RunDirectory.create(scenario.target(), scenario.runId()), RunDirectory::removeIfEmpty);
        runDirectoryIdentity = onTarget("looking at the run directory " + runDirectory,
                () -> RunDirectory.identity(runDirectory, scenario.runId()), null);
        RunDirectory.exposure(scenario.target()).ifPresent(scenario.listener()::targetExposed);
        HostInfo host = HostInfo.current();
        others = dev.prism.internal.files.OtherRuns.look(scenario.target().toAbsolutePath()
                .normalize(), runDirectory);
        others.recentlyActive().ifPresent(scenario.listener()::otherRunsInTarget);
        List<RunResult> runs = new ArrayList<>();
        String writeProblem = null;
        Benchmark currentBenchmark = null;
        int currentTasks = 0;
        Instant currentStart = null;
        TargetInfo target = null;
        try {
            target = onTarget("looking up the target's filesystem (statfs " + scenario.target() + ")",
                    () -> TargetInfo.of(scenario.target()), null);
            for (Benchmark benchmark : scenario.benchmarks()) {
                for (int tasks : scenario.tasks()) {
                    if (scenario.interruption().isInterrupted() || runs.stream().anyMatch(ScenarioRunner::timedOut)) {
                        break; // after a timeout the storage may hang: the next configuration would hang on it too
                    }
                    currentBenchmark = benchmark;
                    currentTasks = tasks;
                    currentStart = Instant.now();
                    RunResult run = runBenchmark(benchmark, tasks, runDirectory, target, host, runs.size() + 1);
                    runs.add(run);
                    writeProblem = written(runs, writeProblem);
                    scenario.listener().runFinished(run);
                }
            }
        } catch (RuntimeException e) {
            // a launcher refused or broke: the run directory still goes; before any run finished there is nothing to
            // report, and the exception says why
            closeLaunchers();
            if (runs.isEmpty()) {
                cleanUp(runDirectory, true);
                throw e;
            }
            // after some did, their results are kept: the configuration that broke is a failed run naming why, and
            // the ones after it do not run
            RunResult broken = brokenRun(currentBenchmark, currentTasks, currentStart, target, host, e);
            runs.add(broken);
            writeProblem = written(runs, writeProblem);
            scenario.listener().runFinished(broken);
            String cleanup = cleanUp(runDirectory, true);
            return new ScenarioResult(scenario.runId(), runs, startedAt, Instant.now(),
                    scenario.interruption().reason().orElse(null), cleanup, writeProblem);
        } catch (Error e) {
            closeLaunchers();
            cleanUp(runDirectory, true);
            throw e;
        }
        closeLaunchers();
        others.activeSince().ifPresent(scenario.listener()::otherRunsInTarget);
        // after a timeout too, progress decides: a loaded machine removes slowly, hung storage not at all
        boolean bounded = scenario.interruption().isInterrupted();
        String cleanup = cleanUp(runDirectory, bounded);
        if (betweenRepetitions != null) {
            cleanup = cleanup == null ? betweenRepetitions : cleanup + "; before that, " + betweenRepetitions;
        }
        // a full or failing output directory never loses what was measured: the result holds every run and says what
        // was not written
        return new ScenarioResult(scenario.runId(), runs, startedAt, Instant.now(),
                scenario.interruption().reason().orElse(null), cleanup, writeProblem);
    }

    /**
     * A benchmark asked to trace its programs' system calls in the kernel ({@code syscalls=kernel}) on a host that cannot
     * (not root, no bpftrace, no cgroup v2) is refused before any work, naming what is missing: it failed after its
     * set-up before.
     */
    private static void requireKernelTracing(Benchmark benchmark) {
        for (dev.prism.Parameter<?> p : benchmark.parameters().declared()) {
            if (p.name().equals(dev.prism.SyscallTracing.PARAMETER.name()) && p.type() == dev.prism.SyscallTracing.class
                    && benchmark.parameters().get(p) == dev.prism.SyscallTracing.KERNEL) {
                String why = dev.prism.spi.SyscallTrace.unavailable();
                if (why != null) {
                    throw new IllegalArgumentException(benchmark.name() + ": syscalls=kernel cannot trace here: " + why
                            + " (syscalls=auto traces where it can, off does not); nothing was written");
                }
            }
        }
    }

    /**
     * Refuses, before anything is written, a configuration that says it cannot run at a task count or that needs more
     * than the target's free space or this node's available memory ({@link Benchmark#footprint}).
     */
    private void requireFootprints() {
        long free = -1;
        long memory = HostInfo.availableMemoryBytes();
        for (Benchmark benchmark : scenario.benchmarks()) {
            requireKernelTracing(benchmark);
            for (int tasks : scenario.tasks()) {
                java.util.Optional<dev.prism.Footprint> footprint = footprint(benchmark, tasks);
                if (footprint.isEmpty()) {
                    continue;
                }
                dev.prism.Footprint f = footprint.get();
                if (free < 0) {
                    free = onTarget("looking up the target's filesystem (statfs " + scenario.target() + ")",
                            () -> TargetInfo.of(scenario.target()), null).freeBytes();
                }
                String what = benchmark.name() + " at " + atTasks(tasks) + " (" + f.summary() + ")";
                if (f.targetBytes() > free) {
                    throw new dev.prism.TargetException(what + " needs " + dev.prism.spi.Formats.bytes(f.targetBytes())
                            + " on " + scenario.target() + ", which has " + dev.prism.spi.Formats.bytes(free)
                            + " free; nothing was written");
                }
                if (memory > 0 && f.memoryBytesPerNode() > memory) {
                    throw new dev.prism.TargetException(what + " needs " + dev.prism.spi.Formats.bytes(f.memoryBytesPerNode())
                            + " of memory on this node, which has " + dev.prism.spi.Formats.bytes(memory)
                            + " available; run fewer tasks per node, or on nodes with more memory; nothing was written");
                }
            }
        }
    }

    /**
     * @return what {@code benchmark} needs at {@code tasks} ({@link Benchmark#footprint}), asked by {@code
     *         Scenario.build()} and again here before any work (a dataset directory may have gone since)
     * @throws IllegalArgumentException when it cannot run at that task count, naming benchmark and task count
     */
    public static java.util.Optional<dev.prism.Footprint> footprint(Benchmark benchmark, int tasks) {
        try {
            return benchmark.footprint(tasks);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(benchmark.name() + " at " + atTasks(tasks) + ": " + e.getMessage()
                    + "; nothing was written", e);
        }
    }

    private static String atTasks(int tasks) {
        return tasks + (tasks == 1 ? " task" : " tasks");
    }

    /** @return what {@code call} on the target returned, within the scenario's timeout (see {@link StorageCall}) */
    private <T> T onTarget(String what, java.util.concurrent.Callable<T> call, java.util.function.Consumer<T> undo) {
        try {
            return StorageCall.within(what, scenario.timeout(), call, undo);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PrismException(what + ": " + RankExecution.describe(e), e);
        }
    }

    private void closeLaunchers() {
        scenario.launcher().close();
        scenario.benchmarks().forEach(b -> b.launcher().ifPresent(Launcher::close));
    }

    /**
     * Creates the output directory before any work, refusing a symbolic link (results are written
     * only where they were asked to go) and anything that cannot hold files.
     */
    private static void requireOutputDirectory(Path output) {
        if (output == null) {
            return;
        }
        if (Files.isSymbolicLink(output)) {
            throw new IllegalArgumentException("output directory " + output + " is a symbolic link; refusing to write"
                    + " results through it");
        }
        try {
            Files.createDirectories(output);
            // results are written by path: none of the directories on it may be one another user can swap for a link
            dev.prism.internal.files.SafeChain.require(output, "output directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create the output directory " + output + ": "
                    + RunDirectory.describe(e), e);
        }
    }

    /**
     * Removes the run directory in a thread of its own, so a removal stuck on hung storage cannot
     * hold the results back. After an interruption it must end by the interruption plus that grace (a SLURM job's KillWait, before its
     * SIGKILL, counts from the signal), and removes rank 0's own directory first, while every other
     * rank removes its own. Otherwise it may take as long as it needs while it makes progress
     * (millions of files take minutes), and is abandoned once no entry was removed for a whole grace.
     *
     * @return null when everything was removed, else what was left
     */
    private String cleanUp(Path runDirectory, boolean bounded) {
        scenario.listener().cleanupStarted(runDirectory);
        if (runDirectoryIdentity != null) {
            try {
                RunDirectory.requireSame(runDirectory, runDirectoryIdentity);
            } catch (dev.prism.PrismException e) {
                return e.getMessage() + " (what this run made there may be elsewhere in the target now)";
            }
        }
        // the removal enters the run directory only when it is still the one this run made (its identity)
        RunDirectory.Removal removal = RunDirectory.removalOf(runDirectory).expect(runDirectory, runDirectoryIdentity);
        Thread remover = scenario.interruption().isInterrupted()
                ? RunDirectory.startRemoval(removal, "prism-cleanup", RunDirectory.rankDirectory(runDirectory, 0), runDirectory)
                : RunDirectory.startRemoval(removal, "prism-cleanup", runDirectory);
        long grace = scenario.cleanupGrace().toMillis();
        long end = bounded ? graceEnd(grace) : System.currentTimeMillis() + grace;
        long lastCount = -1;
        try {
            while (remover.isAlive()) {
                long now = System.currentTimeMillis();
                if (!bounded && scenario.interruption().isInterrupted()) {
                    bounded = true; // a signal during a long clean-up: it gets the grace from the signal on
                    end = graceEnd(grace);
                }
                long count = removal.removed();
                if (!bounded && count != lastCount) {
                    lastCount = count;
                    end = now + grace; // still making progress
                }
                if (now >= end) {
                    break;
                }
                remover.join(Math.max(1, Math.min(100, end - now)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (remover.isAlive()) {
            String within = Durations.format(scenario.cleanupGrace());
            return removal.givenUp(!bounded ? "made no progress for " + within + " (the storage may hang)"
                    : scenario.interruption().isInterrupted() ? "did not finish within " + within + " of the interruption"
                    : "did not finish within " + within + " (the storage may hang)");
        }
        return removal.complete() ? null : removal.summary();
    }

    /** @return when a bounded clean-up must end: the grace from the interruption, if there was one, else from now */
    private long graceEnd(long grace) {
        return scenario.interruption().interruptedAt().map(Instant::toEpochMilli).orElse(System.currentTimeMillis()) + grace;
    }

    private RunResult runBenchmark(Benchmark benchmark, int tasks, Path runDirectory, TargetInfo target,
                                   HostInfo host, int runNumber) {
        Instant startedAt = Instant.now();
        HostLoad.Start load = HostLoad.start();
        List<RepetitionResult> repetitions = new ArrayList<>();
        Failure failure = null;
        int executions = scenario.warmups() + scenario.repetitions();
        for (int i = 0; i < executions && failure == null; i++) {
            boolean warmup = i < scenario.warmups();
            String step = warmup ? "warm-up " + (i + 1) : "repetition " + (i - scenario.warmups() + 1);
            if (scenario.interruption().isInterrupted()) {
                failure = interrupted("before " + step + " of " + executions);
                doneExecutions += executions - i;
                break;
            }
            scenario.listener().executionStarted(benchmark, tasks, warmup ? i : i - scenario.warmups(), warmup,
                    doneExecutions, totalExecutions);
            int index = warmup ? -1 : i - scenario.warmups();
            Path rankOutput = scenario.output() == null || warmup ? null : scenario.output().resolve(
                    String.format("%02d-%s-t%d", runNumber, benchmark.name(), tasks)).resolve("rep-" + index);
            // the configuration's first execution starts without fixtures; later ones reuse what it made (Fixtures)
            RepetitionResult repetition = runOnce(benchmark, tasks, runDirectory, index, rankOutput, i > 0);
            doneExecutions++;
            if (!warmup) {
                repetitions.add(repetition);
            }
            if (scenario.interruption().isInterrupted()) {
                failure = interrupted("during " + step + "; what it measured until then is kept");
                doneExecutions += executions - i - 1;
            } else if (repetition.failure() != null) {
                Failure f = repetition.failure();
                failure = new Failure(f.kind(), step + ": " + f.message(), f.rank());
                doneExecutions += executions - i - 1;
            }
        }
        return runOf(benchmark, tasks)
                .status(failure == null ? Status.PASS : Status.FAIL)
                .failure(failure)
                .measurements(merge(repetitions.stream().map(RepetitionResult::measurements).toList(), false))
                .repetitions(repetitions)
                .rankSpread(RankSpread.ofRepetitions(repetitions))
                .startedAt(startedAt)
                .finishedAt(Instant.now())
                .target(target)
                .host(host)
                .provenance(scenario.provenance().withPrograms(programs(repetitions)))
                .conditions(load.finish())
                .build();
    }

    /** @return a run of {@code benchmark} at {@code tasks} in this scenario, what it measured still to be set */
    private RunResult.Builder runOf(Benchmark benchmark, int tasks) {
        return RunResult.builder()
                .runId(scenario.runId())
                .benchmark(benchmark.name())
                .parameters(benchmark.recordedParameters())
                .tasks(tasks)
                .launcher(launcherOf(benchmark).name())
                .warmups(scenario.warmups())
                .seed(scenario.seed())
                .timeout(scenario.timeout())
                .stallThreshold(scenario.stallThreshold());
    }

    /**
     * Writes the last of {@code runs} into the output directory, unless there is none or an earlier write failed.
     *
     * @return {@code problem}, or what the write's failure was: the run's result is still returned and printed, the
     *         failed write is said once, and no later document is tried on an output that has failed
     */
    private String written(List<RunResult> runs, String problem) {
        if (scenario.output() == null || problem != null) {
            return problem;
        }
        RunResult run = runs.get(runs.size() - 1);
        try {
            ResultJson.writeInto(scenario.output(), runs.size() - 1, run, scenario.resultMode());
            return null;
        } catch (IOException e) {
            return "could not write the result document of " + run.benchmark() + " with " + run.tasks() + " task(s) into "
                    + scenario.output() + ": " + RunDirectory.describe(e) + "; it and the runs after it were not written there";
        }
    }

    /**
     * @return the run of a configuration whose launcher broke ({@code e}): failed, with nothing measured, its failure
     *         the exception's message
     */
    private RunResult brokenRun(Benchmark benchmark, int tasks, Instant startedAt, TargetInfo target, HostInfo host,
                                RuntimeException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return runOf(benchmark, tasks)
                .status(Status.FAIL)
                .failure(new Failure(Failure.Kind.EXCEPTION, "the launcher failed: " + message + "; the configurations after it did not run", -1))
                .measurements(Map.of())
                .repetitions(List.of())
                .rankSpread(RankSpread.ofRepetitions(List.of()))
                .startedAt(startedAt)
                .finishedAt(Instant.now())
                .target(target)
                .host(host)
                .provenance(scenario.provenance())
                .conditions(dev.prism.HostConditions.UNKNOWN)
                .build();
    }

    /** @return each program a rank listed in its note {@value WorkloadContext#PROGRAMS_NOTE}, with the version it noted */
    static Map<String, String> programs(List<RepetitionResult> repetitions) {
        Map<String, String> programs = new java.util.TreeMap<>();
        repetitions.stream().flatMap(r -> r.ranks().stream()).map(RankResult::notes).forEach(notes -> {
            String listed = notes.getOrDefault(WorkloadContext.PROGRAMS_NOTE, "");
            for (String name : listed.isEmpty() ? new String[0] : listed.split(",\\s*")) {
                if (notes.containsKey(name)) {
                    programs.putIfAbsent(name, notes.get(name));
                }
            }
        });
        return programs;
    }

    private RepetitionResult runOnce(Benchmark benchmark, int tasks, Path runDirectory, int index, Path rankOutput,
                                     boolean keepFixtures) {
        others.update(); // another run that comes and goes between repetitions is seen too
        String left;
        try {
            left = StorageCall.within("preparing the run directory " + runDirectory, scenario.timeout(), () -> {
                RunDirectory.requireSame(runDirectory, runDirectoryIdentity);
                return java.util.Optional.ofNullable(RunDirectory.prepare(runDirectory, runDirectoryIdentity,
                        scenario.runId(), tasks, keepFixtures));
            }, null).orElse(null);
            if (left != null && betweenRepetitions == null) {
                betweenRepetitions = "emptying it between repetitions: " + left;
            }
        } catch (StorageCall.Hung e) {
            Failure failure = new Failure(Failure.Kind.TIMEOUT, e.getMessage(), -1);
            return new RepetitionResult(index, Status.FAIL, failure, Map.of(), List.of(), RankSpread.of(List.of(), index));
        } catch (Exception e) {
            // the storage failed before the ranks started: a failure of this repetition, results so far kept
            Failure failure = new Failure(Failure.Kind.EXCEPTION, "could not prepare the run directory " + runDirectory
                    + ": " + (e instanceof IOException io ? RunDirectory.describe(io) : RankExecution.describe(e)), -1);
            return new RepetitionResult(index, Status.FAIL, failure, Map.of(), List.of(), RankSpread.of(List.of(), index));
        }
        Instant deadline = Instant.now().plus(scenario.timeout());
        RunPlan plan = new RunPlan(benchmark, tasks, runDirectory, scenario.seed(), scenario.timeout(), deadline,
                scenario.stallThreshold(), scenario.listener(), scenario.runId(), index, rankOutput, scenario.interruption(),
                scenario.continueOnError(), scenario.pacing(), scenario.silenceLimit().orElse(null));
        Launcher launcher = launcherOf(benchmark);
        List<RankResult> ranks = launcher.launch(plan);
        if (ranks.size() != tasks) {
            throw new PrismException("launcher " + launcher.name() + " returned " + ranks.size()
                    + " rank results for " + tasks + " tasks");
        }
        Failure failure = firstFailure(ranks);
        if (failure != null && left != null && failure.kind() != Failure.Kind.INTERRUPTED) {
            // what the storage refused while emptying the run directory is the likely root cause (an EIO on unlink
            // leaves the file, and this repetition's create of it fails with EEXIST): it heads the message
            failure = new Failure(failure.kind(), "the run directory could not be emptied before this repetition ("
                    + left + "); then: " + failure.message(), failure.rank());
        }
        return new RepetitionResult(index, failure == null ? Status.PASS : Status.FAIL, failure,
                merge(ranks.stream().map(RankResult::measurements).toList(), true), ranks, RankSpread.of(ranks, index));
    }

    private static boolean timedOut(RunResult run) {
        return run.failure() != null && run.failure().kind() == Failure.Kind.TIMEOUT;
    }

    private Failure interrupted(String when) {
        return new Failure(Failure.Kind.INTERRUPTED, "interrupted by " + scenario.interruption().reason().orElse("?")
                + " " + when, -1);
    }

    /** @return the launcher {@code benchmark} brings (torchrun), or the scenario's */
    private Launcher launcherOf(Benchmark benchmark) {
        return benchmark.launcher().orElse(scenario.launcher());
    }

    /** @return the failure of the lowest rank that failed on its own, else of the lowest aborted rank */
    public static Failure firstFailure(List<RankResult> ranks) {
        Failure aborted = null;
        for (RankResult rank : ranks) {
            Failure f = rank.failure();
            if (f != null && f.kind() != Failure.Kind.ABORTED) {
                return f;
            }
            if (f != null && aborted == null) {
                aborted = f;
            }
        }
        return aborted;
    }

    /** Merges per-operation measurements, keeping the order operations were first seen in. */
    public static Map<String, Measurement> merge(List<Map<String, Measurement>> parts, boolean concurrent) {
        Map<String, List<Measurement>> byOperation = new LinkedHashMap<>();
        for (Map<String, Measurement> part : parts) {
            part.forEach((op, m) -> byOperation.computeIfAbsent(op, k -> new ArrayList<>()).add(m));
        }
        Map<String, Measurement> merged = new LinkedHashMap<>();
        byOperation.forEach((op, list) -> merged.put(op,
                concurrent ? Measurement.combineRanks(list) : Measurement.combineRepetitions(list)));
        return merged;
    }
}
