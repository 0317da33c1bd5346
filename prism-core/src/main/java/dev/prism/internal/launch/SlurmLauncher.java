package dev.prism.internal.launch;

import dev.prism.internal.coordination.Coordinator;
import dev.prism.internal.coordination.RunSecret;
import dev.prism.internal.coordination.CoordinatorEndpoint;
import dev.prism.internal.output.Durations;
import dev.prism.spi.Errno;
import dev.prism.internal.coordination.HostProbe;
import dev.prism.internal.coordination.PlanCodec;
import dev.prism.internal.coordination.RankBarrier;
import dev.prism.internal.rank.RankExecution;
import dev.prism.internal.coordination.RankThreads;
import dev.prism.internal.rank.RankWorker;
import dev.prism.internal.files.RunDirectory;
import dev.prism.internal.rank.StallMonitor;

import dev.prism.Failure;
import dev.prism.Launcher;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.SlurmEnvironment;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The launcher of SLURM rank 0 (see {@link Launcher#slurm}): every task of the {@code srun} step is
 * one rank. Rank 0 hosts the coordinator, runs rank 0 itself, and drives the other tasks, which
 * serve as {@link RankWorker}s for the whole step and exit when rank 0 closes the launcher.
 */
public final class SlurmLauncher implements Launcher {
    private static final long GRACE_MILLIS = 3_000;
    private static final Duration DEPARTURE = Duration.ofSeconds(10);
    /** After a signal, the longest wait for the other tasks' results, however long KillWait is. */
    private static final Duration MAX_RESULTS_AFTER_SIGNAL = Duration.ofSeconds(10);

    private final SlurmEnvironment environment;
    private final Duration connectTimeout;
    private final java.nio.file.Path coordinationDirectory;
    private Coordinator coordinator;
    private java.nio.file.Path published;

    /**
     * @param environment    this step's ranks and coordinator address; this process must be rank 0
     * @param connectTimeout how long rank 0 waits for the other tasks to connect
     */
    public SlurmLauncher(SlurmEnvironment environment, Duration connectTimeout) {
        this(environment, connectTimeout, null);
    }

    /**
     * @param environment           this step's ranks and coordinator address; this process must be rank 0
     * @param connectTimeout        how long rank 0 waits for the other tasks to connect
     * @param coordinationDirectory a directory on the shared filesystem to meet through, or null for TCP
     */
    public SlurmLauncher(SlurmEnvironment environment, Duration connectTimeout, java.nio.file.Path coordinationDirectory) {
        this.coordinationDirectory = coordinationDirectory;
        if (environment.rank() != 0) {
            throw new IllegalArgumentException("only SLURM rank 0 drives the run; rank " + environment.rank()
                    + " serves as a worker (RankWorker)");
        }
        this.environment = environment;
        this.connectTimeout = connectTimeout;
    }

    @Override
    public String name() {
        return coordinationDirectory == null ? "slurm" : "slurm+file";
    }

    /** @return why {@code tasks} cannot run under this step, or null when it is the step's count */
    public String refusal(int tasks) {
        return tasks == environment.worldSize() ? null : "under SLURM the task count is the step's ("
                + environment.worldSize() + ", from SLURM_NTASKS), not " + tasks + ": run one srun step per task count";
    }

    @Override
    public List<RankResult> launch(RunPlan plan) {
        String refusal = refusal(plan.tasks());
        if (refusal != null) {
            throw new PrismException(refusal);
        }
        PlanCodec.requireRecreatable(plan.benchmark());
        List<Integer> remote = new ArrayList<>();
        for (int r = 1; r < plan.tasks(); r++) {
            remote.add(r);
        }
        try {
            if (coordinator == null) {
                String where;
                RunSecret secret = RunSecret.forStep(System.getenv());
                if (coordinationDirectory == null) {
                    coordinator = Coordinator.tcp(listenAddress(), environment.worldSize(),
                            secret);
                    where = publish(plan) + ":" + coordinator.port();
                } else {
                    coordinator = Coordinator.directory(environment.meetingDirectory(coordinationDirectory),
                            environment.worldSize(), secret);
                    where = "directory " + environment.meetingDirectory(coordinationDirectory);
                }
                // after srun's SIGTERM, a third of KillWait for the other tasks' results (they got it too: 1.7 s of
                // KillWait=5), the rest for writing the run's documents and rank 0's own clean-up: on a node loaded
                // 28-fold, rank 0 that waited half of 5 s was SIGKILLed before it wrote the run's document
                Duration third = SlurmEnvironment.killWait(System.getenv()).dividedBy(3);
                coordinator.resultsAfterSignalWithin(third.compareTo(MAX_RESULTS_AFTER_SIGNAL) > 0 ? MAX_RESULTS_AFTER_SIGNAL : third);
                // the connect window never outlasts the run's own deadline
                Instant connectBy = Instant.now().plus(connectTimeout);
                if (plan.deadline().isBefore(connectBy)) {
                    connectBy = plan.deadline();
                }
                Duration window = Duration.between(Instant.now(), connectBy);
                Instant waitStart = Instant.now();
                // peers refused while the ranks connect are named as they come, not only after
                coordinator.reportRefusalsTo(plan.listener()::connectionRefused);
                try (AbsentNodes absent = new AbsentNodes(remote, plan.silenceLimit(), coordinator)) {
                    List<Integer> missing = coordinator.awaitRanks(remote, connectBy,
                            r -> plan.interruption().isInterrupted() || absent.nodeDown(r) != null);
                    if (!missing.isEmpty()) {
                        // connections refused meanwhile are what was in the way: never the target, nor a rank
                        java.util.Optional<String> refused = coordinator.takeRefusals();
                        List<RankResult> list = neverJoined(plan, remote, missing, absent, "the coordinator at " + where
                                + " within " + Durations.approximately(plan.interruption().isInterrupted()
                                || absent.anyDown() ? Duration.between(waitStart, Instant.now()) : window),
                                refused.isPresent() ? "; meanwhile " + refused.get()
                                : published != null ? " (it published its address in " + published + ": on a node-local"
                                + " target, which the other nodes cannot read, give MASTER_ADDR and MASTER_PORT)" : "");
                        refused.ifPresent(r -> list.set(0, Coordinator.noted(list.get(0), "coordination", r)));
                        return list;
                    }
                }
            }
            coordinator.reportRefusalsTo(plan.listener()::connectionRefused);
            java.util.Set<Integer> connected = coordinator.connected();
            java.util.List<Integer> gone = remote.stream().filter(r -> !connected.contains(r)).toList();
            if (!gone.isEmpty()) {
                return notRun(plan, remote, gone);
            }
            RankBarrier barrier = new RankBarrier(plan.tasks(), plan.deadline());
            AtomicReference<RankResult> own = new AtomicReference<>();
            Thread local;
            try (StallMonitor monitor = new StallMonitor(plan.stallThreshold().toNanos(), plan.listener());
                 dev.prism.Interruption.Registration stopOnInterrupt = barrier.abortOn(plan.interruption())) {
                RankExecution execution = new RankExecution(plan, 0, barrier, monitor);
                local = new Thread(() -> own.set(execution.run()), "prism-rank-0");
                local.setDaemon(true);
                local.start();
                Map<Integer, RankResult> results = coordinator.execute(plan, remote, barrier, plan.listener(),
                        plan.deadline().plusMillis(GRACE_MILLIS));
                boolean inTime = RankThreads.await(List.of(local), barrier::stopReason,
                        plan.deadline().toEpochMilli() + GRACE_MILLIS, GRACE_MILLIS, () -> { });
                if (local.isAlive()) {
                    if (!inTime) {
                        execution.markTimedOut();
                    }
                    barrier.expire();
                    local.interrupt();
                    local.join(GRACE_MILLIS);
                }
                List<RankResult> list = new ArrayList<>();
                list.add(own.get() != null ? own.get() : execution.unfinished(String.valueOf(barrier.stopReason())));
                for (int r : remote) {
                    RankResult result = results.get(r);
                    if (result == null) {
                        // its node: what it said when it connected, else SLURM's layout of the step's tasks
                        String node = nodeOf(r);
                        result = coordinator.unreported(r, node, Coordinator.rankOn(r, node)
                                + " did not report: its process died, hung past the timeout of "
                                + Durations.format(plan.timeout()) + ", lost its connection or its node");
                    }
                    list.add(result);
                }
                coordinator.takeRefusals().ifPresent(refused -> list.set(0, Coordinator.noted(list.get(0), "coordination", refused)));
                return list;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PrismException("interrupted while driving SLURM ranks", e);
        }
    }

    /**
     * @return where rank 0 listens: {@code MASTER_ADDR} when it names an address of this node (the ranks are told to
     *         reach it there, so nothing else need be open), else every address of this node, which the other nodes
     *         reach by the host name rank 0 publishes; either way the handshake, not the address, decides who joins
     */
    private InetSocketAddress listenAddress() {
        String host = environment.coordinatorHost();
        if (!host.isEmpty()) {
            try {
                java.net.InetAddress address = java.net.InetAddress.getByName(host);
                if (address.isLoopbackAddress() || java.net.NetworkInterface.getByInetAddress(address) != null) {
                    return new InetSocketAddress(address, environment.coordinatorPort());
                }
            } catch (java.io.IOException e) {
                // not resolvable here: every address, as before; the ranks say what they cannot reach
            }
        }
        return new InetSocketAddress(environment.coordinatorPort());
    }

    /** @return the node of rank {@code r}: what it said when it connected, else SLURM's layout of the step's tasks, else "?" */
    private String nodeOf(int r) {
        return coordinator.hostOf(r).or(() -> SlurmLayout.nodeOf(r, System.getenv())).orElse("?");
    }

    /**
     * @return the results of a run whose ranks {@code missing} never connected: each of them failed, naming its node and
     *         why (its node does not answer, or it was not heard from by the end of the window), the others not run.
     *         The run's document is written from them, and the coordinator remembers why they are absent, so the next
     *         benchmark of the step is skipped at once saying so
     */
    private List<RankResult> neverJoined(RunPlan plan, List<Integer> remote, List<Integer> missing, AbsentNodes absent,
                                         String reaching, String hint) {
        List<Integer> down = missing.stream().filter(r -> absent.nodeDown(r) != null).toList();
        List<Integer> unheard = missing.stream().filter(r -> absent.nodeDown(r) == null).toList();
        String summary = (down.isEmpty() ? "" : "SLURM rank(s) " + down + " never reached " + reaching + ": their node"
                + (down.stream().map(this::nodeOf).distinct().count() == 1 ? " " : "s ")
                + String.join(", ", down.stream().map(this::nodeOf).distinct().toList()) + " did not answer ("
                + absent.nodeDown(down.get(0)) + "), down or cut off")
                + (!down.isEmpty() && !unheard.isEmpty() ? "; " : "")
                + (unheard.isEmpty() ? "" : "SLURM rank(s) " + unheard + " never reached " + reaching
                + (plan.interruption().isInterrupted() ? " before the run was interrupted by "
                + plan.interruption().reason().orElse("a signal") : hint));
        List<RankResult> list = new ArrayList<>();
        list.add(Coordinator.missing(0, HostProbe.hostname(), Failure.Kind.ABORTED, "not run: " + summary));
        for (int r : remote) {
            String node = nodeOf(r);
            if (missing.contains(r)) {
                coordinator.absentFromTheStart(r, summary);
                list.add(Coordinator.missing(r, node, plan.interruption().isInterrupted() && absent.nodeDown(r) == null
                        ? Failure.Kind.INTERRUPTED : Failure.Kind.EXCEPTION, summary));
            } else {
                list.add(Coordinator.missing(r, node, Failure.Kind.ABORTED, "not run: " + summary));
            }
        }
        return list;
    }

    /**
     * While rank 0 waits for the other tasks to connect, asks the nodes of those still missing whether they are there,
     * once per silence limit from the wait's start: a task still starting its JVM on a loaded node is slow (its node's
     * kernel answers), a node that does not answer is down or cut off, and waiting for the rest of the window would
     * only delay the failure. A node whose name does not resolve here is not judged.
     */
    private static final class AbsentNodes implements AutoCloseable {
        private final Map<Integer, String> down = new java.util.concurrent.ConcurrentHashMap<>();
        private final Thread prober;
        private volatile boolean closed;

        AbsentNodes(List<Integer> remote, Duration silenceLimit, Coordinator coordinator) {
            java.util.Map<String, String> env = System.getenv();
            prober = new Thread(() -> {
                long next = System.nanoTime() + silenceLimit.toNanos();
                while (!closed) {
                    if (System.nanoTime() >= next) {
                        java.util.Set<Integer> connected = coordinator.connected();
                        // per node, why it did not answer (empty: it answered), asked once per round
                        Map<String, java.util.Optional<String>> answers = new java.util.HashMap<>();
                        for (int r : remote) {
                            java.util.Optional<String> node = SlurmLayout.nodeOf(r, env);
                            if (connected.contains(r) || node.isEmpty()) {
                                continue;
                            }
                            // any port: a kernel that is there answers, if only to refuse
                            InetSocketAddress address = new InetSocketAddress(node.get(),
                                    coordinator.port() > 0 ? coordinator.port() : 1);
                            if (address.isUnresolved()) {
                                continue;
                            }
                            java.util.Optional<String> unanswered = answers.computeIfAbsent(node.get(), n ->
                                    java.util.Optional.ofNullable(dev.prism.internal.coordination.Heartbeat.nodeAnswers(address)));
                            if (unanswered.isPresent() && !coordinator.connected().contains(r)) {
                                down.put(r, unanswered.get());
                            }
                        }
                        next = System.nanoTime() + silenceLimit.toNanos();
                    }
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "prism-slurm-absent-nodes");
            prober.setDaemon(true);
            prober.start();
        }

        /** @return why rank {@code r}'s node is taken for down, or null */
        String nodeDown(int r) {
            return down.get(r);
        }

        boolean anyDown() {
            return !down.isEmpty();
        }

        @Override
        public void close() {
            closed = true;
            prober.interrupt();
        }
    }

    /**
     * @return the results of a benchmark of this step that cannot run: ranks lost in an earlier one are gone for good
     *         (their processes exited), so it is skipped at once, saying which and why, instead of waiting for them
     */
    private List<RankResult> notRun(RunPlan plan, List<Integer> remote, List<Integer> gone) {
        List<RankResult> list = new ArrayList<>();
        String skipped = "not run: rank(s) " + gone + " of this step were lost in an earlier benchmark or repetition";
        list.add(Coordinator.missing(0, HostProbe.hostname(), Failure.Kind.ABORTED, skipped));
        for (int r : remote) {
            String node = nodeOf(r);
            list.add(gone.contains(r)
                    ? Coordinator.missing(r, node, Failure.Kind.EXCEPTION, coordinator.notConnected(r, node) + "; "
                    + plan.benchmark().name() + " was not run")
                    : Coordinator.missing(r, node, Failure.Kind.ABORTED, skipped));
        }
        return list;
    }

    /**
     * @return the host the other ranks reach rank 0 at: {@code MASTER_ADDR}, else this node's host name, which
     *         (with the port) is published in the target for them to read when no fixed address was given
     */
    private String publish(RunPlan plan) {
        if (!environment.publishesCoordinator()) {
            return environment.coordinatorHost();
        }
        String host = environment.coordinatorHost().isEmpty() ? HostProbe.hostname() : environment.coordinatorHost();
        java.nio.file.Path file = environment.endpointFile(plan.runDirectory().getParent());
        try {
            CoordinatorEndpoint.publish(file, host, coordinator.port());
        } catch (java.io.IOException e) {
            throw new PrismException("rank 0 cannot publish its address in " + file + ": " + Errno.describe(e), e);
        }
        published = file;
        return host;
    }

    /**
     * Tells the worker ranks to exit; meeting through files, waits a little for them to read it and
     * removes this step's meeting directory (never following links).
     */
    @Override
    public void close() {
        if (published != null) {
            CoordinatorEndpoint.withdraw(published);
            published = null;
        }
        if (coordinator != null) {
            coordinator.close(DEPARTURE);
            coordinator = null;
            if (coordinationDirectory != null) {
                try {
                    RunDirectory.deleteTree(environment.meetingDirectory(coordinationDirectory));
                } catch (java.io.IOException e) {
                    // only message files (or an NFS client's .nfs placeholders): left for the user to see
                }
            }
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
