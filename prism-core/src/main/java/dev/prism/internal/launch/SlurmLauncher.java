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

    @Override
    public List<RankResult> launch(RunPlan plan) {
        if (plan.tasks() != environment.worldSize()) {
            throw new PrismException("under SLURM the task count is the step's (" + environment.worldSize()
                    + ", from SLURM_NTASKS), not " + plan.tasks() + ": run one srun step per task count");
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
                // the connect window never outlasts the run's own deadline
                Instant connectBy = Instant.now().plus(connectTimeout);
                if (plan.deadline().isBefore(connectBy)) {
                    connectBy = plan.deadline();
                }
                Duration window = Duration.between(Instant.now(), connectBy);
                List<Integer> missing = coordinator.awaitRanks(remote, connectBy, r -> plan.interruption().isInterrupted());
                if (!missing.isEmpty()) {
                    throw new PrismException("SLURM rank(s) " + missing + " never reached the coordinator at " + where
                            + " within " + Durations.approximately(window) + (published != null
                            ? " (it published its address in " + published + ": on a node-local target, which the"
                            + " other nodes cannot read, give MASTER_ADDR and MASTER_PORT)" : ""));
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
