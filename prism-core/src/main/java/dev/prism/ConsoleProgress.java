package dev.prism;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;

/**
 * The progress the {@code prism} command shows, for any caller of {@link Scenario#execute()}: on a terminal a bar
 * redrawn four times a second once the scenario has run for a second ({@code [######..........] 3/32 create_files
 * tasks=2 rep 1 0:12}); elsewhere (a log, an IDE's console, {@code mvn exec:java}) a line as each execution starts
 * ({@code [3/32] create_files tasks=2 rep 1}); and in both a line for each stall, slow rank, refused connection and
 * warning about the target as it happens. One call away:
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.ConsoleProgress;
 * import dev.prism.Scenario;
 * import java.nio.file.Path;
 *
 * var noop = Benchmark.builder("noop").run(ctx -> { }).build();
 * Scenario.builder().target(Path.of(System.getProperty("java.io.tmpdir"))).benchmark(noop)
 *         .listener(ConsoleProgress.toStderr())    // a bar on a terminal, a line per execution elsewhere
 *         .build().execute();
 * }</pre>
 *
 * The bar's thread starts with the first execution and stops when the scenario cleans up ({@link
 * ScenarioListener#cleanupStarted}), clearing the bar; {@link #close()} stops it too. To hear more, wrap it: a listener
 * of one's own that passes each call on. What it shows of names and events has its control characters escaped
 * ({@link dev.prism.spi.TerminalText}): a directory's name cannot move the cursor or erase the bar.
 */
public final class ConsoleProgress implements ScenarioListener, AutoCloseable {
    /** How progress is shown. */
    public enum Style {
        /** A bar redrawn in place ({@code \r}), for a terminal; and a line for each event. */
        BAR,
        /** A line as each execution starts, and one for each event: for logs and consoles that keep every line. */
        LINES,
        /** A line for each event alone (stalls, slow ranks, refused connections, the target's warnings). */
        EVENTS,
        /** Nothing at all. */
        SILENT
    }

    private static final int WIDTH = 24;
    private static final long SHOW_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long TICK_MILLIS = 250;

    private final PrintWriter out;
    private final Style style;
    private final long startNanos = System.nanoTime();
    private volatile String current = "";
    private volatile int done;
    private volatile int total = 1;
    /** The bar's thread, started by the first execution; null before, and after it stopped */
    private Thread ticker;
    private boolean stopped;
    private boolean drawn;

    private ConsoleProgress(PrintWriter out, Style style) {
        // the bar's \r is this class's own; every line and name it shows is escaped here, whatever writer it was given
        this.out = dev.prism.spi.TerminalText.raw(out);
        this.style = style;
    }

    /**
     * @return progress on this process's standard error: {@link Style#BAR} where it is a terminal, {@link Style#LINES}
     *         where it is not
     */
    public static ConsoleProgress toStderr() {
        return to(System.err, stderrIsTerminal() ? Style.BAR : Style.LINES);
    }

    /**
     * @return progress written to {@code out} in {@code style}
     * @throws IllegalArgumentException when either is null
     */
    public static ConsoleProgress to(PrintStream out, Style style) {
        if (out == null) {
            throw new IllegalArgumentException("out must be a stream to write progress to, was null");
        }
        return to(new PrintWriter(out, true), style);
    }

    /**
     * @return progress written to {@code out} in {@code style}
     * @throws IllegalArgumentException when either is null
     */
    public static ConsoleProgress to(PrintWriter out, Style style) {
        if (out == null) {
            throw new IllegalArgumentException("out must be a writer to write progress to, was null");
        }
        if (style == null) {
            throw new IllegalArgumentException("style must be one of BAR, LINES, EVENTS, SILENT, was null");
        }
        return new ConsoleProgress(out, style);
    }

    /** @return how this progress is shown */
    public Style style() {
        return style;
    }

    /** @return whether this process's standard error is a terminal (descriptor 2 is a tty or a pseudo-terminal) */
    public static boolean stderrIsTerminal() {
        try {
            String device = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
            return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    @Override
    public void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
        this.current = benchmark.name() + " tasks=" + tasks + (warmup ? " warm-up" : " rep") + " " + (repetition + 1);
        this.done = done;
        this.total = total;
        if (style == Style.LINES) {
            say("[" + (done + 1) + "/" + total + "] " + current);
        } else if (style == Style.BAR) {
            startTicker();
        }
    }

    @Override
    public void stallDetected(Stall stall) {
        say("stall: " + stall);
    }

    @Override
    public void rankSlow(int rank, java.time.Duration silence) {
        say("slow: rank " + rank + " has not been heard from for " + dev.prism.spi.Formats.duration(silence)
                + ", but its node still answers: waiting for it");
    }

    @Override
    public void otherRunsInTarget(String description) {
        say("note: " + description);
    }

    @Override
    public void targetExposed(String description) {
        say("warning: " + description);
    }

    @Override
    public void connectionRefused(String description) {
        say(description);
    }

    /** The scenario is over: the bar stops and is cleared. */
    @Override
    public void cleanupStarted(java.nio.file.Path runDirectory) {
        stop();
    }

    /** Stops the bar, if it runs, and clears it. */
    @Override
    public void close() {
        stop();
    }

    private synchronized void startTicker() {
        if (ticker == null && !stopped) {
            ticker = new Thread(this::tick, "prism-progress");
            ticker.setDaemon(true);
            ticker.start();
        }
    }

    private void stop() {
        Thread running;
        synchronized (this) {
            stopped = true;
            running = ticker;
            ticker = null;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            clear();
            out.flush();
        }
    }

    /** Prints {@code line} on its own line, the bar cleared first (it is drawn again at the next tick). */
    private void say(String line) {
        if (style != Style.SILENT) {
            synchronized (this) {
                clear();
                out.println(dev.prism.spi.TerminalText.escape(line));
                out.flush();
            }
        }
    }

    private void tick() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long elapsed = System.nanoTime() - startNanos;
            if (elapsed >= SHOW_AFTER_NANOS) {
                draw(elapsed);
            }
        }
    }

    private synchronized void draw(long elapsedNanos) {
        if (stopped) {
            return;
        }
        int filled = total == 0 ? WIDTH : Math.min(WIDTH, done * WIDTH / total);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(elapsedNanos);
        out.printf("\r[%s%s] %d/%d %-40s %d:%02d", "#".repeat(filled), ".".repeat(WIDTH - filled), done, total,
                dev.prism.spi.TerminalText.escape(current), seconds / 60, seconds % 60);
        out.flush();
        drawn = true;
    }

    private void clear() {
        if (drawn) {
            out.print("\r" + " ".repeat(WIDTH + 60) + "\r");
            drawn = false;
        }
    }
}
