package dev.prism.internal.rank;

import dev.prism.internal.coordination.Channel;
import dev.prism.internal.coordination.Coordinator;
import dev.prism.internal.coordination.Handshake;
import dev.prism.internal.output.Durations;
import dev.prism.internal.coordination.Heartbeat;
import dev.prism.internal.coordination.HostProbe;
import dev.prism.internal.launch.NodeLocalRun;
import dev.prism.internal.coordination.PlanCodec;
import dev.prism.internal.coordination.RankAbortedException;
import dev.prism.internal.coordination.RankSync;
import dev.prism.internal.coordination.RankThreads;
import dev.prism.internal.coordination.Rendezvous;
import dev.prism.internal.output.ResultJson;
import dev.prism.internal.files.RunDirectory;
import dev.prism.Signals;
import dev.prism.internal.coordination.RunSecret;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.Stall;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A rank in its own process: connects to the coordinator (retrying until a deadline), then runs each
 * plan it is sent, meeting the other ranks through the coordinator, and sends its result back. Exits
 * when told to or when the coordinator goes away.
 *
 * <p>A reader thread takes every message as it comes, so a rank hears "stop" (another rank failed
 * or died, the run was interrupted) at once and stops before its next operation. A watchdog notices
 * within a fraction of a second when the parent process died or the coordinator closed the
 * connection: the rank stops, removes its own directory and exits, instead of writing on for minutes.
 */
public final class RankWorker {
    /** How long a rank still in an operation gets after its deadline before it reports without it. */
    private static final long GRACE_MILLIS = 1_000;
    /**
     * How long a rank told to stop (another rank failed, a signal) gets to finish its operation and teardown before it
     * reports what it measured without them: well inside the coordinator's wait for results after a signal (1 s).
     */
    private static final long STOP_GRACE_MILLIS = 500;
    private static final long WATCH_MILLIS = 200;
    /** How long a rank that reports without finishing waits for its own document to be written before it reports. */
    private static final long DOCUMENT_MILLIS = 1_000;

    private final Rendezvous rendezvous;
    private final int rank;
    private final RunSecret secret;
    private final Duration cleanupGrace;
    /** When {@link #stop} was first called (a signal), in epoch milliseconds; 0 before */
    private volatile long signalledAtMillis;
    private volatile String leftBehind;
    /** The last plan whose run directory this rank made itself on a node-local target; null on a shared one */
    private RunPlan nodeLocal;
    /** The last plan this rank ran (and reported, unless it lost the coordinator meanwhile) */
    private RunPlan lastPlan;
    private volatile String stopReason;
    /** Whether the stop told was the run's deadline, by the coordinator's clock (see {@link RankSync#deadlinePassed()}) */
    private volatile boolean deadlineStop;
    private volatile String lostReason;
    private volatile Channel wire;
    /** When the coordinator was last heard from, in System.nanoTime() */
    private volatile long lastHeardNanos;
    /** How long the coordinator may go unheard before this rank asks whether its node is there: the plan's, once one came */
    private volatile Duration silenceLimit;
    /** The run directory this rank's parent made before starting it, or null: a rank orphaned before its plan removes its part */
    private volatile Path startingRunDirectory;
    /** The target this rank was started for, or null: a plan whose run directory is elsewhere is refused */
    private volatile Path target;
    /** The pid of the process that started this rank, when it said so; else the parent this rank finds at start */
    private volatile long parentPid = -1;
    /** Whether {@link #serve} is still running: the watchdog watches until it ends */
    private volatile boolean serving;
    private final BlockingQueue<JsonNode> inbox = new LinkedBlockingQueue<>();
    private static final JsonNode LOST = Channel.message("lost");

    /**
     * @param rendezvous where the coordinator is
     * @param rank       this rank
     * @param secret     the run's secret, which this rank proves it knows and the coordinator must prove too
     */
    public RankWorker(Rendezvous rendezvous, int rank, RunSecret secret) {
        this(rendezvous, rank, Duration.ofSeconds(10), secret);
    }

