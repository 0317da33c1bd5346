package dev.prism.cli;

import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.RankPhase;
import dev.prism.RunResult;
import dev.prism.ScenarioListener;
import dev.prism.Stall;

import java.nio.file.Path;
import java.time.Duration;

/** A listener that passes every event on to the one it wraps: the command's listeners stack, each hearing what it needs. */
abstract class ForwardingListener implements ScenarioListener {
    private final ScenarioListener next;

    ForwardingListener(ScenarioListener next) {
        this.next = next;
    }

    @Override
    public void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
        next.executionStarted(benchmark, tasks, repetition, warmup, done, total);
    }

    @Override
    public void runFinished(RunResult run) {
        next.runFinished(run);
    }

    @Override
    public void stallDetected(Stall stall) {
        next.stallDetected(stall);
    }

    @Override
    public void rankEntered(int rank, RankPhase phase) {
        next.rankEntered(rank, phase);
    }

    @Override
    public void rankSlow(int rank, Duration silence) {
        next.rankSlow(rank, silence);
    }

    @Override
    public void intervalCompleted(int rank, String operation, int index, Measurement interval) {
        next.intervalCompleted(rank, operation, index, interval);
    }

    @Override
    public void connectionRefused(String description) {
        next.connectionRefused(description);
    }

    @Override
    public void otherRunsInTarget(String description) {
        next.otherRunsInTarget(description);
    }

    @Override
    public void targetExposed(String description) {
        next.targetExposed(description);
    }

    @Override
    public void cleanupStarted(Path runDirectory) {
        next.cleanupStarted(runDirectory);
    }
}
