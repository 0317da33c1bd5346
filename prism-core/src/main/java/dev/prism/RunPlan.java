package dev.prism;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * What a {@link Launcher} is asked to run: one repetition of one benchmark with {@code tasks} ranks.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.RunPlan;
 * import dev.prism.ScenarioListener;
 * import java.nio.file.Path;
 * import java.time.Duration;
 * import java.time.Instant;
 *
 * // Launchers receive plans from Scenario.execute(); made by hand, one says where each rank works:
 * var noop = Benchmark.builder("noop").run(ctx -> { }).build();
 * var plan = new RunPlan(noop, 2, Path.of(System.getProperty("java.io.tmpdir"), "prism-example"), 42,
 *         Duration.ofMinutes(1), Instant.now().plusSeconds(60), Duration.ofSeconds(1),
 *         new ScenarioListener() { }, "example", 0, null);
 * System.out.println(plan.rankDirectory(1) + " and " + plan.sharedDirectory());
 * }</pre>
 *
 * @param benchmark      the benchmark
 * @param tasks          how many ranks
 * @param runDirectory   {@code <target>/prism-<runId>}: ranks work in {@code rank-<r>} and {@code shared} below it
 * @param seed           the seed ranks derive their random sources from
 * @param timeout        how long the repetition may take
 * @param deadline       when the repetition must have finished
 * @param stallThreshold operations slower than this are stalls
 * @param listener       told about stalls while they run
 * @param runId          the scenario's run id
 * @param repetition     the measured repetition's index, or -1 for a warm-up
 * @param rankOutput     where each rank writes its own {@code rank-<r>.json}, or null for nowhere
 * @param interruption   stops the ranks before their next operation when interrupted
 * @param continueOnError whether an item whose operation fails is counted (per operation and errno) and passed over
 *                        ({@link WorkloadContext#attempt}) instead of failing the rank
 * @param pacing          a fixed amount of work, or a duration with a ramp; and interval histograms or none
 * @param silenceLimit    how long a rank or the coordinator may go unheard before the other end asks whether its node
 *                        is still there (it is given up on only when the node does not answer); null: a tenth of the
 *                        timeout, from 15 s to 60 s ({@link #defaultSilenceLimit})
 */
public record RunPlan(Benchmark benchmark, int tasks, Path runDirectory, long seed, Duration timeout, Instant deadline,
                      Duration stallThreshold, ScenarioListener listener, String runId, int repetition, Path rankOutput,
                      Interruption interruption, boolean continueOnError, Pacing pacing, Duration silenceLimit) {
    /** Checks; a null silence limit is the timeout's default. */
    public RunPlan {
        java.util.Objects.requireNonNull(pacing, "pacing");
        if (silenceLimit == null) {
            silenceLimit = defaultSilenceLimit(timeout);
        }
    }

    /** A plan with the default silence limit. */
    public RunPlan(Benchmark benchmark, int tasks, Path runDirectory, long seed, Duration timeout, Instant deadline,
                   Duration stallThreshold, ScenarioListener listener, String runId, int repetition, Path rankOutput,
                   Interruption interruption, boolean continueOnError, Pacing pacing) {
        this(benchmark, tasks, runDirectory, seed, timeout, deadline, stallThreshold, listener, runId, repetition,
                rankOutput, interruption, continueOnError, pacing, null);
    }

    /**
     * @return the silence limit of a run with {@code timeout} when none is given: a tenth of the timeout, at least 15 s
     *         (several missed pings, more than a long GC pause) and at most 60 s (a 10-minute run: 60 s)
     */
    public static Duration defaultSilenceLimit(Duration timeout) {
        Duration tenth = timeout.dividedBy(10);
        Duration min = Duration.ofSeconds(15);
        Duration max = Duration.ofSeconds(60);
        return tenth.compareTo(min) < 0 ? min : tenth.compareTo(max) > 0 ? max : tenth;
    }

    /** A plan paced by its amount of work. */
    public RunPlan(Benchmark benchmark, int tasks, Path runDirectory, long seed, Duration timeout, Instant deadline,
                   Duration stallThreshold, ScenarioListener listener, String runId, int repetition, Path rankOutput,
                   Interruption interruption, boolean continueOnError) {
        this(benchmark, tasks, runDirectory, seed, timeout, deadline, stallThreshold, listener, runId, repetition,
                rankOutput, interruption, continueOnError, Pacing.NONE);
    }

    /** A plan that stops at the first error. */
    public RunPlan(Benchmark benchmark, int tasks, Path runDirectory, long seed, Duration timeout, Instant deadline,
                   Duration stallThreshold, ScenarioListener listener, String runId, int repetition, Path rankOutput,
                   Interruption interruption) {
        this(benchmark, tasks, runDirectory, seed, timeout, deadline, stallThreshold, listener, runId, repetition,
                rankOutput, interruption, false);
    }

    /** A plan nobody interrupts. */
    public RunPlan(Benchmark benchmark, int tasks, Path runDirectory, long seed, Duration timeout, Instant deadline,
                   Duration stallThreshold, ScenarioListener listener, String runId, int repetition, Path rankOutput) {
        this(benchmark, tasks, runDirectory, seed, timeout, deadline, stallThreshold, listener, runId, repetition,
                rankOutput, Interruption.create());
    }

    /** @return the directory of {@code rank} */
    public Path rankDirectory(int rank) {
        return dev.prism.internal.files.RunDirectory.rankDirectory(runDirectory, rank);
    }

    /** @return the directory all ranks share */
    public Path sharedDirectory() {
        return runDirectory.resolve("shared");
    }
}
