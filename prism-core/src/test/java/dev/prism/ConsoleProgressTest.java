package dev.prism;

import dev.prism.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsoleProgressTest {
    private static final Benchmark NOOP = Benchmark.builder("noop").run(ctx -> { }).build();

    private static ConsoleProgress progress(StringWriter err, ConsoleProgress.Style style) {
        return ConsoleProgress.to(new PrintWriter(err), style);
    }

    @Test
    void shortWork_drawsNothing() {
        StringWriter err = new StringWriter();
        try (ConsoleProgress bar = progress(err, ConsoleProgress.Style.BAR)) {
            bar.executionStarted(NOOP, 2, 0, false, 0, 4);
        }
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void workLongerThanASecond_drawsABarWithWhatRuns() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ConsoleProgress bar = progress(err, ConsoleProgress.Style.BAR)) {
            bar.executionStarted(NOOP, 2, 1, false, 2, 4);
            Await.until("the bar is drawn", () -> err.toString().contains("2/4"));
        }
        assertThat(err.toString()).contains("[############............] 2/4").contains("noop tasks=2 rep 2");
    }

    @Test
    void theBarStopsAndIsCleared_whenTheScenarioCleansUp() throws InterruptedException {
        StringWriter err = new StringWriter();
        ConsoleProgress bar = progress(err, ConsoleProgress.Style.BAR);
        bar.executionStarted(NOOP, 1, 0, false, 0, 1);
        Await.until("the bar is drawn", () -> err.toString().contains("0/1 noop tasks=1 rep 1"));
        bar.cleanupStarted(Path.of("/nowhere"));
        String after = err.toString();
        assertThat(after).endsWith("\r");
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("prism-progress") && t.isAlive());
    }

    @Test
    void silent_drawsNothingEvenForLongWork_andStallsAreNotPrinted() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ConsoleProgress bar = progress(err, ConsoleProgress.Style.SILENT)) {
            bar.executionStarted(NOOP, 1, 0, true, 0, 1);
            bar.stallDetected(new Stall(0, "open", "/x", Instant.now(), 2_000_000_000L, false));
            Thread.sleep(1_300); // on purpose: past the second after which a bar would be drawn, to show none is
        }
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void events_drawNoFrames_butStillSayStalls() throws InterruptedException {
        StringWriter err = new StringWriter();
        try (ConsoleProgress bar = progress(err, ConsoleProgress.Style.EVENTS)) {
            bar.executionStarted(NOOP, 1, 0, false, 0, 1);
            Thread.sleep(1_300); // on purpose: past the second after which a bar would be drawn, to show none is
            bar.stallDetected(new Stall(1, "open", "/x", Instant.now(), 2_000_000_000L, false));
        }
        assertThat(err.toString()).doesNotContain("\r").isEqualTo("stall: rank 1 open /x 2.000s (still running)\n");
    }

    @Test
    void stall_isPrintedOnItsOwnLineAtOnce() {
        StringWriter err = new StringWriter();
        try (ConsoleProgress bar = progress(err, ConsoleProgress.Style.BAR)) {
            bar.stallDetected(new Stall(3, "open", "/mnt/nfs/ckpt/0001.bin", Instant.now(), 5_200_000_000L, false));
        }
        assertThat(err.toString()).contains("stall: rank 3 open /mnt/nfs/ckpt/0001.bin 5.200s (still running)\n");
    }

    @Test
    void lines_sayEachExecutionOfARealScenario_asItStarts(@TempDir Path tmp) {
        StringWriter err = new StringWriter();
        ScenarioResult result = Scenario.builder().target(tmp).benchmark(NOOP).tasks(1, 2).repetitions(2).warmups(1)
                .listener(progress(err, ConsoleProgress.Style.LINES)).build().execute();
        assertThat(result.passed()).isTrue();
        assertThat(err.toString()).doesNotContain("\r").isEqualTo("""
                [1/6] noop tasks=1 warm-up 1
                [2/6] noop tasks=1 rep 1
                [3/6] noop tasks=1 rep 2
                [4/6] noop tasks=2 warm-up 1
                [5/6] noop tasks=2 rep 1
                [6/6] noop tasks=2 rep 2
                """);
    }

    /** Prints the style {@link ConsoleProgress#toStderr()} chooses in this JVM: run by {@link #styleInAChild}. */
    public static final class PrintStyle {
        public static void main(String[] args) {
            System.out.println(ConsoleProgress.toStderr().style());
        }
    }

    private static String styleInAChild(boolean terminal) {
        try {
            String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = List.of(javaCommand, "-cp", System.getProperty("java.class.path"), PrintStyle.class.getName());
            ProcessBuilder pb = terminal
                    ? new ProcessBuilder("/usr/bin/script", "-qec", command.stream().map(a -> "'" + a.replace("'", "'\\''") + "'")
                            .collect(java.util.stream.Collectors.joining(" ")), "/dev/null")
                    : new ProcessBuilder(command);
            Process p = pb.redirectInput(ProcessBuilder.Redirect.PIPE).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            return out.strip();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void toStderr_choosesTheBarOnlyOnATerminal_andArgumentsAreChecked() {
        // the observer: a JVM of its own whose stderr is a pipe, and one whose stderr is a terminal (script(1) gives it
        // a pseudo-terminal), each saying the style it chose
        assertThat(styleInAChild(false)).isEqualTo("LINES");
        assertThat(styleInAChild(true)).isEqualTo("BAR");
        assertThatThrownBy(() -> ConsoleProgress.to((PrintWriter) null, ConsoleProgress.Style.BAR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out");
        assertThatThrownBy(() -> ConsoleProgress.to(new PrintWriter(new StringWriter()), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("style must be one of BAR, LINES");
    }
}