    /**
     * @param cleanupGrace after a {@link #stop signal}, how long from it this rank may take to remove its own
     *                     directory once it has reported (under SLURM: less than KillWait, which ends in SIGKILL)
     */
    public RankWorker(Rendezvous rendezvous, int rank, Duration cleanupGrace, RunSecret secret) {
        this.rendezvous = rendezvous;
        this.rank = rank;
        this.cleanupGrace = cleanupGrace;
        this.secret = java.util.Objects.requireNonNull(secret, "secret");
    }

    /**
     * @param runDirectory the run directory the parent made, with this rank's directory in it, before it started this
     *                     rank: a rank whose parent dies before the plan comes removes its own directory, and the
     *                     last such rank the run directory
     * @return this worker
     */
    public RankWorker startingIn(Path runDirectory) {
        this.startingRunDirectory = runDirectory;
        return this;
    }

    /**
     * @param target the target this rank was started for (its {@code --target}): a plan whose run directory is not a
     *               {@code prism-*} directory in it is refused, and nothing of it is made or removed
     * @return this worker
     */
    public RankWorker underTarget(Path target) {
        this.target = target.toAbsolutePath().normalize();
        return this;
    }

    /** @return why {@code plan} is not one this rank may work or clean up in, or null when it is */
    private String foreign(RunPlan plan) {
        Path directory = plan.runDirectory().toAbsolutePath().normalize();
        Path started = startingRunDirectory;
        if (started != null && !directory.equals(started.toAbsolutePath().normalize())) {
            return "its run directory " + directory + " is not the one this rank was started for, " + started;
        }
        if (target != null && (!target.equals(directory.getParent())
                || !directory.getFileName().toString().startsWith("prism-"))) {
            return "its run directory " + directory + " is not a run directory in this rank's target " + target;
        }
        return null;
    }

    /**
     * @param limit how long the coordinator may go unheard before this rank asks whether its node is still there, until
     *              a plan brings its own
     * @return this worker
     */
    public RankWorker silenceLimit(Duration limit) {
        this.silenceLimit = limit;
        return this;
    }

    /**
     * @param pid the process that started this rank: when this rank's parent is any other (it was re-parented, even
     *            before it began to watch: a parent killed while this JVM still started), the parent is gone
     * @return this worker
     */
    public RankWorker startedBy(long pid) {
        this.parentPid = pid;
        return this;
    }

    /**
     * Stops this rank before its next operation and tells the coordinator why (a signal): the other
     * ranks stop too, and what was measured so far is still reported.
     */
    public void stop(String reason) {
        if (signalledAtMillis == 0) {
            signalledAtMillis = System.currentTimeMillis();
        }
        if (stopReason == null) {
            stopReason = reason;
        }
        Channel w = wire;
        if (w != null) {
            try {
                w.send(Channel.message("abort").put("reason", reason));
            } catch (IOException e) {
                // the coordinator is gone: the watchdog says so
            }
        }
    }

