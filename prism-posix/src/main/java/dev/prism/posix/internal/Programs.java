package dev.prism.posix.internal;

import dev.prism.PrismException;
import dev.prism.WorkloadContext;
import dev.prism.spi.ChildProcess;
import dev.prism.spi.TrustedPrograms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the real programs researchers use (git, tar, python, fio): found in the fixed, owner-checked
 * {@link TrustedPrograms#PATH} (never {@code $PATH}) or given explicitly and owner-checked,
 * a clear error with the install command when missing, the version recorded, output drained, and a
 * non-zero exit turned into a failure carrying the end of stderr.
 */
public final class Programs {
    private static final int TAIL = 4096;

    private Programs() {
    }

    /**
     * @param name    what to look for on PATH when {@code given} is empty (git, tar, fio…)
     * @param given   an explicit executable, or empty
     * @param install how to install it on Debian, for the message
     * @return the executable
     * @throws IllegalArgumentException saying how to install it or which parameter to set
     */
    public static String resolve(String name, String given, String install) {
        if (given != null && !given.isBlank()) {
            if (!Files.isExecutable(Path.of(given))) {
                throw new IllegalArgumentException(name + " executable " + given + " does not exist or cannot be run");
            }
            try {
                return TrustedPrograms.check(Path.of(given), name + " executable").toString();
            } catch (IOException e) {
                throw new IllegalArgumentException(name + " executable " + given + " cannot be checked: " + e.getMessage(), e);
            }
        }
        return TrustedPrograms.find(name).map(Path::toString).orElseThrow(() -> new IllegalArgumentException(name
                + " is not installed (not in " + TrustedPrograms.PATH + ", where PRISM takes programs from): " + install
                + ", or give its path with -p " + name + "=/path/to/" + name));
    }

    /** @return null when {@code name} is in {@link TrustedPrograms#PATH}, else that it is not installed and how to install it */
    public static String missing(String name, String install) {
        try {
            resolve(name, "", install);
            return null;
        } catch (IllegalArgumentException e) {
            return name + " is not installed (" + install + ")";
        }
    }

    /**
     * {@link #resolve}s {@code name} and notes its version ({@code name --version}) on {@code ctx}: what every
     * benchmark that runs an external program does first.
     *
     * @return the executable
     */
    public static String require(WorkloadContext ctx, String name, String given, String install) {
        String executable = resolve(name, given, install);
        noteVersion(ctx, name, List.of(executable, "--version"));
        return executable;
    }

    /** Runs {@code program --version} (or {@code versionArgs}) and notes the first line under {@code name}. */
    public static void noteVersion(WorkloadContext ctx, String name, List<String> command) {
        try {
            Result r = run(command, null, Map.of(), Duration.ofSeconds(30));
            String first = (r.stdout + r.stderr).strip().split("\n")[0];
            ctx.noteProgram(name, first);
        } catch (RuntimeException e) {
            ctx.noteProgram(name, "unknown (" + e.getMessage() + ")");
        }
    }

    /** What a program printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** Runs {@code command} in {@code directory}, failing with the tail of its stderr unless it exits 0. */
    public static Result check(List<String> command, Path directory, Map<String, String> environment, Duration timeout) {
        return check(command, command, directory, environment, timeout);
    }

    /**
     * As {@link #check(List, Path, Map, Duration)}, running {@code run} (the program wrapped, e.g. placed into a tracer's
     * cgroup) while messages name {@code command}, the program as the user knows it.
     */
    public static Result check(List<String> run, List<String> command, Path directory, Map<String, String> environment,
                               Duration timeout) {
        Result r = run(run, command, directory, environment, timeout);
        if (r.exitCode != 0) {
            throw new PrismException(String.join(" ", command) + " exited with code " + r.exitCode
                    + (r.stderr.isBlank() ? "" : "; its stderr ends: " + tail(r.stderr.strip())));
        }
        return r;
    }

    /** Runs {@code command}; never waits past {@code timeout} (the process tree is killed then). */
    public static Result run(List<String> command, Path directory, Map<String, String> environment, Duration timeout) {
        return run(command, command, directory, environment, timeout);
    }

    private static Result run(List<String> run, List<String> command, Path directory, Map<String, String> environment,
                              Duration timeout) {
        // stdout is parsed (fio's JSON): keep all of it up to 16 MiB; of stderr only the end matters
        ChildProcess.Result r;
        try {
            r = ChildProcess.of(run).directory(directory).environment(environment).timeout(timeout)
                    .keepStdout(16 << 20).keepStderr(TAIL).run();
        } catch (java.io.InterruptedIOException e) {
            throw new PrismException("interrupted while running " + command.get(0), e);
        } catch (IOException e) {
            throw new PrismException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        }
        if (r.timedOut()) {
            throw new PrismException(String.join(" ", command) + " did not finish within " + timeout.toSeconds()
                    + "s and was killed");
        }
        return new Result(r.exitCode(), r.stdout(), r.stderr());
    }

    public static String tail(String text) {
        return text.length() <= TAIL ? text : "…" + text.substring(text.length() - TAIL);
    }

    /** @return {@code a} followed by {@code rest} */
    public static List<String> command(String a, String... rest) {
        List<String> c = new ArrayList<>();
        c.add(a);
        c.addAll(List.of(rest));
        return c;
    }
}
