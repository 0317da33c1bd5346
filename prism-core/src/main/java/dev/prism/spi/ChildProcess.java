package dev.prism.spi;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a program the way PRISM's benchmarks run git, fio, tar and torchrun: taken from a fixed, owner-checked path
 * with an allowlisted environment ({@link TrustedPrograms}), never past a timeout, keeping only the end
 * of what it prints (so a chatty program cannot fill memory), and never leaving a process behind. At the timeout the
 * program is sent SIGTERM and given {@link Builder#terminateGrace} to stop its own children (torchrun stops its
 * workers), then it and everything it started are killed; a grace of zero kills at once. A program that ends within
 * its grace but leaves a child of its own running has that child killed too. When the calling thread is
 * interrupted, the whole process tree is killed, waited for (up to 5 s), and the interrupt is kept.
 *
 * <pre>{@code
 * import dev.prism.spi.ChildProcess;
 * import java.time.Duration;
 * import java.util.List;
 *
 * var r = ChildProcess.of(List.of("sh", "-c", "echo hello; echo oops >&2; exit 3")).
 *         timeout(Duration.ofSeconds(10)).run();
 * System.out.println(r.exitCode() + " [" + r.stdout().strip() + "] [" + r.stderr().strip() + "] timed out: " + r.timedOut());
 * }</pre>
 */
public final class ChildProcess {
    private final List<String> command;
    private final Path directory;
    private final Map<String, String> environment;
    private final Duration timeout;
    private final Duration terminateGrace;
    private final boolean mergeErrors;
    private final int stdoutBytes;
    private final int stderrBytes;

    private ChildProcess(Builder b) {
        this.command = List.copyOf(b.command);
        this.directory = b.directory;
        this.environment = Map.copyOf(b.environment);
        this.timeout = b.timeout;
        this.terminateGrace = b.terminateGrace;
        this.mergeErrors = b.mergeErrors;
        this.stdoutBytes = b.stdoutBytes;
        this.stderrBytes = b.stderrBytes;
    }

    /** @return a builder for running {@code command} (program first), with a 30 minute timeout and 16 KiB of each stream kept */
    public static Builder of(List<String> command) {
        return new Builder(command);
    }

    /** How a program ended and the ends of what it printed. */
    public record Result(int exitCode, boolean timedOut, String stdout, String stderr, long wallNanos) {
    }

    /** @return the command this runs */
    public List<String> command() {
        return command;
    }

