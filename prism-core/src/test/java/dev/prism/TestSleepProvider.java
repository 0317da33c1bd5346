package dev.prism;

import java.util.List;
import java.util.Map;

/**
 * A provider for distributed tests (test class path only): each rank records 'step' a few times,
 * waits at a barrier, then the rank named by 'slow_rank' sleeps 'sleep_ms' inside a timed 'sleep'.
 */
public final class TestSleepProvider implements BenchmarkProvider {
    static final Parameter<Integer> SLEEP_MS = Parameter.ofInt("sleep_ms", 0, 0, 600_000, "ms", "how long the slow rank sleeps");
    static final Parameter<Integer> SLOW_RANK = Parameter.ofInt("slow_rank", -1, -1, 100_000, null, "which rank sleeps; -1 none");
    static final Parameter<Integer> FAIL_RANK = Parameter.ofInt("fail_rank", -1, -1, 100_000, null, "which rank throws; -1 none");
    static final Parameter<Integer> LOOP_MS = Parameter.ofInt("loop_ms", 0, 0, 600_000, "ms",
            "every rank times 10 ms 'tick's for this long after the barrier");
    static final Parameter<Boolean> OPEN_SLOW_FILE = Parameter.ofBoolean("open_slow_file", false,
            "the slow rank writes slow.dat in its directory and times opening it (for faultfs to delay)");

    @Override
    public String name() {
        return "test_sleep";
    }

    @Override
    public String description() {
        return "records steps, meets at a barrier, one rank sleeps or fails";
    }

    @Override
    public List<Parameter<?>> parameters() {
        return List.of(SLEEP_MS, SLOW_RANK, FAIL_RANK, LOOP_MS, OPEN_SLOW_FILE);
    }

    /** Set by SuiteTest: what this provider says it lacks, so that a suite leaves it out. */
    static volatile String missing;

    /** Joins the standard suite (not quick: the quick suite's size is pinned by other tests) with its defaults and a 5 ms sleep. */
    @Override
    public List<Benchmark> suite(Suite suite) {
        return suite == Suite.STANDARD ? List.of(create(Map.of()), create(Map.of("sleep_ms", "5", "slow_rank", "0"))) : List.of();
    }

    @Override
    public String missing() {
        return missing;
    }

    @Override
    public Benchmark create(Map<String, String> values) {
        Parameters p = Parameters.defaults(parameters()).withText(values);
        return Benchmark.builder(name()).parameters(p).run(ctx -> {
            for (int i = 0; i < 10; i++) {
                ctx.measure("step", () -> { });
            }
            ctx.addCounter("steps", 10);
            ctx.barrier();
            if (ctx.rank() == ctx.parameters().get(FAIL_RANK)) {
                throw new java.io.IOException("rank " + ctx.rank() + " was told to fail");
            }
            if (ctx.rank() == ctx.parameters().get(SLOW_RANK) && ctx.parameters().get(OPEN_SLOW_FILE)) {
                java.nio.file.Path slow = java.nio.file.Files.writeString(ctx.workDirectory().resolve("slow.dat"), "x");
                ctx.measure("open", slow, () -> java.nio.file.Files.newInputStream(slow).close());
            } else if (ctx.rank() == ctx.parameters().get(SLOW_RANK)) {
                try (var t = ctx.time("sleep", ctx.workDirectory())) {
                    Thread.sleep(ctx.parameters().get(SLEEP_MS)); // the slow rank's timed sleep: its work
                }
            }
            long loopEnd = System.nanoTime() + ctx.parameters().get(LOOP_MS) * 1_000_000L;
            while (System.nanoTime() < loopEnd) {
                ctx.measure("tick", () -> Thread.sleep(10)); // the timed work: 10 ms ticks
            }
        }).build();
    }
}
