package dev.prism.cli;

import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.ScenarioListener;
import dev.prism.report.Metrics;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * {@code --push} with {@code --interval}: each interval's percentiles, merged over the ranks that closed it, pushed to
 * the Pushgateway as the run goes on (latency over time in a soak run). An interval is pushed once a rank has closed the
 * one after it; pushes go from a thread of their own, so a slow gateway never holds a rank. Warm-ups are not pushed.
 * Hears everything else through to the listener it wraps.
 */
final class IntervalPusher extends ForwardingListener implements AutoCloseable {
    private final dev.prism.report.Pushgateway gateway;
    private final Path target;
    private final Duration length;
    private final PrintWriter err;
    private final String host = dev.prism.HostInfo.current().hostname();
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "prism-interval-push");
        t.setDaemon(true);
        return t;
    });
    /** Per interval, per operation, each rank's measurement; and the intervals pushed */
    private final Map<Integer, Map<String, List<Measurement>>> open = new TreeMap<>();
    private final java.util.Set<Integer> pushed = new java.util.HashSet<>();
    private Benchmark benchmark;
    private int tasks;
    private boolean warmup = true;
    private boolean complained;

    IntervalPusher(ScenarioListener next, dev.prism.report.Pushgateway gateway, Path target, Duration length, PrintWriter err) {
        super(next);
        this.gateway = gateway;
        this.target = target.toAbsolutePath();
        this.length = length;
        this.err = err;
    }

    @Override
    public synchronized void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
        this.benchmark = benchmark;
        this.tasks = tasks;
        this.warmup = warmup;
        open.clear();
        pushed.clear();
        super.executionStarted(benchmark, tasks, repetition, warmup, done, total);
    }

    @Override
    public void intervalCompleted(int rank, String operation, int index, Measurement interval) {
        synchronized (this) {
            if (!warmup && benchmark != null) {
                open.computeIfAbsent(index, i -> new TreeMap<>()).computeIfAbsent(operation, o -> new ArrayList<>()).add(interval);
                // an interval's successor has begun closing: push the one before, once
                if (index >= 1 && pushed.add(index - 1) && open.containsKey(index - 1)) {
                    push(index - 1, open.remove(index - 1));
                }
            }
        }
        super.intervalCompleted(rank, operation, index, interval);
    }

    private void push(int index, Map<String, List<Measurement>> byOperation) {
        Map<String, Measurement> merged = new TreeMap<>();
        byOperation.forEach((op, list) -> merged.put(op, Measurement.combineRanks(list)));
        Metrics.Interval interval = new Metrics.Interval(benchmark.name(), benchmark.recordedParameters(), tasks, host,
                target.toString(), index, (index + 1) * length.toNanos() / 1e9, merged);
        sender.execute(() -> {
            try {
                Metrics.push(gateway, interval);
            } catch (java.io.IOException e) {
                synchronized (this) {
                    if (!complained) {
                        complained = true;
                        err.println("prism: " + e.getMessage() + " (intervals are not pushed while it does not answer)");
                        err.flush();
                    }
                }
            }
        });
    }

    /** Lets the pushes under way finish, for up to 30 s. */
    @Override
    public void close() throws InterruptedException {
        sender.shutdown();
        sender.awaitTermination(30, TimeUnit.SECONDS);
    }
}
