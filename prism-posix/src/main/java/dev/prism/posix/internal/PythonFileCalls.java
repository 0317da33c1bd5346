package dev.prism.posix.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.PrismException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.spi.PythonInterpreter;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The timed file calls of create_files, list_files, move_files, delete_files and md5_check made through Python's
 * interfaces ({@link Access#PYTHON}: open and os.*, {@link Access#FSSPEC}: fsspec's local filesystem) by a worker
 * process of this rank ({@code prism_files.py}, passed to the interpreter as its program text: nothing is written).
 * Started in setup, where Python starts and imports; each request's calls are timed in Python, one by one, and come
 * back as samples recorded under the same operation names the Java ranks use. A failed call fails the request naming
 * call, path and errno. The worker reads requests from a pipe: it ends when the rank closes it, or dies.
 */
public final class PythonFileCalls implements AutoCloseable {
    /** Files a rehearsal's request works on: enough for Python's first calls and fsspec's caches to be behind it */
    public static final int REHEARSAL_FILES = 200;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SCRIPT = script();

    private final Process process;
    private final BufferedWriter requests;
    private final BufferedReader answers;
    private final String access;
    private final dev.prism.spi.OutputTail errors;

    private PythonFileCalls(Process process, String access) {
        this.process = process;
        this.access = access;
        this.errors = new dev.prism.spi.OutputTail(process.getErrorStream(), 4096, "prism-python-files-stderr");
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private static String script() {
        try (InputStream in = PythonFileCalls.class.getResourceAsStream("/dev/prism/posix/prism_files.py")) {
            if (in == null) {
                throw new IllegalStateException("prism_files.py is missing from the prism-posix jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read prism_files.py from the prism-posix jar", e);
        }
    }

    /**
     * Starts this rank's worker and waits until it has imported what it needs; notes the interpreter's and fsspec's
     * versions.
     *
     * @throws IllegalArgumentException where the run asks what a Python worker does not do (a time-based run,
     *                                  continue-on-error)
     * @throws PrismException           when the worker cannot start (no such Python, no fsspec in it), saying how to get it
     */
    public static PythonFileCalls start(WorkloadContext ctx, Access access) {
        String name = access.name().toLowerCase(Locale.ROOT);
        if (ctx.timeBased()) {
            throw new IllegalArgumentException("access=" + name + " runs the benchmark's fixed amount of work: --duration"
                    + " is for access=native or nio");
        }
        if (ctx.continueOnError()) {
            throw new IllegalArgumentException("access=" + name + " stops at the first failed call:"
                    + " --continue-on-error is for access=native or nio");
        }
        Path python = PythonInterpreter.defaultPath();
        // the worker starts in the run directory the rank holds (/proc/<pid>/fd/N, resolved once, at its start) and
        // reaches every path beneath it from there, relative: renaming the run directory or a directory above it and
        // putting a link in its place changes nothing it touches; the paths it names stay the rank's absolute ones
        dev.prism.spi.HeldDirectory run = ctx.heldRunDirectory();
        String base = run == null ? "" : run.path().toAbsolutePath().normalize().toString();
        Process p;
        try {
            // isolated (-I), from a fixed owner-checked path, with the allowlisted environment (no credential of PRISM's)
            ProcessBuilder builder = new ProcessBuilder(dev.prism.spi.TrustedPrograms.resolve(
                    PythonInterpreter.command(python, "-c", SCRIPT, name, base))).redirectError(ProcessBuilder.Redirect.PIPE);
            if (run != null) {
                builder.directory(run.childPath().toFile());
            }
            builder.environment().clear();
            builder.environment().putAll(dev.prism.spi.TrustedPrograms.environment());
            p = builder.start();
        } catch (IOException e) {
            throw new PrismException("access=" + name + " needs Python: cannot run " + python + ": " + e.getMessage()
                    + " (scripts/python-venv.sh makes the project's .venv, or set PRISM_PYTHON)", e);
        }
        PythonFileCalls worker = new PythonFileCalls(p, name);
        JsonNode ready = worker.answer();
        if (ready == null || !ready.has("ready")) {
            String err = worker.stderrTail();
            worker.close();
            throw new PrismException("access=" + name + ": the Python worker (" + python + ") did not start"
                    + (err.contains("No module named 'fsspec'") ? ": fsspec is not installed there (scripts/python-venv.sh"
                    + " installs it into the project's .venv)" : err.isBlank() ? "" : ": " + err));
        }
        ctx.noteProgram("python", ready.path("python").asText());
        if (access == Access.FSSPEC) {
            ctx.noteProgram("fsspec", ready.path("fsspec").asText());
        }
        return worker;
    }

    private static final Map<Access, String> MISSING = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @return null when this machine's Python can run {@code access}'s worker (and, for fsspec, imports fsspec), else
     *         what it lacks and how to get it; asked once per JVM
     */
    public static String missing(Access access) {
        return MISSING.computeIfAbsent(access, a -> {
            Path python = PythonInterpreter.defaultPath();
            String probe = a == Access.FSSPEC ? "import fsspec" : "import os";
            try {
                var r = dev.prism.spi.ChildProcess.of(PythonInterpreter.command(python, "-c", probe))
                        .timeout(java.time.Duration.ofMinutes(1)).run();
                return r.exitCode() == 0 ? "" : (a == Access.FSSPEC ? "fsspec is not installed in " + python
                        : python + " does not run") + " (scripts/python-venv.sh makes the project's .venv with it)";
            } catch (IOException e) {
                return "no Python: cannot run " + python + ": " + e.getMessage() + " (scripts/python-venv.sh makes the project's .venv)";
            }
        }).transform(m -> m.isEmpty() ? null : m);
    }

    /** Runs {@code request} in the worker, its calls a rehearsal: nothing is recorded. */
    public JsonNode rehearse(Map<String, Object> request) {
        return exchange(request, null);
    }

    /**
     * Runs {@code request} in the worker and records each call it timed into {@code ctx}, with the bytes moved.
     *
     * @return what the request found ({@code listed}, {@code digests}…)
     * @throws PrismException naming the call, path and errno that failed
     */
    public JsonNode run(WorkloadContext ctx, Map<String, Object> request) {
        return exchange(request, ctx);
    }

    private JsonNode exchange(Map<String, Object> request, WorkloadContext ctx) {
        JsonNode answer;
        try {
            requests.write(MAPPER.writeValueAsString(request));
            requests.newLine();
            requests.flush();
        } catch (IOException e) {
            throw new PrismException("access=" + access + ": the Python worker has gone: " + stderrTail(), e);
        }
        answer = answer();
        if (answer == null) {
            throw new PrismException("access=" + access + ": the Python worker ended without answering: " + stderrTail());
        }
        if (ctx != null) {
            answer.path("samples").fields().forEachRemaining(op -> op.getValue().forEach(ns -> ctx.record(op.getKey(), ns.asLong())));
            answer.path("bytes").fields().forEachRemaining(op -> ctx.addBytes(op.getKey(), op.getValue().asLong()));
        }
        if (answer.has("error")) {
            throw new PrismException(answer.path("error").asText());
        }
        return answer.path("result");
    }

    private JsonNode answer() {
        try {
            String line = answers.readLine();
            return line == null ? null : MAPPER.readTree(line);
        } catch (IOException e) {
            return null;
        }
    }

    /** @return the last line the worker wrote on stderr once it has ended (its traceback's last line) */
    private String stderrTail() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                errors.await(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> lines = errors.text().strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** Ends {@code worker} when there is one ({@link #close()}): what a rank's teardown does. */
    public static void close(PythonFileCalls worker) {
        if (worker != null) {
            worker.close();
        }
    }

    /** Ends the worker: its requests pipe closes, and it is killed if it has not gone within 5 s. */
    @Override
    public void close() {
        try {
            requests.close();
        } catch (IOException e) {
            // it has gone already
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
