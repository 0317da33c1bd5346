package dev.prism.internal.launch;

import dev.prism.internal.coordination.Coordinator;
import dev.prism.internal.coordination.RunSecret;
import dev.prism.internal.output.Durations;
import dev.prism.spi.OutputTail;
import dev.prism.internal.coordination.PlanCodec;
import dev.prism.internal.coordination.RankBarrier;
import dev.prism.internal.rank.RankWorker;
import dev.prism.internal.files.RunDirectory;

import dev.prism.Failure;
import dev.prism.Launcher;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Ranks as child JVMs on this host (see {@link Launcher#processes()}): one process per rank, each a separate kernel
 * client with its own file descriptors and locks, kept from one repetition to the next while every rank passes
 * (see {@link Ranks}) and ended when the scenario closes the launcher.
 */
public final class ProcessLauncher implements Launcher {
    private static final long GRACE_MILLIS = 3_000;
    /** Where ranks meet the coordinator through files, or null for TCP on loopback. */
    private final Path coordinationDirectory;

    /** Ranks meet through a coordinator on loopback TCP. */
    public ProcessLauncher() {
        this(null);
    }

    /** @param coordinationDirectory where ranks meet through files, or null for TCP on loopback */
    public ProcessLauncher(Path coordinationDirectory) {
        this.coordinationDirectory = coordinationDirectory;
    }
    private static final int TAIL_BYTES = 8 * 1024;

    @Override
    public String name() {
        return coordinationDirectory == null ? "processes" : "processes+file";
    }

    /** The rank processes kept from the last repetition, or null: they serve the next one of as many tasks. */
    private Ranks ranks;

    /**
     * Rank processes and the coordinator they are connected to, kept from one repetition to the next (and from one
     * benchmark to the next at the same task count) while every rank reported and passed: a kept JVM has loaded and
     * compiled what the next repetition runs, so that one rehearses one step instead of thousands. Anything else (a
     * rank that failed, died, hung or never connected, a stop, another task count) ends them, and the next repetition
     * starts fresh ones.
     */
    private final class Ranks {
        final Path meeting;
        final Coordinator coordinator;
        /** Fresh for these processes, bound to the run: handed to each in its environment, never on its command line */
        final RunSecret secret;
        final List<Process> children = new ArrayList<>();
        final List<OutputTail> tails = new ArrayList<>();
        final List<Integer> unconnected = new ArrayList<>();

        Ranks(RunPlan plan) {
            secret = RunSecret.generate().boundTo(binding(plan));
            meeting = coordinationDirectory == null ? null
                    : coordinationDirectory.resolve("prism-coordination-" + plan.runId() + "-" + System.nanoTime());
            coordinator = meeting == null
                    ? Coordinator.tcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), plan.tasks(), secret)
                    : Coordinator.directory(meeting, plan.tasks(), secret);
        }

        void start(RunPlan plan) {
            for (int rank = 0; rank < plan.tasks(); rank++) {
                Process child = ProcessLauncher.this.start(meeting == null
                        ? InetAddress.getLoopbackAddress().getHostAddress() : "dir:" + meeting, coordinator.port(), rank, plan,
                        secret);
                children.add(child);
                tails.add(new OutputTail(child.getInputStream(), TAIL_BYTES, "prism-rank-" + rank + "-stdout"));
                tails.add(new OutputTail(child.getErrorStream(), TAIL_BYTES, "prism-rank-" + rank + "-stderr"));
            }
        }

        /** @return whether these processes can serve {@code plan}: as many tasks, every one alive and connected */
        boolean canServe(RunPlan plan) {
            return plan.tasks() == children.size() && children.stream().allMatch(Process::isAlive)
                    && coordinator.connected().size() == children.size();
        }

        /** Tells the ranks to exit, then makes sure they did (see {@link ProcessLauncher#stop}). */
        void end() {
            coordinator.close();
            stop(children, unconnected);
            if (meeting != null) {
                try {
                    RunDirectory.deleteTree(meeting);
                } catch (IOException e) {
                    // only message files: left for the user to see
                }
            }
        }
    }

    @Override
    public List<RankResult> launch(RunPlan plan) {
        PlanCodec.requireRecreatable(plan.benchmark());
        if (ranks != null && !ranks.canServe(plan)) {
            ranks.end();
            ranks = null;
        }
        boolean fresh = ranks == null;
        if (fresh) {
            ranks = new Ranks(plan);
        }
        Ranks current = ranks;
        boolean keep = false;
        try {
            if (fresh) {
                current.start(plan);
            }
            for (int rank = 0; rank < plan.tasks(); rank++) {
                plan.listener().rankEntered(rank, dev.prism.RankPhase.STARTING);
            }
            List<Process> children = current.children;
            Coordinator coordinator = current.coordinator;
            coordinator.reportRefusalsTo(plan.listener()::connectionRefused);
            List<Integer> all = new ArrayList<>();
            for (int r = 0; r < plan.tasks(); r++) {
                all.add(r);
            }
            RankBarrier barrier = new RankBarrier(plan.tasks(), plan.deadline());
            List<Integer> missing = coordinator.awaitRanks(all, plan.deadline(),
                    r -> !children.get(r).isAlive() || plan.interruption().isInterrupted());
            current.unconnected.addAll(missing);
            Map<Integer, RankResult> results = Map.of();
            String stopped = null;
            if (missing.isEmpty()) {
                try (dev.prism.Interruption.Registration stopOnInterrupt = barrier.abortOn(plan.interruption())) {
                    results = coordinator.execute(plan, all, barrier, plan.listener(), plan.deadline().plusMillis(GRACE_MILLIS),
                            r -> !children.get(r).isAlive());
                    stopped = barrier.stopReason();
                }
            }
            List<Integer> diedAtStart = new ArrayList<>();
            for (int r : missing) {
                if (waitQuietly(children.get(r), 200)) {
                    diedAtStart.add(r);
                }
            }
            List<RankResult> list = new ArrayList<>();
            for (int rank = 0; rank < plan.tasks(); rank++) {
                RankResult result = results.get(rank);
                list.add(result != null ? result : explainMissing(rank, children.get(rank), current.tails.get(2 * rank + 1),
                        missing.isEmpty() ? null : missing, diedAtStart, plan, coordinator.whereIs(rank).orElse(null),
                        stopped, coordinator));
            }
            coordinator.takeRefusals().ifPresent(refused -> list.set(0, Coordinator.noted(list.get(0), "coordination", refused)));
            keep = stopped == null && !plan.interruption().isInterrupted() && results.size() == plan.tasks()
                    && results.values().stream().allMatch(r -> r.status() == dev.prism.Status.PASS);
            return list;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrismException("interrupted while running ranks as processes", e);
        } finally {
            if (!keep) {
                current.end();
                ranks = null;
            }
        }
    }

    /** Ends the rank processes kept from the last repetition. */
    @Override
    public void close() {
        if (ranks != null) {
            ranks.end();
            ranks = null;
        }
    }

    /**
     * How a rank's JVM runs: the hot path compiles within a rehearsal of a few thousand operations (docs/design.md);
     * libc bindings (java.lang.foreign, JNA) may be used without the JDK's warning on JDK 22 and later.
     */
    public static final List<String> RANK_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=4",
            "-XX:CompileThresholdScaling=0.1", "--enable-native-access=ALL-UNNAMED");

    /** The environment variable with the user's flags for every PRISM JVM, the rank JVMs among them. */
    private static final String USER_JVM_OPTIONS = "PRISM_JAVA_OPTS";

    /**
     * @return the flags a rank JVM starts with: PRISM's; the class-data-sharing archive ./prism gave this JVM, which
     *         serves its ranks too (the same jar: they start faster); then the user's from {@link #USER_JVM_OPTIONS},
     *         as the prism script and SLURM's ranks take them, last so that they win
     */
    public static List<String> rankJvmOptions() {
        List<String> options = new ArrayList<>(RANK_JVM_OPTIONS);
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-Xlog:cds")).forEach(options::add);
        options.addAll(userJvmOptions(System.getenv(USER_JVM_OPTIONS)));
        return options;
    }

    /** @return {@code value}'s flags, split where the shell would split an unquoted variable; none when unset */
    static List<String> userJvmOptions(String value) {
        return value == null || value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
    }

    /** @return what the ranks' secret is bound to: the run, whose id each rank is given on its command line */
    private static String binding(RunPlan plan) {
        return RankWorker.runBinding(plan.runId());
    }

    private Process start(String where, int port, int rank, RunPlan plan, RunSecret secret) {
        String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long connectSeconds = Math.max(5, java.time.Duration.between(Instant.now(), plan.deadline()).toSeconds());
        List<String> command = new ArrayList<>(List.of(javaBinary));
        command.addAll(rankJvmOptions());
        // PRISM's own settings (prism.verbose…) reach every rank
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("prism."))
                .forEach(k -> command.add("-D" + k + "=" + System.getProperty(k)));
        command.addAll(List.of("-cp", RankClassPath.of(RankWorker.class), RankWorker.class.getName(),
                where, String.valueOf(port), String.valueOf(rank),
                String.valueOf(connectSeconds), plan.runDirectory().toString(), String.valueOf(ProcessHandle.current().pid()),
                plan.runId()));
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            // the environment, which only this user and root may read (/proc/PID/environ), not the command line
            builder.environment().put(RunSecret.ENVIRONMENT, secret.hex());
            return builder.start();
        } catch (IOException e) {
            throw new PrismException("could not start rank " + rank + " as a process (" + javaBinary + "): " + e.getMessage(), e);
        }
    }

    /**
     * @param where the phase the rank was last heard of in ({@code in setup}), or null when it never said
     * @return the result of a rank that sent none: how its process died, and where, or why it was stopped
     */
    private static RankResult explainMissing(int rank, Process child, OutputTail stderr, List<Integer> neverConnected,
                                             List<Integer> diedAtStart, RunPlan plan, String where, String stopReason,
                                             Coordinator coordinator) {
        boolean exited = waitQuietly(child, 500);
        String tail = stderr.text().strip();
        String output = tail.isEmpty() ? "" : "; its stderr ends: " + tail;
        if (exited && coordinator.lostAfter(rank).isPresent()) {
            // it died after another rank was lost: not what the run's failure names
            return coordinator.unreported(rank, "?", "rank " + rank + "'s process died with exit code " + child.exitValue()
                    + (where == null ? "" : " " + where) + output);
        }
        if (exited) {
            int code = child.exitValue();
            boolean atStart = neverConnected != null && neverConnected.contains(rank);
            // the same words whenever it died, then where: a kill at start-up reads like one in the timed phase
            return Coordinator.missing(rank, Failure.Kind.EXCEPTION, "rank " + rank + "'s process died with exit code "
                    + code + (code > 128 ? " (signal " + (code - 128) + ")" : "")
                    + (atStart ? " at start-up, before it reached the coordinator" : where == null ? "" : " " + where) + output);
        }
        if (plan.interruption().isInterrupted()) {
            return Coordinator.missing(rank, Failure.Kind.ABORTED, "rank " + rank + " was stopped: interrupted by "
                    + plan.interruption().reason().orElse("?"));
        }
        if (!diedAtStart.isEmpty()) {
            return Coordinator.missing(rank, Failure.Kind.ABORTED, "rank " + rank + " was stopped before its plan:"
                    + " rank(s) " + diedAtStart + " died at start-up");
        }
        if (neverConnected != null && neverConnected.contains(rank)) {
            return Coordinator.missing(rank, Failure.Kind.TIMEOUT, "rank " + rank
                    + " never connected to the coordinator within the timeout of " + Durations.format(plan.timeout()) + output);
        }
        if (stopReason != null && Instant.now().isBefore(plan.deadline())) {
            return Coordinator.missing(rank, Failure.Kind.ABORTED, "rank " + rank + " was told to stop (" + stopReason
                    + ") and did not report" + (where == null ? "" : "; it was last " + where) + output);
        }
        return Coordinator.missing(rank, Failure.Kind.TIMEOUT, "rank " + rank
                + " did not report within the timeout of " + Durations.format(plan.timeout()) + output);
    }

    private static boolean waitQuietly(Process p, long millis) {
        try {
            return p.waitFor(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        }
    }

    /**
     * No rank process outlives the repetition it failed in, nor the launcher: every one gets 2 s in all to exit after its last
     * message, then SIGTERM and 2 s more, then SIGKILL. The waits are shared, not per process, so
     * many ranks stuck on hung storage cost the same 4 s as one. A rank that never connected (still
     * starting when the run was given up) has no last message to wait for: it gets SIGTERM at once. A
     * process stuck in a request to a FUSE daemon cannot die until the daemon answers: it is left to
     * the kernel, not waited for.
     */
    private static void stop(List<Process> children, List<Integer> unconnected) {
        unconnected.stream().map(children::get).filter(Process::isAlive).forEach(Process::destroy);
        if (!awaitAll(children, 2_000)) {
            children.stream().filter(Process::isAlive).forEach(Process::destroy);
            if (!awaitAll(children, 2_000)) {
                children.stream().filter(Process::isAlive).forEach(Process::destroyForcibly);
                awaitAll(children, 200);
            }
        }
    }

    /** @return true when every process ended within {@code millis} from now */
    private static boolean awaitAll(List<Process> children, long millis) {
        long end = System.currentTimeMillis() + millis;
        for (Process p : children) {
            long left = end - System.currentTimeMillis();
            if (left <= 0 ? p.isAlive() : !waitQuietly(p, left)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return name();
    }
}
