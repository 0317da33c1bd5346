package dev.prism.internal;

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

import java.io.IOException;
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

    /** @param scenario what to run */
    public ScenarioRunner(Scenario scenario) {
        this.scenario = scenario;
        this.totalExecutions = scenario.benchmarks().size() * scenario.tasks().size()
                * (scenario.warmups() + scenario.repetitions());
    }

    /** @return what the scenario measured; the run directory is gone when this returns */
    public ScenarioResult execute() {
        Instant startedAt = Instant.now();
        Path runDirectory = RunDirectory.create(scenario.target(), scenario.runId());
        TargetInfo target = TargetInfo.of(scenario.target());
        HostInfo host = HostInfo.current();
        List<RunResult> runs = new ArrayList<>();
        try {
            for (Benchmark benchmark : scenario.benchmarks()) {
                for (int tasks : scenario.tasks()) {
                    RunResult run = runBenchmark(benchmark, tasks, runDirectory, target, host, runs.size() + 1);
                    if (scenario.output() != null) {
                        ResultJson.writeInto(scenario.output(), runs.size(), run);
                    }
                    runs.add(run);
                    scenario.listener().runFinished(run);
                }
            }
        } catch (IOException e) {
            throw new PrismException("could not write results into " + scenario.output() + ": "
                    + RunDirectory.describe(e), e);
        } finally {
            scenario.launcher().close();
            scenario.benchmarks().forEach(b -> b.launcher().ifPresent(Launcher::close));
            try {
                RunDirectory.deleteTree(runDirectory);
            } catch (IOException e) {
                throw new PrismException("could not remove the run directory " + runDirectory + ": "
                        + RunDirectory.describe(e), e);
            }
        }
        return new ScenarioResult(scenario.runId(), runs, startedAt, Instant.now());
    }

    private RunResult runBenchmark(Benchmark benchmark, int tasks, Path runDirectory, TargetInfo target,
                                   HostInfo host, int runNumber) {
        Instant startedAt = Instant.now();
        List<RepetitionResult> repetitions = new ArrayList<>();
        Failure failure = null;
        int executions = scenario.warmups() + scenario.repetitions();
        for (int i = 0; i < executions && failure == null; i++) {
            boolean warmup = i < scenario.warmups();
            scenario.listener().executionStarted(benchmark, tasks, warmup ? i : i - scenario.warmups(), warmup,
                    doneExecutions, totalExecutions);
            int index = warmup ? -1 : i - scenario.warmups();
            Path rankOutput = scenario.output() == null || warmup ? null : scenario.output().resolve(
                    String.format("%02d-%s-t%d", runNumber, benchmark.name(), tasks)).resolve("rep-" + index);
            RepetitionResult repetition = runOnce(benchmark, tasks, runDirectory, index, rankOutput);
            doneExecutions++;
            if (!warmup) {
                repetitions.add(repetition);
            }
            if (repetition.failure() != null) {
                Failure f = repetition.failure();
                failure = new Failure(f.kind(), (warmup ? "warm-up " + (i + 1) : "repetition " + (i - scenario.warmups() + 1))
                        + ": " + f.message(), f.rank());
                doneExecutions += executions - i - 1;
            }
        }
        return new RunResult(scenario.runId(), benchmark.name(), benchmark.parameters().asText(), tasks,
                launcherOf(benchmark).name(), scenario.warmups(), scenario.seed(), scenario.timeout(),
                scenario.stallThreshold(), failure == null ? Status.PASS : Status.FAIL, failure,
                merge(repetitions.stream().map(RepetitionResult::measurements).toList(), false),
                repetitions, RankSpread.ofRepetitions(repetitions), startedAt, Instant.now(), target, host);
    }

    private RepetitionResult runOnce(Benchmark benchmark, int tasks, Path runDirectory, int index, Path rankOutput) {
        try {
            RunDirectory.prepare(runDirectory, tasks);
        } catch (IOException e) {
            throw new PrismException("could not prepare the run directory " + runDirectory + ": "
                    + RunDirectory.describe(e), e);
        }
        Instant deadline = Instant.now().plus(scenario.timeout());
        RunPlan plan = new RunPlan(benchmark, tasks, runDirectory, scenario.seed(), scenario.timeout(), deadline,
                scenario.stallThreshold(), scenario.listener(), scenario.runId(), index, rankOutput);
        Launcher launcher = launcherOf(benchmark);
        List<RankResult> ranks = launcher.launch(plan);
        if (ranks.size() != tasks) {
            throw new PrismException("launcher " + launcher.name() + " returned " + ranks.size()
                    + " rank results for " + tasks + " tasks");
        }
        Failure failure = firstFailure(ranks);
        return new RepetitionResult(index, failure == null ? Status.PASS : Status.FAIL, failure,
                merge(ranks.stream().map(RankResult::measurements).toList(), true), ranks, RankSpread.of(ranks, index));
    }

    /** @return the launcher {@code benchmark} brings (torchrun), or the scenario's */
    private Launcher launcherOf(Benchmark benchmark) {
        return benchmark.launcher().orElse(scenario.launcher());
    }

    /** @return the failure of the lowest rank that failed on its own, else of the lowest aborted rank */
    static Failure firstFailure(List<RankResult> ranks) {
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
    static Map<String, Measurement> merge(List<Map<String, Measurement>> parts, boolean concurrent) {
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
