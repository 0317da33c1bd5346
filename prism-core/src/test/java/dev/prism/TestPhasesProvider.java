package dev.prism;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A provider for fault tests (test class path only): a rank that holds in a phase of its choice, so a
 * test can drive a fault (SIGKILL, a signal, the parent's death, storage that hangs) while a rank is
 * known to be there. Every rank times 10 'step's at the start of its timed phase; the held rank (or
 * every rank) then holds in {@code hold_phase} for {@code hold_ms}: in the timed phase by timing 10 ms
 * 'tick's, elsewhere by untimed 10 ms waits (as a setup writing files would be busy, not listening),
 * or, with {@code hang_file}, by reading {@code hang-<phase>.dat} in its directory for faultfs to delay.
 * When the hold begins the rank writes {@code held-<phase>} in its directory: the state a test waits for.
 */
public final class TestPhasesProvider implements BenchmarkProvider {
    /** The phases a rank can hold in. */
    public enum Hold { NONE, SETUP, REHEARSAL, RUN, TEARDOWN }

    static final Parameter<Hold> HOLD_PHASE = Parameter.ofEnum("hold_phase", Hold.class, Hold.NONE, "where the held rank holds");
    static final Parameter<Integer> HOLD_RANK = Parameter.ofInt("hold_rank", -1, -1, 100_000, null, "which rank holds; -1 every rank");
    static final Parameter<Integer> HOLD_MS = Parameter.ofInt("hold_ms", 600_000, 0, 600_000, "ms", "how long the hold lasts");
    static final Parameter<Integer> FILES = Parameter.ofInt("files", 0, 0, 100_000, "files",
            "small files each rank writes in setup, for its clean-up to remove");
    static final Parameter<Boolean> HANG_FILE = Parameter.ofBoolean("hang_file", false,
            "hold by reading hang-<phase>.dat (faultfs delays it) instead of waiting");

    @Override
    public String name() {
        return "test_phases";
    }

    @Override
    public String description() {
        return "times steps; one rank holds in a phase chosen for a fault test";
    }

    @Override
    public List<Parameter<?>> parameters() {
        return List.of(HOLD_PHASE, HOLD_RANK, HOLD_MS, FILES, HANG_FILE);
    }

    @Override
    public Benchmark create(Map<String, String> values) {
        Parameters p = Parameters.defaults(parameters()).withText(values);
        return Benchmark.builder(name()).parameters(p).workload(() -> new Workload() {
            @Override
            public void setup(WorkloadContext ctx) throws Exception {
                for (int i = 0; i < ctx.parameters().get(FILES); i++) {
                    Files.writeString(ctx.workDirectory().resolve("file-" + i), "x");
                }
                hold(ctx, Hold.SETUP);
            }

            @Override
            public void rehearse(WorkloadContext ctx) throws Exception {
                hold(ctx, Hold.REHEARSAL);
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                for (int i = 0; i < 10; i++) {
                    ctx.measure("step", () -> { });
                }
                hold(ctx, Hold.RUN);
            }

            @Override
            public void teardown(WorkloadContext ctx) throws Exception {
                hold(ctx, Hold.TEARDOWN);
            }
        }).build();
    }

    private static void hold(WorkloadContext ctx, Hold phase) throws Exception {
        Parameters p = ctx.parameters();
        int rank = p.get(HOLD_RANK);
        if (p.get(HOLD_PHASE) != phase || (rank >= 0 && rank != ctx.rank())) {
            return;
        }
        String name = phase.name().toLowerCase(java.util.Locale.ROOT);
        Path hang = ctx.workDirectory().resolve("hang-" + name + ".dat");
        if (p.get(HANG_FILE)) {
            Files.writeString(hang, "x");
        }
        Files.writeString(ctx.workDirectory().resolve("held-" + name), "");
        if (p.get(HANG_FILE)) {
            if (phase == Hold.RUN) {
                ctx.measure("read", hang, () -> Files.readAllBytes(hang));
            } else {
                Files.readAllBytes(hang);
            }
            return;
        }
        long end = System.nanoTime() + p.get(HOLD_MS) * 1_000_000L;
        while (System.nanoTime() < end) {
            if (phase == Hold.RUN) {
                ctx.measure("tick", () -> Thread.sleep(10)); // the held rank's timed work: 10 ms ticks
            } else {
                busy(10);
            }
        }
    }

    /** Work that does not listen for a stop: an interrupt is noted and the work goes on, as a file system call's would. */
    private static void busy(long millis) throws IOException {
        try {
            Thread.sleep(millis); // stands for 10 ms of untimed work, not a wait for a state
        } catch (InterruptedException e) {
            // real untimed I/O does not end on Thread.interrupt either; the rank's process is stopped from outside
        }
    }
}
