package dev.prism.cli;

import dev.prism.Benchmark;
import dev.prism.ScenarioListener;
import dev.prism.Stall;

import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;

/**
 * A progress bar on stderr, redrawn four times a second once the scenario has run for a second —
 * only when stderr is a terminal, so that a log holds no {@code \r} frames — and a line for each
 * stall as it happens, terminal or not.
 */
final class ProgressBar implements ScenarioListener, AutoCloseable {
    private static final int WIDTH = 24;
    private static final long SHOW_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final PrintWriter err;
    private final boolean enabled;
    private final boolean frames;
    private final long startNanos = System.nanoTime();
    private final Thread ticker;
    private volatile String current = "";
    private volatile int done;
    private volatile int total = 1;
    private boolean drawn;

    /**
     * @param enabled whether anything is said on stderr at all (not with {@code --quiet})
     * @param frames  whether the bar is drawn: only on a terminal
     */
    ProgressBar(PrintWriter err, boolean enabled, boolean frames) {
        this.err = err;
        this.enabled = enabled;
        this.frames = enabled && frames;
        this.ticker = new Thread(this::tick, "prism-progress");
        this.ticker.setDaemon(true);
        if (this.frames) {
            ticker.start();
        }
    }

    /** @return whether this process's stderr is a terminal (its descriptor links to a tty or pseudo-terminal) */
    static boolean stderrIsTerminal() {
        String supervisor = System.getenv(Supervisor.STDERR_TERMINAL);
        if (supervisor != null) {
            return supervisor.equals("1"); // a supervised run writes through the supervisor's stderr
        }
        try {
            String device = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
            return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public void executionStarted(Benchmark benchmark, int tasks, int repetition, boolean warmup, int done, int total) {
        this.current = benchmark.name() + " tasks=" + tasks + (warmup ? " warm-up" : " rep") + " " + (repetition + 1);
        this.done = done;
        this.total = total;
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
        say("refused: " + description);
    }

    /** Prints {@code line} on its own line, the bar cleared first (it is drawn again at the next tick). */
    private void say(String line) {
        if (enabled) {
            synchronized (this) {
                clear();
                err.println(line);
                err.flush();
            }
        }
    }

    private void tick() {
        while (true) {
            try {
                TimeUnit.MILLISECONDS.sleep(250);
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
        int filled = total == 0 ? WIDTH : Math.min(WIDTH, done * WIDTH / total);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(elapsedNanos);
        err.printf("\r[%s%s] %d/%d %-40s %d:%02d", "#".repeat(filled), ".".repeat(WIDTH - filled), done, total,
                current, seconds / 60, seconds % 60);
        err.flush();
        drawn = true;
    }

    private void clear() {
        if (drawn) {
            err.print("\r" + " ".repeat(WIDTH + 60) + "\r");
            drawn = false;
        }
    }

    @Override
    public void close() {
        ticker.interrupt();
        try {
            ticker.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            clear();
            err.flush();
        }
    }
}
