package dev.prism.torch.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.DataSize;
import dev.prism.Failure;
import dev.prism.LatencyRecorder;
import dev.prism.Launcher;
import dev.prism.Measurement;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.Status;
import dev.prism.spi.RankDocuments;
import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchException;
import dev.prism.torch.TorchRun;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a {@link TorchBenchmark} with torchrun, one process per rank, and reads each rank's
 * {@code prism.torchrank/1} document into the same {@link RankResult}s every other launcher returns.
 * The script is extracted from the jar into the run directory; the checkpoint lives there too.
 */
public final class TorchRunLauncher implements Launcher {
    private static final String SCRIPT = "prism_torch_bench.py";
    /** The script and the modules it imports (a preset's shards, the Python attribution), copied side by side */
    private static final List<String> SCRIPTS = List.of(SCRIPT, "prism_shards.py", "prism_dcp_job.py", "prism_interpose.py",
            "prism_formats.py");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The torch job's directory in the run directory, and the one of its rank documents in it */
    private static final String TORCH = "torch";
    private static final String RANKS = "ranks";
    /** Where the job's paths begin on more than one node, until each node's opener points them at its descriptor */
    static final String HELD_PLACEHOLDER = "/.prism-held-run-directory";
    /** The file in the torch directory whose content proves to each node's opener that it opened this run's directory */
    private static final String NODE_TOKEN = "node-token";
    /** The opener each node's torchrun runs behind (its code, given to Python with -c: no file is reached by name) */
    private static final String NODE_OPENER = "prism_node_opener.py";
    /** The most a rank's document may hold: its samples, a few bytes each, for millions of operations */
    private static final long MAX_RANK_DOCUMENT = 512L << 20;

    /** The run directory and the job's directories in it, each held by its descriptor for the whole torch job. */
    private static final class HeldRun implements AutoCloseable {
        private final List<dev.prism.spi.HeldDirectory> opened = new ArrayList<>();
        final dev.prism.spi.HeldDirectory run;
        final dev.prism.spi.HeldDirectory torch;
        final dev.prism.spi.HeldDirectory ranks;
        final dev.prism.spi.HeldDirectory checkpoint;

        private HeldRun(RunPlan plan, String benchmark) throws IOException {
            try {
                run = keep(dev.prism.spi.HeldDirectory.openRun(plan.runDirectory(), plan.runId()));
                torch = keep(run.makeOrKeepDirectory(TORCH, 0755));
                ranks = keep(torch.makeOrKeepDirectory(RANKS, 0755));
                checkpoint = keep(keep(run.makeOrKeepDirectory("shared", 0755)).makeOrKeepDirectory(benchmark, 0755));
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
        }

        static HeldRun open(RunPlan plan, String benchmark) throws IOException {
            return new HeldRun(plan, benchmark);
        }

        private dev.prism.spi.HeldDirectory keep(dev.prism.spi.HeldDirectory directory) {
            opened.add(directory);
            return directory;
        }

        @Override
        public void close() {
            for (int i = opened.size() - 1; i >= 0; i--) {
                opened.get(i).close();
            }
        }
    }

    private final TorchRun torchRun;
    private String checkedTorch;

    public TorchRunLauncher(TorchRun torchRun) {
        this.torchRun = torchRun;
    }

    @Override
    public String name() {
        return torchRun.nodes() > 1 ? "torchrun+srun" : "torchrun";
    }

    @Override
    public List<RankResult> launch(RunPlan plan) {
        if (!(plan.benchmark() instanceof TorchBenchmark benchmark)) {
            throw new PrismException("the torchrun launcher runs torch benchmarks only, not " + plan.benchmark().name());
        }
        // a task count the nodes cannot share evenly never gets here: TorchBenchmark.footprint refuses it when the
        // scenario is built, and the runner asks it again before any work
        int nodes = torchRun.nodes();
        if (checkedTorch == null) {
            checkedTorch = torchRun.checkTorch();
        }
        // the run directory is held by its descriptor (checked: this user's, not a link), and the torch job reaches it
        // through a descriptor, never by its name, whatever another user renames above it
        try (HeldRun held = HeldRun.open(plan, benchmark.name())) {
            return launch(plan, benchmark, nodes, held);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new PrismException("run directory " + plan.runDirectory() + " " + (e.getReason() != null ? e.getReason()
                    : "cannot be entered") + "; torchrun is not started", e);
        } catch (IOException e) {
            throw new PrismException("could not prepare " + plan.runDirectory().resolve(TORCH) + " for torchrun: "
                    + dev.prism.spi.Errno.describe(e), e);
        }
    }

