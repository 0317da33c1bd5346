import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.Workload;
import dev.prism.WorkloadContext;

import java.nio.file.Path;

/**
 * What one of PRISM's timings costs (bench/timer-cost.sh), against a bare pair of System.nanoTime calls, in one JVM:
 * a benchmark whose timed operation is empty, timed N times per repetition with ctx.time(...).close(), its loop also
 * run in its rehearsal; the recorded mean is what the timer puts inside the interval it measures (the two clock reads'
 * own gap and whatever lies between them), and the timed phase divided by N is a timing's whole cost, recording
 * included. The floor: N back-to-back pairs of System.nanoTime, the mean of their differences, in the same JVM.
 * Usage: TimerCost TARGET_DIR TIMINGS REPETITIONS. Prints "<what> <nanoseconds>" lines.
 */
public final class TimerCost {
    public static void main(String[] args) {
        Path target = Path.of(args[0]);
        int timings = Integer.parseInt(args[1]);
        int repetitions = Integer.parseInt(args[2]);
        Benchmark empty = Benchmark.builder("timer_cost").workload(() -> new Workload() {
            @Override
            public void rehearse(WorkloadContext ctx) {
                loop(ctx, timings);
            }

            @Override
            public void run(WorkloadContext ctx) {
                loop(ctx, timings);
            }
        }).build();
        RunResult run = Scenario.builder().target(target).benchmark(empty).repetitions(repetitions).warmups(0).build()
                .execute().runs().get(0);
        if (!run.passed()) {
            throw new IllegalStateException(String.valueOf(run.failure()));
        }
        double inside = Double.MAX_VALUE;
        double whole = Double.MAX_VALUE;
        for (var rep : run.repetitions()) {
            Measurement m = rep.measurements().get("empty");
            inside = Math.min(inside, m.meanNanos());
            whole = Math.min(whole, (double) rep.ranks().get(0).phaseNanos() / m.count());
        }
        double floor = Double.MAX_VALUE;
        for (int round = 0; round < repetitions + 1; round++) {
            floor = Math.min(floor, bareClockPairs(timings));
        }
        System.out.printf("inside %.1f%nwhole %.1f%nfloor %.1f%n", inside, whole, floor);
    }

    private static void loop(WorkloadContext ctx, int timings) {
        Path where = ctx.workDirectory();
        for (int i = 0; i < timings; i++) {
            ctx.time("empty", where).close();
        }
    }

    /** @return the mean gap between two back-to-back System.nanoTime calls, over {@code n} pairs */
    private static double bareClockPairs(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            long a = System.nanoTime();
            long b = System.nanoTime();
            sum += b - a;
        }
        return (double) sum / n;
    }
}