    /**
     * Runs the program to its end or its timeout.
     *
     * @return how it ended; a program stopped at the timeout has {@code timedOut} and exit code -1
     * @throws IOException when it cannot be started (no such file, no permission)
     * @throws InterruptedIOException when the calling thread was interrupted (the interrupt is kept, the tree killed)
     */
    public Result run() throws IOException {
        // the program from a fixed, owner-checked path; an allowlisted environment (no credential of PRISM's)
        ProcessBuilder pb = new ProcessBuilder(TrustedPrograms.resolve(command)).redirectErrorStream(mergeErrors);
        if (directory != null) {
            pb.directory(directory.toFile());
        }
        pb.environment().clear();
        pb.environment().putAll(TrustedPrograms.environment());
        pb.environment().putAll(environment);
        long start = System.nanoTime();
        Process p = pb.start();
        OutputTail out = new OutputTail(p.getInputStream(), stdoutBytes, "prism-child-stdout");
        OutputTail err = mergeErrors ? null : new OutputTail(p.getErrorStream(), stderrBytes, "prism-child-stderr");
        boolean finished;
        try {
            finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                stop(p);
            }
            out.await(5_000);
            if (err != null) {
                err.await(5_000);
            }
        } catch (InterruptedException e) {
            List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
            all.add(p.toHandle());
            all.forEach(ProcessHandle::destroyForcibly);
            awaitExit(all);
            Thread.currentThread().interrupt();
            InterruptedIOException stopped = new InterruptedIOException("interrupted while running " + command.get(0));
            stopped.initCause(e);
            throw stopped;
        }
        return new Result(finished ? p.exitValue() : -1, !finished, out.text(), err == null ? "" : err.text(),
                System.nanoTime() - start);
    }

    /**
     * SIGTERM and the grace first (where there is one), then SIGKILL to the program and all it started. What it had
     * started when it was told to stop is killed too when it ended within its grace and left them running: a torch
     * worker that outlived torchrun would go on reaching the paths it was given, {@code /proc/<pid>/fd/N} of a
     * descriptor PRISM then closes and may open again for another directory.
     */
    private void stop(Process p) throws InterruptedException {
        java.util.Set<ProcessHandle> started = new java.util.LinkedHashSet<>(p.descendants().toList());
        if (!terminateGrace.isZero()) {
            p.destroy();
            // what it starts while it stops is seen too, every 50 ms of the grace, until it has ended
            long end = System.nanoTime() + terminateGrace.toNanos();
            boolean ended = false;
            while (!ended && System.nanoTime() < end) {
                started.addAll(p.descendants().toList());
                ended = p.waitFor(Math.min(50_000_000L, Math.max(1, end - System.nanoTime())), TimeUnit.NANOSECONDS);
            }
            if (ended) {
                List<ProcessHandle> left = started.stream().filter(ProcessHandle::isAlive).toList();
                left.forEach(ProcessHandle::destroyForcibly);
                awaitExit(left);
                return;
            }
        }
        started.addAll(p.descendants().toList());
        started.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(5, TimeUnit.SECONDS);
        awaitExit(new ArrayList<>(started));
    }

    /** Waits up to 5 s for killed processes to be gone, so that none outlives the run; an interrupt meanwhile is kept. */
    private static void awaitExit(List<ProcessHandle> processes) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        boolean interrupted = false;
        for (ProcessHandle h : processes) {
            while (h.isAlive() && System.nanoTime() < end) {
                try {
                    h.onExit().get(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException again) {
                    interrupted = true; // go on waiting, and say so at the end
                } catch (ExecutionException | TimeoutException gone) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Builds a {@link ChildProcess}; each setter checks its argument at once. */
    public static final class Builder {
        private static final int MAX_KEPT = 1 << 30;
        private final List<String> command;
        private Path directory;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private Duration timeout = Duration.ofMinutes(30);
        private Duration terminateGrace = Duration.ZERO;
        private boolean mergeErrors;
        private int stdoutBytes = 16 << 10;
        private int stderrBytes = 16 << 10;

        private Builder(List<String> command) {
            if (command == null || command.isEmpty() || command.stream().anyMatch(Objects::isNull)) {
                throw new IllegalArgumentException("command must name a program and its arguments, none null, was " + command);
            }
            this.command = List.copyOf(command);
        }

        /** @param directory where the program runs; null for this process's own */
        public Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        /**
         * @param environment variables added to the child's allowlisted environment ({@link TrustedPrograms#environment}),
         *                    replacing any of the same name
         */
        public Builder environment(Map<String, String> environment) {
            Objects.requireNonNull(environment, "environment");
            this.environment.putAll(environment);
            return this;
        }

        /** @param timeout how long the program may run, 1 ms to 7 days */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(Duration.ofDays(7)) > 0) {
                throw new IllegalArgumentException("timeout must be in 1ms..7 days, was "
                        + (timeout == null ? "null" : Formats.exactDuration(timeout)));
            }
            this.timeout = timeout;
            return this;
        }

        /** @param grace after SIGTERM at the timeout, how long before SIGKILL, 0 (kill at once) to 5 minutes */
        public Builder terminateGrace(Duration grace) {
            if (grace == null || grace.isNegative() || grace.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException("terminateGrace must be in 0s..5m, was "
                        + (grace == null ? "null" : Formats.exactDuration(grace)));
            }
            this.terminateGrace = grace;
            return this;
        }

        /** Sends stderr into stdout (one stream, in the order printed); {@link Result#stderr} is then empty. */
        public Builder mergeErrors() {
            this.mergeErrors = true;
            return this;
        }

        /** @param bytes how much of the end of stdout to keep, 1 byte to 1 GiB */
        public Builder keepStdout(int bytes) {
            this.stdoutBytes = kept("keepStdout", bytes);
            return this;
        }

        /** @param bytes how much of the end of stderr to keep, 1 byte to 1 GiB */
        public Builder keepStderr(int bytes) {
            this.stderrBytes = kept("keepStderr", bytes);
            return this;
        }

        private static int kept(String name, int bytes) {
            if (bytes < 1 || bytes > MAX_KEPT) {
                throw new IllegalArgumentException(name + " must be in 1.." + MAX_KEPT + " bytes, was " + bytes);
            }
            return bytes;
        }

        /** @return the runner, immutable */
        public ChildProcess build() {
            return new ChildProcess(this);
        }

        /** Builds and runs: {@link ChildProcess#run}. */
        public Result run() throws IOException {
            return build().run();
        }
    }
}