    private List<RankResult> launch(RunPlan plan, TorchBenchmark benchmark, int nodes, HeldRun held) throws IOException {
        for (String name : SCRIPTS) {
            try (InputStream in = TorchRunLauncher.class.getResourceAsStream("/dev/prism/torch/" + name)) {
                if (in == null) {
                    throw new PrismException(name + " is missing from the prism-torch jar");
                }
                held.torch.writeAtomically(name, in.readAllBytes(), 0644);
            }
        }
        // what the job is given: the run directory through the descriptor held for it — this JVM's on one node; on
        // more, the one each node's opener holds (prism_node_opener.py: it opens the run directory there, checks it
        // holds this job's token, and puts /proc/<pid>/fd/N where the placeholder is)
        String token = null;
        Path base = held.run.childPath();
        if (nodes > 1) {
            byte[] random = new byte[16];
            new java.security.SecureRandom().nextBytes(random);
            token = java.util.HexFormat.of().formatHex(random);
            held.torch.writeAtomically(NODE_TOKEN, token.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0600);
            base = Path.of(HELD_PLACEHOLDER);
        }
        Path work = base.resolve(TORCH);
        Path out = work.resolve(RANKS);
        Path checkpoint = base.resolve("shared").resolve(benchmark.name());
        Path script = work.resolve(SCRIPT);
        String syscalls = TorchAttribution.mode(benchmark, nodes);
        Duration left = Duration.between(Instant.now(), plan.deadline());
        TorchRun bounded = left.compareTo(torchRun.timeout()) < 0 && left.toSeconds() >= 1
                ? torchRun.toBuilder().timeout(left).build() : torchRun;
        String failure = null;
        boolean timedOut = false;
        // an interruption (SIGINT, SIGTERM) stops torchrun and its workers instead of waiting for the job
        Thread launching = Thread.currentThread();
        // the kernel trace attaches before torchrun starts (seconds, untimed: the ranks time their own blocks)
        TorchAttribution attribution = syscalls.equals("kernel") ? TorchAttribution.start(plan) : null;
        try (dev.prism.Interruption.Registration stop = plan.interruption().onInterrupt(launching::interrupt)) {
            java.util.function.UnaryOperator<List<String>> traced = attribution == null
                    ? java.util.function.UnaryOperator.identity() : attribution::wrap;
            String kept = token;
            java.util.function.UnaryOperator<List<String>> wrapping = nodes == 1 ? traced
                    : command -> traced.apply(throughNodeOpener(command, torchRun.python(), plan.runDirectory(), kept));
            bounded.run(script, arguments(benchmark, out, checkpoint, syscalls), plan.tasks() / nodes,
                    held.torch.childPath(), wrapping);
        } catch (TorchException e) {
            failure = plan.interruption().isInterrupted() ? "torchrun was stopped: interrupted by "
                    + plan.interruption().reason().orElse("?") : e.getMessage();
            timedOut = e.exitCode() == -1 && e.getMessage().contains("timeout");
        } catch (RuntimeException e) {
            if (attribution != null) {
                attribution.close();
            }
            throw e;
        } finally {
            if (plan.interruption().isInterrupted()) {
                Thread.interrupted(); // the interrupt was for torchrun; clean-up and reporting go on
            }
        }
        List<RankResult> results = new ArrayList<>();
        for (int rank = 0; rank < plan.tasks(); rank++) {
            String doc = "rank-" + rank + ".json";
            RankResult result;
            if (held.ranks.exists(doc)) {
                result = ingest(held.ranks, doc);
            } else {
                Failure.Kind kind = timedOut ? Failure.Kind.TIMEOUT : Failure.Kind.EXCEPTION;
                String why = (failure != null ? failure : "torchrun ended without it") + (nodes > 1
                        ? " (torch across nodes runs its script from " + held.torch.path() + " and writes the checkpoint and every rank's"
                        + " document there: is the target on a filesystem all " + nodes + " nodes share? A node-local"
                        + " target cannot serve them)" : "");
                result = new RankResult(rank, "?", Status.FAIL, new Failure(kind, "rank " + rank + " wrote no result: " + why,
                        rank), 0, Map.of(), Map.of(), List.of());
            }
            results.add(result);
        }
        if (attribution != null) {
            try (attribution) {
                results = attribution.attribute(results, held.ranks);
            }
        }
        results.forEach(r -> RankDocuments.write(plan, r));
        return results;
    }

    /**
     * @return {@code command} (srun's, starting torchrun on each node) with each node's {@code python} first running
     *         the opener that holds the run directory there and hands torchrun its descriptor's path
     */
    static List<String> throughNodeOpener(List<String> command, Path python, Path runDirectory, String token) {
        int at = command.indexOf(python.toString());
        if (at < 0) {
            throw new IllegalStateException("torchrun's command does not start " + python + ": " + command);
        }
        String code;
        try (InputStream in = TorchRunLauncher.class.getResourceAsStream("/dev/prism/torch/" + NODE_OPENER)) {
            if (in == null) {
                throw new PrismException(NODE_OPENER + " is missing from the prism-torch jar");
            }
            code = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PrismException("could not read " + NODE_OPENER + " from the prism-torch jar: " + e.getMessage(), e);
        }
        List<String> wrapped = new ArrayList<>(command.subList(0, at + 1));
        wrapped.addAll(List.of(dev.prism.spi.PythonInterpreter.ISOLATED, "-c", code,
                runDirectory.toAbsolutePath().normalize().toString(), token, "--"));
        wrapped.addAll(command.subList(at, command.size()));
        return wrapped;
    }

