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

    /** A stand-in for a dataloader run of one format: 100 samples of 1 KiB at a given latency, and the kernel's counts */
    private static Benchmark loader(String format, long sampleNanos, long readBytes) {
        List<Parameter<?>> declared = List.of(Parameter.ofString("format", "files", "the format"),
                Parameter.ofString("samples", "100", "samples"), Parameter.ofString("sample_size", "1KiB", "size"),
                Parameter.ofString("row_group", "", "parquet's"), Parameter.ofString("num_workers", "2", "workers"));
        return Benchmark.builder("dataloader").parameters(Parameters.defaults(declared).withText(Map.of("format", format,
                        "row_group", format.equals("parquet") ? "1MiB" : "-")))
                .run(ctx -> {
                    for (int i = 0; i < 100; i++) {
                        ctx.record("sample", sampleNanos);
                    }
                    ctx.addBytes("sample", 100 * 1024);
                    ctx.addCounter("storage_read_bytes", readBytes);
                    ctx.addCounter("major_faults", 5);
                }).build();
    }

    @Test
    void formatsOfTheSameSamples_sitSideBySide_withTheirReadAmplification() throws Exception {
        List<RunResult> runs = new ArrayList<>();
        runs.addAll(Scenario.builder().target(target).benchmark(loader("parquet", 50_000, 2 * 102_400)).build().execute().runs());
        runs.addAll(Scenario.builder().target(target).benchmark(loader("tar-shards", 20_000, 102_400)).build().execute().runs());
        String html = Report.of(Map.of("here", runs)).html();
        assertThat(html).contains("Data formats side by side").contains("100 × 1KiB samples, num_workers=2 at 1 task(s)")
                .contains("<td>parquet row_group=1MiB</td>").contains("<td>tar-shards row_group=-</td>")
                // read_bytes twice the samples' bytes for parquet, once for tar; 5 major faults over 100 samples
                .contains("<td>2.00</td>").contains("<td>1.00</td>").contains("<td>50.0</td>");
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
