package dev.prism.report.internal;

import dev.prism.RunResult;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Each operation's histogram as an HdrHistogram log, for HdrHistogram's own tools (HistogramLogAnalyzer, plotting). */
public final class HistogramLog {
    private HistogramLog() {
    }

    /** @return the log of {@code sets}, each histogram tagged {@code set/benchmark/t<tasks>/op} */
    public static byte[] of(Map<String, List<RunResult>> sets) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("PRISM latencies in nanoseconds; tags are set/benchmark/t<tasks>/operation");
            writer.outputLogFormatVersion();
            writer.outputLegend();
            sets.forEach((label, runs) -> {
                for (RunResult run : runs) {
                    run.measurements().forEach((op, m) -> {
                        Histogram h = m.histogram();
                        h.setTag((label + "/" + run.benchmark() + "/t" + run.tasks() + "/" + op).replaceAll("[\\s,]", "_"));
                        h.setStartTimeStamp(run.startedAt().toEpochMilli());
                        h.setEndTimeStamp(run.finishedAt().toEpochMilli());
                        writer.outputIntervalHistogram(h);
                    });
                }
            });
        }
        return bytes.toByteArray();
    }
}
