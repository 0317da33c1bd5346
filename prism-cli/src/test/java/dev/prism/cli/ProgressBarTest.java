package dev.prism.cli;

import dev.prism.Benchmark;
import dev.prism.Stall;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressBarTest {
    private static final Benchmark NOOP = Benchmark.builder("noop").run(ctx -> { }).build();

    @Test
    void shortWork_drawsNothing() {
        StringWriter err = new StringWriter();
        try (ProgressBar bar = new ProgressBar(new PrintWriter(err), true, true)) {
            bar.executionStarted(NOOP, 2, 0, false, 0, 4);
        }
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void workLongerThanASecond_drawsABarWithWhatRuns() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ProgressBar bar = new ProgressBar(new PrintWriter(err), true, true)) {
            bar.executionStarted(NOOP, 2, 1, false, 2, 4);
            dev.prism.testing.Await.until("the bar is drawn", () -> err.toString().contains("2/4"));
        }
        assertThat(err.toString()).contains("[############............] 2/4").contains("noop tasks=2 rep 2");
    }

    @Test
    void quiet_drawsNothingEvenForLongWork_andStallsAreNotPrinted() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ProgressBar bar = new ProgressBar(new PrintWriter(err), false, true)) {
            bar.executionStarted(NOOP, 1, 0, true, 0, 1);
            bar.stallDetected(new Stall(0, "open", "/x", Instant.now(), 2_000_000_000L, false));
            Thread.sleep(1_300); // on purpose: past the second after which a bar would be drawn, to show none is
        }
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void notATerminal_drawsNoFrames_butStillSaysStalls() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ProgressBar bar = new ProgressBar(new PrintWriter(err), true, false)) {
            bar.executionStarted(NOOP, 1, 0, false, 0, 1);
            Thread.sleep(1_300); // on purpose: past the second after which a bar would be drawn, to show none is
            bar.stallDetected(new Stall(1, "open", "/x", Instant.now(), 2_000_000_000L, false));
        }
        assertThat(err.toString()).doesNotContain("\r").isEqualTo("stall: rank 1 open /x 2.000s (still running)\n");
    }

    @Test
    void stall_isPrintedOnItsOwnLineAtOnce() {
        StringWriter err = new StringWriter();
        try (ProgressBar bar = new ProgressBar(new PrintWriter(err), true, true)) {
            bar.stallDetected(new Stall(3, "open", "/mnt/nfs/ckpt/0001.bin", Instant.now(), 5_200_000_000L, false));
        }
        assertThat(err.toString()).contains("stall: rank 3 open /mnt/nfs/ckpt/0001.bin 5.200s (still running)\n");
    }
}
