package dev.prism.posix.internal;

import dev.prism.spi.SyscallTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The slowest-calls note when the kernel counted and no call took long enough to be named. */
class TracedProgramsTest {
    private static SyscallTrace.Totals totals(long count, long maxNanos) {
        return new SyscallTrace.Totals(count, 0, 0, count * maxNanos, maxNanos, maxNanos,
                new TreeMap<>(Map.of(maxNanos, count)));
    }

    @Test
    void withoutSlowCalls_theNoteNamesEachCallsSlowest_slowestFirst_andSaysWhyThereAreNoPaths() {
        SyscallTrace.Result seen = new SyscallTrace.Result(List.of(), Map.of(), 0, List.of(),
                Map.of("openat", totals(3, 40_000), "read", totals(5, 300_000), "close", totals(1, 2_000),
                        "unlink", new SyscallTrace.Totals(0, 2, 0, 0, 0, 0, new TreeMap<>())), 4, true);
        String note = TracedPrograms.slowestWithoutPaths(seen);
        assertThat(note).startsWith("read 300");
        assertThat(note.indexOf("read")).isLessThan(note.indexOf("openat"));
        assertThat(note.indexOf("openat")).isLessThan(note.indexOf("close"));
        assertThat(note).doesNotContain("unlink").endsWith("(no call took 1 ms: the kernel names the files of slower calls only)");
    }
}
