package dev.prism.internal.rank;

import dev.prism.internal.coordination.RankBarrier;

import dev.prism.LatencyRecorder;
import dev.prism.ScenarioListener;
import dev.prism.WorkloadContext;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Recording sits on the hot path of every benchmark: it must not allocate. */
class RecordingAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedBy(Runnable work) {
        long tid = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(tid);
        work.run();
        return THREADS.getThreadAllocatedBytes(tid) - before;
    }

    @Test
    void latencyRecorder_recordsWithoutAllocating() {
        LatencyRecorder recorder = new LatencyRecorder("op");
        Runnable work = () -> {
            for (int i = 0; i < 200_000; i++) {
                recorder.record(i * 37L);
                recorder.addBytes(4096);
            }
        };
        work.run(); // warm up: JIT-compile the loop
        // 200,000 records; a single allocation per record would show as megabytes
        assertThat(allocatedBy(work)).isLessThan(4096);
    }

    @Test
    void contextTimer_timesWithoutAllocatingOnceTheOperationIsKnown() {
        try (StallMonitor monitor = new StallMonitor(1_000_000_000L, ScenarioListener.NONE)) {
            RankContext ctx = new RankContext(0, 1, Path.of("."), Path.of("."), 1, dev.prism.Parameters.none(),
                    new RankBarrier(1, java.time.Instant.now().plusSeconds(60)), 1_000_000_000L, monitor);
            Path file = Path.of("file");
            Runnable work = () -> {
                for (int i = 0; i < 200_000; i++) {
                    try (WorkloadContext.Timer t = ctx.time("open", file)) {
                        ctx.addBytes("open", 1);
                    }
                }
            };
            work.run();
            assertThat(allocatedBy(work)).isLessThan(4096);
        }
    }
}
