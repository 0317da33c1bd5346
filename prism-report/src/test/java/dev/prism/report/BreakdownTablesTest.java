package dev.prism.report;

import dev.prism.Benchmark;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.RunResult;
import dev.prism.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's breakdowns: the interfaces side by side, and each configuration's file calls with the slowest named. */
class BreakdownTablesTest {
    private static final Parameter<String> ACCESS = Parameter.ofString("access", "native", "the interface");

    @TempDir
    Path target;

    /** A benchmark that records a stat per interface, and a traced call with its note, as attribution leaves them */
    private static Benchmark touch(String access, long statNanos) {
        return Benchmark.builder("touch").parameters(Parameters.defaults(List.of(ACCESS)).withText(Map.of("access", access)))
                .run(ctx -> {
                    for (int i = 0; i < 10; i++) {
                        ctx.record("stat", statNanos);
                    }
                    ctx.record("syscall:openat", 5_000_000);
                    ctx.note("syscalls", "kernel (bpftrace): test");
                    ctx.note("syscalls_slowest", "openat 5.00 ms /ckpt/__1_0.distcp");
                }).build();
    }

    @Test
    void interfacesSideBySide_andFileCalls_appearInThePage() throws Exception {
        List<RunResult> runs = new ArrayList<>();
        for (String access : List.of("native", "python", "fsspec")) {
            runs.addAll(Scenario.builder().target(target).benchmark(touch(access, access.equals("fsspec") ? 9_000 : 2_000))
                    .build().execute().runs());
        }
        String html = Report.of(Map.of("here", runs)).html();
        assertThat(html).contains("File-access interfaces side by side").contains("native mean").contains("python p99")
                .contains("fsspec mean").contains("9.0 µs");
        assertThat(html).contains("File calls of the programs run").contains("<td>openat</td>")
                .contains("Slowest calls: openat 5.00 ms /ckpt/__1_0.distcp").contains("kernel (bpftrace): test");
        // a set without either has neither section
        String plain = Report.of(Map.of("plain", Scenario.builder().target(target).benchmark(Benchmark.builder("noop")
                .run(ctx -> ctx.record("x", 1000)).build()).build().execute().runs())).html();
        assertThat(plain).doesNotContain("side by side").doesNotContain("File calls of");
    }
}