    /** @return the script's arguments: where to write, then every parameter of the benchmark as {@code --name value}, but nodes */
    static List<String> arguments(TorchBenchmark b, Path out, Path shared) {
        return arguments(b, out, shared, "off");
    }

    /** As {@link #arguments(TorchBenchmark, Path, Path)}, telling the script which attribution serves it */
    static List<String> arguments(TorchBenchmark b, Path out, Path shared, String syscalls) {
        List<String> arguments = new ArrayList<>(List.of("--benchmark", b.name(), "--out", out.toString(),
                "--shared-dir", shared.toString()));
        Parameters p = b.parameters();
        for (Parameter<?> parameter : p.declared()) {
            if (parameter == TorchBenchmark.NODES) {
                continue; // torchrun's, which starts an agent per node; the script's ranks do not ask
            }
            arguments.add("--" + parameter.name().replace('_', '-'));
            arguments.add(parameter == TorchBenchmark.SYSCALLS ? syscalls : scriptValue(p.get(parameter)));
        }
        return arguments;
    }

    /** @return a value as the script reads it: sizes in bytes, enum constants in lower case */
    private static String scriptValue(Object value) {
        if (value instanceof DataSize size) {
            return String.valueOf(size.bytes());
        }
        if (value instanceof Enum<?> constant) {
            return constant.name().toLowerCase(Locale.ROOT);
        }
        return String.valueOf(value);
    }

    /** @return a torch rank's document as a RankResult (see {@link #ingest(JsonNode)}) */
    static RankResult ingest(Path document) {
        try {
            return ingest(MAPPER.readTree(document.toFile()));
        } catch (IOException e) {
            throw new PrismException(document + " is not a readable prism.torchrank/1 document: " + e.getMessage(), e);
        }
    }

    /** @return the rank document {@code name} in {@code ranks}, read once through that directory, as a RankResult */
    static RankResult ingest(dev.prism.spi.HeldDirectory ranks, String name) {
        try (InputStream in = ranks.openInput(name, MAX_RANK_DOCUMENT, "torch rank document")) {
            return ingest(MAPPER.readTree(in));
        } catch (IOException | IllegalArgumentException e) {
            throw new PrismException(ranks.path().resolve(name) + " is not a readable prism.torchrank/1 document: "
                    + e.getMessage(), e);
        }
    }

    /** @return a torch rank's document as a RankResult: each phase an operation, its bytes, its counters */
    private static RankResult ingest(JsonNode d) {
        long phase = d.path("phaseNanos").asLong();
        Map<String, Measurement> measurements = new LinkedHashMap<>();
        d.path("phases").fields().forEachRemaining(e -> {
            LatencyRecorder recorder = new LatencyRecorder(e.getKey());
            e.getValue().forEach(ns -> recorder.record(ns.asLong()));
            JsonNode bytes = d.path("bytes").path(e.getKey());
            if (bytes.isNumber()) {
                recorder.addBytes(bytes.asLong());
            }
            // a rate is over the wall time the script gives (a DataLoader's samples overlap), else over the phase's sum
            long elapsed = 0;
            for (JsonNode ns : e.getValue()) {
                elapsed += ns.asLong();
            }
            JsonNode wall = d.path("elapsedNanos").path(e.getKey());
            if (wall.isNumber() && wall.asLong() > 0) {
                elapsed = wall.asLong();
            }
            measurements.put(e.getKey(), recorder.snapshot(elapsed));
        });
        Map<String, Long> counters = new LinkedHashMap<>();
        d.path("counters").fields().forEachRemaining(e -> counters.put(e.getKey(), e.getValue().asLong()));
        JsonNode f = d.path("failure");
        int rank = d.path("rank").asInt();
        Failure failure = f.isMissingNode() || f.isNull() ? null
                : new Failure(Failure.Kind.valueOf(f.path("kind").asText("EXCEPTION")), f.path("message").asText(), rank);
        Map<String, String> notes = new LinkedHashMap<>();
        d.path("notes").fields().forEachRemaining(e -> notes.put(e.getKey(), e.getValue().asText()));
        return new RankResult(rank, d.path("hostname").asText(), failure == null ? Status.PASS : Status.FAIL, failure,
                phase, measurements, counters, List.of(), notes);
    }

    @Override
    public String toString() {
        return name();
    }
}
