package dev.prism.torch;

import dev.prism.SlurmEnvironment;
import dev.prism.spi.ChildProcess;
import dev.prism.spi.PythonInterpreter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a Python script under {@code python -m torch.distributed.run} (never whatever {@code torchrun}
 * is on PATH): processes per node, nodes and rendezvous endpoint for multi-node use under SLURM,
 * environment ({@code OMP_NUM_THREADS}), timeout. Output is drained and its tail kept; a failure
 * raises {@link TorchException} with the exit code and that tail. Immutable once built.
 *
 * <p>On one node torchrun meets its workers on loopback. With {@link Builder#nodes(int) nodes} above 1,
 * PRISM runs inside a SLURM allocation (an {@code sbatch} script or {@code salloc}) and starts one
 * torchrun agent per node with {@code srun --nodes=N --ntasks=N --ntasks-per-node=1 --kill-on-bad-exit=1};
 * the agents meet through torch's c10d rendezvous on the first node of {@code SLURM_JOB_NODELIST}
 * (or the endpoint given), and the checkpoint and results lie on the target, which every node shares.
 * torchrun's own logs go to {@code torchrun-logs} beside the script (each agent its own directory in it), never
 * to the temporary directory torchrun would otherwise make and leave behind.
 *
 * <pre>{@code
 * import dev.prism.torch.TorchRun;
 * import java.time.Duration;
 *
 * var torchrun = TorchRun.builder().ompThreads(1).timeout(Duration.ofMinutes(5)).build();
 * System.out.println(torchrun.python());
 * }</pre>
 */
public final class TorchRun {
    /** The oldest torch PRISM's scripts work with (FSDP2 and DCP as they use them). */
    public static final String MINIMUM_TORCH = "2.4";
    private static final int TAIL_BYTES = 16 * 1024;

    private final Path python;
    private final int nodes;
    private final String rendezvousEndpoint;
    private final Map<String, String> environment;
    private final Duration timeout;
    private final List<String> srunOptions;

    private TorchRun(Builder b) {
        // a relative path with a directory in it is made absolute now: torchrun starts in the run's own directory
        Path chosen = b.python != null ? b.python : defaultPython();
        this.python = !chosen.isAbsolute() && chosen.getNameCount() > 1 ? chosen.toAbsolutePath().normalize() : chosen;
        this.nodes = b.nodes;
        this.rendezvousEndpoint = b.rendezvousEndpoint;
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(b.environment));
        this.timeout = b.timeout;
        this.srunOptions = List.copyOf(b.srunOptions);
    }

    /** @return a builder holding this TorchRun's settings, to change some of them */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.python = python;
        b.nodes = nodes;
        b.rendezvousEndpoint = rendezvousEndpoint;
        b.environment.clear();
        b.environment.putAll(environment);
        b.timeout = timeout;
        b.srunOptions.addAll(srunOptions);
        return b;
    }

    /** @return a builder with the defaults: PRISM_PYTHON, else the project's .venv, else /usr/bin/python3; 1 node; 1 OpenMP thread */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return {@code $PRISM_PYTHON}, else the project's {@code .venv/bin/python} under {@code prism.home}, else
     *         {@code /usr/bin/python3}: {@link PythonInterpreter#defaultPath()}
     */
    public static Path defaultPython() {
        return PythonInterpreter.defaultPath();
    }

    /** @return the interpreter */
    public Path python() {
        return python;
    }

    /** @return nodes in the job (each runs one torchrun) */
    public int nodes() {
        return nodes;
    }

    /** @return how long a run may take */
    public Duration timeout() {
        return timeout;
    }

    /** @return the workers' extra environment, {@code OMP_NUM_THREADS} among it */
    public Map<String, String> environment() {
        return environment;
    }

    /** @return the c10d rendezvous endpoint given, if one was */
    public Optional<String> rendezvousEndpoint() {
        return Optional.ofNullable(rendezvousEndpoint);
    }

    /** @return options added to the {@code srun} that starts one agent per node (with more than one node) */
    public List<String> srunOptions() {
        return srunOptions;
    }

    /**
     * @return why this interpreter cannot run the torch benchmarks (no interpreter, no torch, too old a torch), or
     *         empty when it can: what a test or a tool asks before it runs one, e.g. to skip
     */
    public java.util.Optional<String> torchMissing() {
        try {
            checkTorch();
            return java.util.Optional.empty();
        } catch (TorchException e) {
            return java.util.Optional.of(e.getMessage());
        }
    }

    /**
     * @return torch's version in the interpreter
     * @throws TorchException saying what is missing: the interpreter, torch, or a new enough torch
     */
    public String checkTorch() {
        String version = checkPackage("torch");
        if (!atLeast(version, MINIMUM_TORCH)) {
            throw new TorchException(python + " has torch " + version + "; PRISM's checkpoint benchmarks need torch >= "
                    + MINIMUM_TORCH + " (FSDP2 and torch.distributed.checkpoint)", -1);
        }
        return version;
    }

    /**
     * @param distribution a Python distribution's name, e.g. {@code transformers}
     * @return its installed version in the interpreter
     * @throws TorchException saying what is missing: the interpreter or the distribution
     */
    public String checkPackage(String distribution) {
        Outcome o;
        try {
            // the installed distribution's metadata answers in milliseconds; importing torch takes seconds
            o = execute(List.of(python.toString(), PythonInterpreter.ISOLATED, "-c", "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))",
                    distribution), Duration.ofSeconds(120), Map.of());
        } catch (IOException e) {
            throw new TorchException("cannot run " + python + " (" + e.getMessage() + "): set PRISM_PYTHON to a Python"
                    + " with torch >= " + MINIMUM_TORCH + ", or create the project's .venv with scripts/python-venv.sh", -1);
        }
        if (o.exitCode != 0) {
            throw new TorchException(python + " has no " + distribution + " (" + lastLine(o.output) + "): install it"
                    + (distribution.equals("torch") ? " (torch >= " + MINIMUM_TORCH + ")" : "")
                    + " into it, or run scripts/python-venv.sh", o.exitCode);
        }
        return o.output.strip();
    }

    /** @return whether version {@code v} (e.g. 2.13.0+cpu) is at least {@code minimum} (e.g. 2.4) */
    static boolean atLeast(String v, String minimum) {
        String[] a = v.split("[.+a-z]");
        String[] b = minimum.split("\\.");
        for (int i = 0; i < b.length; i++) {
            int x = i < a.length && a[i].matches("\\d+") ? Integer.parseInt(a[i]) : 0;
            int y = Integer.parseInt(b[i]);
            if (x != y) {
                return x > y;
            }
        }
        return true;
    }

    /**
     * Runs {@code script} with {@code processesPerNode} workers on each node: on this one, or with more
     * than one node on each node of the SLURM allocation, one torchrun agent per node started by srun.
     *
     * @return the output's tail and timing
     * @throws TorchException when torchrun exits non-zero or passes the timeout, with the tail of its output
     */
    public Outcome run(Path script, List<String> scriptArguments, int processesPerNode, Path workingDirectory) {
        return run(script, scriptArguments, processesPerNode, workingDirectory, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #run(Path, List, int, Path)}, the command line passed through {@code wrapping} first (a tracer places
     * the whole tree in a cgroup of its own this way).
     */
    public Outcome run(Path script, List<String> scriptArguments, int processesPerNode, Path workingDirectory,
                       java.util.function.UnaryOperator<List<String>> wrapping) {
        List<String> command = wrapping.apply(command(script, scriptArguments, processesPerNode, System.getenv()));
        Outcome o;
        try {
            o = execute(command, timeout, environmentFor(script, System.getenv()), workingDirectory);
        } catch (IOException e) {
            throw new TorchException("cannot start " + (nodes > 1 ? "srun" : python + " -m torch.distributed.run") + ": "
                    + e.getMessage(), -1);
        }
        if (o.timedOut) {
            throw new TorchException("torchrun passed its timeout of " + timeout.toSeconds() + "s and was stopped;"
                    + " its output ends:\n" + o.output, -1);
        }
        if (o.exitCode != 0) {
            throw new TorchException("torchrun exited with code " + o.exitCode + "; its output ends:\n" + o.output, o.exitCode);
        }
        return o;
    }

    /**
     * @return the command line that runs {@code script}: torchrun alone on one node, torchrun under
     *         {@code srun} with more, the rendezvous taken from {@code env}'s SLURM allocation unless given
     * @throws TorchException when more than one node is asked for outside a SLURM allocation with no endpoint
     */
    List<String> command(Path script, List<String> scriptArguments, int processesPerNode, Map<String, String> env) {
        List<String> command = new ArrayList<>();
        if (nodes > 1) {
            // --chdir=/: srun would send its working directory's name for each node's slurmstepd to change to as
            // root; PRISM's opener changes there through the descriptor it holds (TorchRunLauncher)
            command.addAll(List.of("srun", "--nodes=" + nodes, "--ntasks=" + nodes, "--ntasks-per-node=1",
                    "--kill-on-bad-exit=1", "--job-name=prism-torchrun", "--chdir=/"));
            command.addAll(srunOptions);
        }
        // the agent and every worker run isolated (-I): torchrun would start the workers as plain 'python -u', so it is
        // told the workers' whole command (--no-python) and PRISM's scripts put their own directory on sys.path
        command.addAll(List.of(python.toString(), PythonInterpreter.ISOLATED, "-m", "torch.distributed.run",
                "--nnodes", String.valueOf(nodes), "--nproc-per-node", String.valueOf(processesPerNode)));
        if (nodes == 1 && rendezvousEndpoint == null) {
            command.addAll(List.of("--rdzv-backend", "c10d", "--rdzv-endpoint", "127.0.0.1:0", "--local-addr", "127.0.0.1"));
        } else {
            String job = env.getOrDefault("SLURM_JOB_ID", "0");
            command.addAll(List.of("--rdzv-backend", "c10d", "--rdzv-endpoint", endpoint(env, job),
                    "--rdzv-id", "prism-" + job + "-" + Long.toHexString(System.nanoTime())));
        }
        // torchrun keeps its agents' logs in a fresh temporary directory (/tmp/torchelastic_*) that nothing removes;
        // named, they stay beside the script, in the run's own directory, and go with it
        command.addAll(List.of("--log-dir", logDirectory(script).toString()));
        command.addAll(List.of("--no-python", python.toString(), PythonInterpreter.ISOLATED, "-u", script.toString()));
        command.addAll(scriptArguments);
        return command;
    }

    /**
     * @return the workers' environment: this run's, and, unless it or {@code inherited} names one, torch's compiler
     *         cache beside {@code script} ({@code torchinductor-cache}, in the run's own directory): left to itself,
     *         torch makes {@code $TMPDIR/torchinductor_<user>} on some imports (a traced ddp_save did) and nothing
     *         removes it
     */
    Map<String, String> environmentFor(Path script, Map<String, String> inherited) {
        if (environment.containsKey(INDUCTOR_CACHE) || inherited.containsKey(INDUCTOR_CACHE)) {
            return environment;
        }
        Map<String, String> env = new java.util.LinkedHashMap<>(environment);
        env.put(INDUCTOR_CACHE, script.toAbsolutePath().resolveSibling("torchinductor-cache").toString());
        return env;
    }

    /** torch's variable naming its compiler's cache directory */
    static final String INDUCTOR_CACHE = "TORCHINDUCTOR_CACHE_DIR";

    /** @return where torchrun's agents keep their logs: {@code torchrun-logs} beside {@code script} */
    static Path logDirectory(Path script) {
        return script.toAbsolutePath().resolveSibling("torchrun-logs");
    }

    /**
     * @return the endpoint given, else the allocation's first node (where an sbatch script runs) on a port derived
     *         from the job id: consecutive jobs never share it, and no kernel-chosen port is ever it
     */
    private String endpoint(Map<String, String> env, String job) {
        if (rendezvousEndpoint != null) {
            return rendezvousEndpoint;
        }
        String nodeList = env.get("SLURM_JOB_NODELIST");
        if (nodeList == null || nodeList.isBlank()) {
            throw new TorchException("torchrun on " + nodes + " nodes runs inside a SLURM allocation (sbatch or salloc),"
                    + " which SLURM_JOB_NODELIST is not set for; or give a rendezvousEndpoint", -1);
        }
        long id;
        try {
            id = Long.parseLong(job.trim());
        } catch (NumberFormatException e) {
            id = job.hashCode();
        }
        // 10000-29999, below the kernel's ephemeral ports (32768 and up), where PRISM's coordinators listen
        return SlurmEnvironment.firstHost(nodeList) + ":" + (10_000 + Math.floorMod(id, 20_000));
    }

    /** What a run printed (its last 16 KiB), how it ended and how long it took. */
    public record Outcome(int exitCode, boolean timedOut, String output, long wallNanos) {
    }

    private static Outcome execute(List<String> command, Duration timeout, Map<String, String> env) throws IOException {
        return execute(command, timeout, env, null);
    }

    private static Outcome execute(List<String> command, Duration timeout, Map<String, String> env, Path dir)
            throws IOException {
        // SIGTERM lets torchrun stop its workers; SIGKILL would orphan them: escalate only after a grace period
        ChildProcess.Result r = ChildProcess.of(command).environment(env).directory(dir).timeout(timeout)
                .terminateGrace(Duration.ofSeconds(10)).mergeErrors().keepStdout(TAIL_BYTES).run();
        return new Outcome(r.exitCode(), r.timedOut(), r.stdout(), r.wallNanos());
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }

    /** Builds a {@link TorchRun}; each setter checks its argument at once. */
    public static final class Builder {
        private Path python;
        private int nodes = 1;
        private String rendezvousEndpoint;
        private final Map<String, String> environment = new LinkedHashMap<>(Map.of("OMP_NUM_THREADS", "1"));
        private Duration timeout = Duration.ofMinutes(30);
        private final List<String> srunOptions = new ArrayList<>();

        private Builder() {
        }

        /** @param python the interpreter with torch */
        public Builder python(Path python) {
            this.python = Objects.requireNonNull(python, "python");
            return this;
        }

        /** @param nodes nodes in the job, 1..100000 (more than 1 needs a rendezvous endpoint) */
        public Builder nodes(int nodes) {
            if (nodes < 1 || nodes > 100_000) {
                throw new IllegalArgumentException("nodes must be in 1..100000, was " + nodes);
            }
            this.nodes = nodes;
            return this;
        }

        /** @param endpoint host:port of the c10d rendezvous, e.g. the first SLURM node and 29500 */
        public Builder rendezvousEndpoint(String endpoint) {
            if (endpoint == null || !endpoint.matches("[^:\\s]+:\\d{1,5}")) {
                throw new IllegalArgumentException("rendezvousEndpoint must be host:port, was " + endpoint);
            }
            this.rendezvousEndpoint = endpoint;
            return this;
        }

        /** @param threads OMP_NUM_THREADS for each worker, 1..1024 */
        public Builder ompThreads(int threads) {
            if (threads < 1 || threads > 1024) {
                throw new IllegalArgumentException("ompThreads must be in 1..1024, was " + threads);
            }
            environment.put("OMP_NUM_THREADS", String.valueOf(threads));
            return this;
        }

        /** @param name an environment variable for the workers @param value its value */
        public Builder environment(String name, String value) {
            environment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** @param timeout how long a run may take, 1s..7 days */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofDays(7)) > 0) {
                throw new IllegalArgumentException("timeout must be in 1s..7 days, was " + (timeout == null ? "null" : dev.prism.spi.Formats.exactDuration(timeout)));
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param options added to the {@code srun} that starts one agent per node when there is more than
         *                one node, after PRISM's own (so a later {@code --nodes=} or {@code --ntasks-per-node=}
         *                wins), e.g. {@code --partition=gpu} or {@code --gpus-per-node=8}
         */
        public Builder srunOptions(String... options) {
            for (String option : options) {
                if (option == null || !option.startsWith("-")) {
                    throw new IllegalArgumentException("srunOptions must be srun options starting with '-', was " + option);
                }
            }
            srunOptions.clear();
            srunOptions.addAll(List.of(options));
            return this;
        }

        /** @return the TorchRun */
        public TorchRun build() {
            return new TorchRun(this);
        }
    }
}