    /**
     * Serves plans until told to exit, or until the coordinator has been silent for {@code connectTimeout}
     * (so no worker waits forever for a coordinator that died).
     *
     * @param connectTimeout how long to keep trying to reach the coordinator, and to wait for its next word
     * @throws PrismException naming the address when the coordinator cannot be reached in time, or
     *                        saying that the parent process or the coordinator went away
     */
    public void serve(Duration connectTimeout) throws IOException, InterruptedException {
        serving = true;
        // the parent is watched from the start: one that dies while this rank still connects ends it too
        long parent = parentPid >= 0 ? parentPid : ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        if (parent > 0) {
            startDaemon("prism-rank-" + rank + "-watchdog", () -> watch(parent));
        }
        try (Channel channel = rendezvous.isDirectory() ? joinThroughFiles(connectTimeout) : connect(connectTimeout)) {
            wire = channel;
            lastHeardNanos = System.nanoTime();
            startDaemon("prism-rank-" + rank + "-reader", () -> read(channel));
            if (channel.heartbeats()) {
                startDaemon("prism-rank-" + rank + "-heartbeat", () -> heartbeat(channel));
            }
            boolean heard = false;
            while (true) {
                JsonNode m = inbox.poll(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
                if (m == null) {
                    throw new PrismException("rank " + rank + (heard ? " heard nothing more from" : " got no plan from")
                            + " the coordinator at " + rendezvous + " within " + Durations.format(connectTimeout));
                }
                heard = true;
                if (m == LOST) {
                    if (lostReason != null) {
                        String left = lastPlan == null || nodeLocal != null ? null : removeOwnDirectory(lastPlan, Long.MAX_VALUE);
                        throw new PrismException("rank " + rank + " stopped: " + lostReason
                                + (left == null ? "" : "; " + left));
                    }
                    return;
                }
                if ("exit".equals(m.path("type").asText())) {
                    return;
                }
                if ("plan".equals(m.path("type").asText())) {
                    RunPlan plan = PlanCodec.decode(m, forwarding(channel));
                    String foreign = foreign(plan);
                    if (foreign != null) {
                        // never made, worked in or cleaned up: this rank's lastPlan stays what it was
                        channel.send(Channel.message("result").put("document", ResultJson.rankToJson("", "", 0, 0,
                                Coordinator.missing(rank, HostProbe.hostname(), dev.prism.Failure.Kind.EXCEPTION, "rank "
                                        + rank + " refused the plan: " + foreign))));
                        continue;
                    }
                    silenceLimit = plan.silenceLimit();
                    boolean local = nodeLocal != null && nodeLocal.runDirectory().equals(plan.runDirectory())
                            || NodeLocalRun.isNodeLocal(plan, rank);
                    String unprepared = null;
                    if (local) {
                        nodeLocal = plan;
                        try {
                            NodeLocalRun.prepare(plan, rank);
                        } catch (PrismException e) {
                            unprepared = e.getMessage();
                        }
                    }
                    // a run directory this node cannot make fails this rank, and so the run, naming path and errno
                    RankResult result = unprepared == null ? runPlan(plan)
                            : Coordinator.missing(rank, HostProbe.hostname(), dev.prism.Failure.Kind.EXCEPTION, unprepared);
                    if (local) {
                        result = Coordinator.noted(result, "target", "node-local: rank 0's run directory is not on "
                                + HostProbe.hostname() + ", so this rank made its own there and removes it at the end");
                    }
                    lastPlan = plan; // from here its directory is this plan's: the clean-up below never runs twice
                    if (lostReason != null) {
                        // after a signal too (srun ending the step): within the grace, before SLURM's SIGKILL
                        String left = removeOwnDirectory(plan, cleanupEndMillis());
                        throw new PrismException("rank " + rank + " stopped: " + lostReason + "; "
                                + (left == null ? "removed its directory " + plan.rankDirectory(rank) : left)
                                + ownDocument(plan).map(d -> "; what it measured is in " + d).orElse(""));
                    }
                    channel.send(Channel.message("result").put("document",
                            ResultJson.rankToJson("", "", 0, 0, result)));
                }
            }
        } finally {
            wire = null;
            serving = false;
            // the connection is closed by now, so rank 0 goes on with its own clean-up while this rank does its part
            if (lastPlan == null && startingRunDirectory != null && lostReason != null && nodeLocal == null) {
                // the parent died before any plan came: nobody else removes the directory it made for this rank
                leftBehind = removeOwnDirectory(startingRunDirectory, Long.MAX_VALUE);
            } else if (nodeLocal != null) {
                removeNodeLocal(nodeLocal);
            } else if (signalledAtMillis != 0 && lastPlan != null) {
                // a signalled rank (scancel, SLURM cancelling the step) removes its own files, every rank side by side,
                // before SLURM's SIGKILL; only once the run is over, so it never races rank 0 preparing the next one
                leftBehind = removeOwnDirectory(lastPlan, cleanupEndMillis());
            }
        }
    }

    /** @return this rank's own result document of {@code plan}, when it was written */
    private Optional<Path> ownDocument(RunPlan plan) {
        if (plan.rankOutput() == null) {
            return Optional.empty();
        }
        Path document = ResultJson.rankDocument(plan.rankOutput(), rank);
        return java.nio.file.Files.isRegularFile(document, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                ? Optional.of(document) : Optional.empty();
    }

    /** @return when this rank's clean-up must end: the grace after a signal, else never ({@code Long.MAX_VALUE}) */
    private long cleanupEndMillis() {
        return signalledAtMillis != 0 ? signalledAtMillis + cleanupGrace.toMillis() : Long.MAX_VALUE;
    }

    /** On a node-local target: removes this rank's directory, and with the node's last rank the run directory. */
    private void removeNodeLocal(RunPlan plan) throws InterruptedException {
        String left = removeOwnDirectory(plan, cleanupEndMillis());
        if (left != null && leftBehind == null) {
            leftBehind = left;
        }
    }

    /**
     * Pings the coordinator from a thread that does nothing else. After the silence limit without a word from it, asks
     * its node's kernel whether it is there ({@link Heartbeat#nodeAnswers}): a coordinator whose node answers is busy
     * (a loaded node, a long pause) and is waited for; one whose node does not is gone (its node died or the network
     * went down), and this rank stops, as when the connection closes. A silence this rank's own pause explains (its
     * JVM was stopped or starved: this thread woke late) is not the coordinator's.
     */
    private void heartbeat(Channel channel) {
        long lastWake = System.nanoTime();
        long probedAt = 0;
        while (wire == channel) {
            try {
                channel.ping();
            } catch (IOException e) {
                // the reader notices a closed connection
            }
            long now = System.nanoTime();
            long limit = limitNanos();
            if (now - lastWake > limit / 2) {
                lastHeardNanos = now; // this process was paused: nothing could be heard meanwhile
            }
            lastWake = now;
            long silent = now - lastHeardNanos;
            if (silent > limit && now - probedAt > limit) {
                probedAt = now;
                String unanswered = rendezvous.isDirectory() ? "there is no way to ask"
                        : Heartbeat.nodeAnswers(new InetSocketAddress(rendezvous.host(), rendezvous.port()));
                if (unanswered != null && System.nanoTime() - lastHeardNanos > limit) {
                    lost("heard nothing from the coordinator at " + rendezvous + " for "
                            + Durations.approximately(Duration.ofNanos(silent)) + " and its node does not answer ("
                            + unanswered + "): its node or the network is down");
                    channel.close();
                    return;
                }
            }
            try {
                Thread.sleep(Heartbeat.INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private long limitNanos() {
        Duration limit = silenceLimit;
        return (limit != null ? limit : RunPlan.defaultSilenceLimit(Duration.ZERO)).toNanos();
    }

    /** Takes every message as it arrives: "stop" at once, pings as a sign of life, the rest in order for the serving thread. */
    private void read(Channel channel) {
        try {
            while (true) {
                JsonNode m = channel.receive();
                if (m == null) {
                    break;
                }
                lastHeardNanos = System.nanoTime();
                if (Heartbeat.isPing(m)) {
                    continue;
                }
                if ("stop".equals(m.path("type").asText())) {
                    if (stopReason == null) {
                        deadlineStop = m.path("deadline").asBoolean(false);
                        stopReason = m.path("reason").asText();
                    }
                } else {
                    inbox.add(m);
                }
                if ("exit".equals(m.path("type").asText())) {
                    return;
                }
            }
            lost("the coordinator at " + rendezvous + " closed the connection (it died or gave up on this rank)");
        } catch (IOException e) {
            lost("lost the coordinator at " + rendezvous + " (" + e.getMessage() + ")");
        }
    }

    /**
     * Notices when the process that started this rank died: this rank was re-parented (to init or a subreaper) the
     * moment it died, before anyone reaped it; a parent that is a zombie still counts as alive to
     * {@link ProcessHandle#isAlive()}, a changed parent pid does not lie.
     */
    private void watch(long parent) {
        while (serving) {
            if (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) != parent) {
                lost("its parent process " + parent + " died");
                return;
            }
            try {
                Thread.sleep(WATCH_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void lost(String reason) {
        if (lostReason == null) {
            lostReason = reason;
        }
        if (stopReason == null) {
            stopReason = reason;
        }
        inbox.add(LOST);
    }

    /**
     * Removes this rank's directories (its own and its rehearsal's scratch) and, when no other rank's directory is left,
     * the run directory's {@code shared} and the run directory itself; after a signal it gives up at {@code endMillis}
     * (hung storage, or more files than the time allows), otherwise ({@code Long.MAX_VALUE}) it takes as long as it
     * needs, as rank 0's own clean-up does.
     *
     * @return null when it was all removed, else what was left
     */
    private String removeOwnDirectory(RunPlan plan, long endMillis) throws InterruptedException {
        return removeOwnDirectory(plan.runDirectory(), endMillis);
    }

    private String removeOwnDirectory(Path runDirectory, long endMillis) throws InterruptedException {
        Path own = RunDirectory.rankDirectory(runDirectory, rank);
        RunDirectory.Removal removal = RunDirectory.removalOf(own);
        Path scratch = RunDirectory.rehearsalDirectory(runDirectory, rank);
        if (endMillis == Long.MAX_VALUE) {
            RunDirectory.remove(own, removal);
            RunDirectory.remove(scratch, removal);
        } else {
            Thread remover = RunDirectory.startRemoval(removal, "prism-rank-" + rank + "-cleanup", own, scratch);
            remover.join(Math.max(1, endMillis - System.currentTimeMillis()));
            if (remover.isAlive()) {
                return removal.givenUp("did not finish within " + Durations.format(cleanupGrace) + " of the signal");
            }
        }
        if (!removal.complete()) {
            return removal.summary();
        }
        return RunDirectory.removeIfLastRank(runDirectory); // the last rank out takes the run directory with it
    }

    /** @return what this rank's removal of its own directory after a signal left behind, if anything */
    public Optional<String> leftBehind() {
        return Optional.ofNullable(leftBehind);
    }

    private static void startDaemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private Channel connect(Duration timeout) throws InterruptedException {
        String host = rendezvous.host();
        int port = rendezvous.port();
        Instant deadline = Instant.now().plus(timeout);
        String last = "";
        if (String.valueOf(rank).equals(System.getProperty("prism.fault.holdConnect"))) {
            // a fault for tests: a rank slow to start (a loaded node) holds here, before the coordinator, until it
            // is stopped, killed or orphaned
            while (lostReason == null && signalledAtMillis == 0) {
                Thread.sleep(WATCH_MILLIS);
            }
        }
        while (Instant.now().isBefore(deadline)) {
            if (lostReason != null || signalledAtMillis != 0) {
                throw new PrismException("rank " + rank + " stopped before it reached the coordinator at " + host + ":"
                        + port + ": " + stopReason);
            }
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 2_000);
                // the handshake: a coordinator that closes before it (it had too many peers proving themselves at once)
                // is tried again; one that refuses this rank or cannot prove it belongs to the run ends it
                return Handshake.joinOverTcp(socket, secret, rank,
                        Math.max(1, Duration.between(Instant.now(), deadline).toMillis()));
            } catch (PrismException e) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // refused: nothing more to say to it
                }
                throw e;
            } catch (IOException e) {
                last = e.getMessage();
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // retrying with a new socket
                }
                Thread.sleep(200);
            }
        }
        throw new PrismException("rank " + rank + " could not reach the coordinator at " + host + ":" + port
                + " within " + Durations.format(timeout) + " (" + last + ")");
    }

    /** Meets the coordinator through message files, waiting for its answer as long as for a TCP coordinator. */
    private Channel joinThroughFiles(Duration timeout) throws IOException {
        try {
            return Handshake.joinThroughFiles(rendezvous.directory(), secret, rank, timeout.toMillis());
        } catch (java.net.SocketTimeoutException e) {
            throw new PrismException("rank " + rank + " got no answer from the coordinator in " + rendezvous + " within "
                    + Durations.format(timeout));
        }
    }

    /** @return a listener that sends each stall and each phase this rank enters to the coordinator as it happens */
    private static ScenarioListener forwarding(Channel channel) {
        return new ScenarioListener() {
            @Override
            public void stallDetected(Stall stall) {
                send(Channel.message("stall").put("operation", stall.operation()).put("path", stall.path())
                        .put("durationNanos", stall.durationNanos()));
            }

            @Override
            public void rankEntered(int rank, dev.prism.RankPhase phase) {
                send(Channel.message("phase").put("phase", phase.name()));
            }

            @Override
            public void intervalCompleted(int rank, String operation, int index, dev.prism.Measurement interval) {
                com.fasterxml.jackson.databind.node.ObjectNode m = Channel.message("interval").put("operation", operation)
                        .put("index", index);
                m.set("measurement", dev.prism.internal.output.ResultJson.measurementTree(interval));
                send(m);
            }

            private void send(com.fasterxml.jackson.databind.node.ObjectNode message) {
                try {
                    channel.send(message);
                } catch (IOException e) {
                    // the coordinator is gone; the reader notices
                }
            }
        };
    }

    private RankResult runPlan(RunPlan plan) throws InterruptedException {
        deadlineStop = false; // cleared first: a stop told from here on sets it before its reason
        stopReason = lostReason; // a stop told during an earlier plan does not carry over
        RemoteSync sync = new RemoteSync(plan.deadline());
        try (StallMonitor monitor = new StallMonitor(plan.stallThreshold().toNanos(), plan.listener())) {
            RankExecution execution = new RankExecution(plan, rank, sync, monitor);
            AtomicReference<RankResult> result = new AtomicReference<>();
            Thread thread = new Thread(() -> result.set(execution.run()), "prism-rank-" + rank);
            thread.setDaemon(true);
            thread.start();
            boolean inTime = RankThreads.await(List.of(thread), () -> stopReason,
                    plan.deadline().toEpochMilli() + GRACE_MILLIS, STOP_GRACE_MILLIS, () -> { });
            if (thread.isAlive()) {
                if (!inTime) {
                    execution.markTimedOut();
                }
                thread.interrupt();
                thread.join(STOP_GRACE_MILLIS / 2);
            }
            if (result.get() != null) {
                return result.get();
            }
            // still in an operation: what it measured so far is reported, and kept in its own document too (the
            // coordinator may be gone, or SLURM's SIGKILL may come before the result reaches it)
            RankResult unfinished = execution.unfinished(String.valueOf(stopReason));
            execution.writeDocument(unfinished).join(DOCUMENT_MILLIS);
            return unfinished;
        }
    }

    /** Barriers through the coordinator, each ending by the run's deadline; stops as soon as told to. */
    private final class RemoteSync implements RankSync {
        private final Instant deadline;

        RemoteSync(Instant deadline) {
            this.deadline = deadline;
        }

        @Override
        public void await(int rank, String name) throws InterruptedException {
            Channel channel = wire;
            try {
                channel.send(Channel.message("barrier").put("rank", rank).put("name", name));
            } catch (IOException e) {
                throw new RankAbortedException("lost the coordinator at barrier '" + name + "': " + e.getMessage());
            }
            long wait = Duration.between(Instant.now(), deadline).toMillis() + GRACE_MILLIS;
            JsonNode reply = inbox.poll(Math.max(1, wait), TimeUnit.MILLISECONDS);
            if (reply == null) {
                deadlineStop = true;
                throw new RankAbortedException("the coordinator did not release barrier '" + name + "' by the run's deadline");
            }
            if (reply == LOST) {
                inbox.add(LOST); // the serving thread must see it too
                throw new RankAbortedException(lostReason + " during barrier '" + name + "'");
            }
            if ("aborted".equals(reply.path("type").asText())) {
                if (reply.path("deadline").asBoolean(false)) {
                    deadlineStop = true;
                }
                throw new RankAbortedException("stopped at barrier '" + name + "': " + reply.path("reason").asText(),
                        reply.path("midPhase").asBoolean(false));
            }
        }

        @Override
        public void abort(String reason) {
            try {
                wire.send(Channel.message("abort").put("reason", reason));
            } catch (IOException | NullPointerException e) {
                // the coordinator is gone: nothing to tell
            }
        }

        @Override
        public void expire() {
            // the coordinator owns the deadline of every barrier
        }

        @Override
        public String stopReason() {
            return stopReason;
        }

        @Override
        public boolean deadlinePassed() {
            return deadlineStop;
        }
    }

    /**
     * Entry point of a rank process: {@code RankWorker HOST PORT RANK [CONNECT_TIMEOUT_SECONDS [RUN_DIRECTORY
     * [PARENT_PID [RUN_ID]]]]}, or {@code RankWorker dir:DIRECTORY 0 RANK …} to meet through files; RUN_DIRECTORY is where
     * the parent made this rank's directory, removed by the rank itself when the parent dies before sending a plan,
     * PARENT_PID the parent's pid, so that a parent which died while this JVM still started is noticed too, and RUN_ID
     * the run the secret is bound to ({@link #runBinding}).
     * Exit codes: 0 done, 3 could not reach the coordinator or lost it, 1 anything else, 128 + the
     * signal's number after SIGINT or SIGTERM.
     */
    /** @return what the secret of a run's rank processes is bound to: the run {@code runId} */
    public static String runBinding(String runId) {
        return "run " + runId;
    }

    public static void main(String[] args) {
        int rank = Integer.parseInt(args[2]);
        if (String.valueOf(rank).equals(System.getProperty("prism.fault.exitAtStart"))) {
            // a fault for tests of what a run says about a rank that dies before it connects
            System.err.println("prism: rank " + rank + " exits at start-up as told (prism.fault.exitAtStart)");
            System.exit(7);
        }
        Duration connect = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 60);
        Rendezvous rendezvous = args[0].startsWith("dir:") ? Rendezvous.directory(java.nio.file.Path.of(args[0].substring(4)))
                : Rendezvous.tcp(args[0], Integer.parseInt(args[1]));
        String hex = System.getenv(RunSecret.ENVIRONMENT);
        if (hex == null || hex.isBlank()) {
            System.err.println("prism: rank " + rank + " has no run secret: its parent passes one in $" + RunSecret.ENVIRONMENT);
            System.exit(3);
        }
        RunSecret secret = RunSecret.ofHex(hex, "$" + RunSecret.ENVIRONMENT);
        RankWorker worker = new RankWorker(rendezvous, rank, args.length > 6 ? secret.boundTo(runBinding(args[6])) : secret)
                .silenceLimit(RunPlan.defaultSilenceLimit(connect));
        if (args.length > 4) {
            worker.startingIn(java.nio.file.Path.of(args[4]));
        }
        if (args.length > 5) {
            worker.startedBy(Long.parseLong(args[5]));
        }
        Signals signals = Signals.install(signal -> worker.stop("rank " + rank + " received " + signal));
        int code;
        try {
            try {
                worker.serve(connect);
            } finally {
                worker.leftBehind().ifPresent(left -> System.err.println(dev.prism.spi.TerminalText.escape("prism: rank " + rank + ": " + left)));
            }
            code = 0;
        } catch (PrismException e) {
            System.err.println(dev.prism.spi.TerminalText.escape("prism: " + e.getMessage()));
            code = 3;
        } catch (Exception e) {
            System.err.println(dev.prism.spi.TerminalText.escape("prism: rank " + rank + " failed: " + RankExecution.describe(e)));
            code = 1;
        }
        System.exit(signals.received() != null ? signals.exitCode() : code);
    }
}
