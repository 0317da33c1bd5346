package dev.prism.internal.coordination;

import dev.prism.internal.output.Durations;
import dev.prism.internal.output.ResultJson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.Failure;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.Stall;
import dev.prism.Status;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The coordinator ranks in other processes connect to: it hands each a plan, answers their barriers
 * through one {@link RankBarrier} (so waits end by the deadline and name who never came), and
 * gathers their results. A rank whose connection drops aborts the barrier at once, so the others
 * do not wait for it.
 */
public final class Coordinator implements AutoCloseable {
    private final ServerSocket server;
    private final Map<Integer, String> hosts = new java.util.concurrent.ConcurrentHashMap<>();
    /** The meeting directory of a coordinator through files, held by descriptor for the coordinator's life; else null */
    private final dev.prism.spi.HeldDirectory directory;
    private final int worldSize;
    private final Map<Integer, Channel> ranks = new ConcurrentHashMap<>();
    /** When each rank was last heard from (any message, pings included), in System.nanoTime() */
    private final Map<Integer, Long> lastHeard = new ConcurrentHashMap<>();
    /** Why a rank was given up on during the current run: its connection closed, or it fell silent */
    private final Map<Integer, String> lost = new ConcurrentHashMap<>();
    /** When each rank of {@link #lost} was given up on, in System.nanoTime(): the first one lost heads the failure */
    private final Map<Integer, Long> lostAt = new ConcurrentHashMap<>();
    /** Why a rank was given up on in an earlier run of this coordinator: its connection is gone for good */
    private final Map<Integer, String> lostEarlier = new ConcurrentHashMap<>();
    /** The longest silence of each rank in the current run after which its node still answered: slow, not lost */
    private final Map<Integer, Long> slowest = new ConcurrentHashMap<>();
    /** The pid each rank said it had when it connected */
    private final Map<Integer, Long> pids = new ConcurrentHashMap<>();
    /** The phase each rank said it entered last in the current run */
    private final Map<Integer, dev.prism.RankPhase> phases = new ConcurrentHashMap<>();
    /** Connections this coordinator closed itself (a rank hung past the deadline): their end is no loss to report */
    private final Set<Channel> closing = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** What every rank proves it knows before anything it says counts */
    private final RunSecret secret;
    /** Message files being authenticated now, each in a thread of its own: at most {@link #MAX_PENDING} */
    private final java.util.concurrent.Semaphore pending = new java.util.concurrent.Semaphore(MAX_PENDING);
    /**
     * The connections from each address being authenticated now, oldest first: at most {@link #SLOTS_PER_ADDRESS} each
     * and {@link #MAX_PENDING} in all ({@link #takeSlot})
     */
    private final Map<java.net.InetAddress, java.util.ArrayDeque<Unproven>> proving = new java.util.HashMap<>();
    /** How many connections {@link #proving} holds, all addresses together */
    private int provingTotal;
    /** Ranks whose message files are being authenticated now (meeting through files) */
    private final Set<Integer> admitting = ConcurrentHashMap.newKeySet();
    private final Refusals refusals = new Refusals();
    private volatile long authenticationMillis = AUTHENTICATION_MILLIS;

    /** How long a peer has to prove it belongs to the run, from its connection (or its hello file), all lines together. */
    static final long AUTHENTICATION_MILLIS = 5_000;
    /** How many peers may be proving themselves at once: more are refused at once (a rank refused so tries again). */
    static final int MAX_PENDING = 256;
    /**
     * How many of them may come from one address: a flood from one address holds at most these, and a rank on another
     * node still joins during it.
     */
    static final int SLOTS_PER_ADDRESS = MAX_PENDING / 2;

    /** A connection proving itself: its socket, how it is named in a refusal, and whether it was closed to make room */
    private static final class Unproven {
        final Socket socket;
        final java.net.InetAddress from;
        final String peer;
        volatile boolean evicted;

        Unproven(Socket socket, String peer) {
            this.socket = socket;
            this.from = socket.getInetAddress();
            this.peer = peer;
        }
    }

    private Coordinator(ServerSocket server, dev.prism.spi.HeldDirectory directory, int worldSize, RunSecret secret) {
        this.server = server;
        this.directory = directory;
        this.worldSize = worldSize;
        this.secret = java.util.Objects.requireNonNull(secret, "secret");
        Thread acceptor = new Thread(server != null ? this::acceptLoop : this::scanLoop, "prism-coordinator-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        if (server != null) {
            Thread pinger = new Thread(this::pingLoop, "prism-coordinator-heartbeat");
            pinger.setDaemon(true);
            pinger.start();
        }
    }

    /** Pings every connected rank, so a rank whose coordinator's node went silent notices. */
    private void pingLoop() {
        while (!closed) {
            for (Channel wire : ranks.values()) {
                try {
                    wire.ping();
                } catch (IOException e) {
                    // that rank is gone: its handler says so
                }
            }
            try {
                Thread.sleep(Heartbeat.INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * @param address   where to listen (port 0: any free port)
     * @param worldSize the step's ranks: a peer claiming another is refused
     * @param secret    what every rank proves it knows
     * @return a coordinator listening on {@code address}
     */
    public static Coordinator tcp(InetSocketAddress address, int worldSize, RunSecret secret) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(address, 1024);
            return new Coordinator(server, null, worldSize, secret);
        } catch (IOException e) {
            throw new PrismException("the coordinator cannot listen on " + address + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return a coordinator meeting {@code worldSize} ranks through files in {@code directory}, made private to this
     *         user (mode 0700) when missing and refused when another user made it or others may enter it
     */
    public static Coordinator directory(Path directory, int worldSize, RunSecret secret) {
        return new Coordinator(null, PrivateDirectory.ensure(directory), worldSize, secret);
    }

    /**
     * @param listener hears each peer refused from now on (a few; the rest are counted): {@code refused 127.0.0.1:40112:
     *                 did not prove itself within 5 s}, and at each {@link #takeRefusals} how many came from each address
     */
    public void reportRefusalsTo(java.util.function.Consumer<String> listener) {
        refusals.listener = listener;
    }

    /**
     * @return what was refused since the last call, for the run's notes, counted by address and by why (a fixed set of
     *         reasons: nothing a peer sent is kept): {@code 2,290,113 connections refused from 127.0.0.1: not of this run
     *         (…)}; empty when nothing was. Each address's line is told to the listener too
     */
    public java.util.Optional<String> takeRefusals() {
        return refusals.take();
    }

    /**
     * For tests: how long a peer has to prove itself (longer than a test takes, so that a flood holds its slots
     * throughout, whatever the machine's speed).
     */
    Coordinator authenticateWithin(Duration limit) {
        authenticationMillis = limit.toMillis();
        return this;
    }

    /** For tests: how many peers were refused since the last {@link #takeRefusals}, without taking them. */
    long refusedSoFar() {
        return refusals.total();
    }

    /** @return the port it listens on (TCP), or 0 */
    public int port() {
        return server == null ? 0 : server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            java.net.InetAddress from = socket.getInetAddress();
            Unproven unproven = new Unproven(socket, from.getHostAddress() + ":" + socket.getPort());
            if (!takeSlot(unproven)) {
                // a flood of connections that never authenticate must not hold a thread each, nor starve the ranks of
                // other addresses
                refusals.add(Refusal.SLOTS_FULL, from.getHostAddress(), unproven.peer);
                closeQuietly(socket);
                continue;
            }
            Thread admission = new Thread(() -> {
                try {
                    admit(new TcpLink(socket), from.getHostAddress(), unproven.peer, unproven);
                } catch (IOException e) {
                    closeQuietly(socket);
                } finally {
                    releaseSlot(unproven);
                }
            }, "prism-coordinator-hello");
            admission.setDaemon(true);
            admission.start();
        }
    }

    /**
     * Gives {@code newcomer} a slot to prove itself in, making room where a flood holds them: when its address holds
     * all {@link #SLOTS_PER_ADDRESS} of its own, the oldest of them is closed; when all {@link #MAX_PENDING} are taken,
     * the oldest of the address holding most is closed, if that address holds more than the newcomer's would. So a flood
     * from any number of addresses, however long it goes on, keeps neither a rank of another address out nor one on
     * the flood's own node (which to be pushed out would have to be outrun by 128 newer connections within its few
     * milliseconds of handshake). A rank of this run closed so tries again, as one turned away does.
     *
     * @return whether it has a slot; false: every address holds its fair share, and it is turned away
     */
    private boolean takeSlot(Unproven newcomer) {
        Unproven evicted = null;
        synchronized (proving) {
            java.util.ArrayDeque<Unproven> mine = proving.computeIfAbsent(newcomer.from, k -> new java.util.ArrayDeque<>());
            if (mine.size() >= SLOTS_PER_ADDRESS) {
                evicted = mine.pollFirst();
            } else if (provingTotal >= MAX_PENDING) {
                java.util.ArrayDeque<Unproven> busiest = proving.values().stream()
                        .max(java.util.Comparator.comparingInt(java.util.ArrayDeque::size)).orElseThrow();
                if (busiest.size() <= mine.size() + 1) {
                    if (mine.isEmpty()) {
                        proving.remove(newcomer.from);
                    }
                    return false;
                }
                evicted = busiest.pollFirst();
            }
            if (evicted != null) {
                evicted.evicted = true;
                provingTotal--;
            }
            mine.addLast(newcomer);
            provingTotal++;
        }
        if (evicted != null) {
            refusals.add(Refusal.EVICTED, evicted.from.getHostAddress(), evicted.peer);
            closeQuietly(evicted.socket);
        }
        return true;
    }

    /**
     * Gives back {@code unproven}'s slot, unless it was closed to make room (then it no longer holds one).
     *
     * @return whether it still held its slot: false, it was closed to make room
     */
    private boolean releaseSlot(Unproven unproven) {
        synchronized (proving) {
            java.util.ArrayDeque<Unproven> mine = proving.get(unproven.from);
            if (mine != null && mine.remove(unproven)) {
                provingTotal--;
                if (mine.isEmpty()) {
                    proving.remove(unproven.from);
                }
                return true;
            }
            return false;
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing more to do with a socket that failed its hello
        }
    }

    /** Looks for ranks announcing themselves with a file; each is admitted once, in a thread of its own. */
    private void scanLoop() {
        while (!closed) {
            for (int rank = 0; rank < worldSize; rank++) {
                if (!ranks.containsKey(rank) && !admitting.contains(rank) && FileLink.announced(directory, rank)
                        && pending.tryAcquire()) {
                    int r = rank;
                    admitting.add(r);
                    Thread admission = new Thread(() -> {
                        try {
                            admit(FileLink.forCoordinator(directory, r), "directory " + directory,
                                    "rank-" + r + ".up in " + directory, null);
                        } finally {
                            admitting.remove(r);
                            pending.release();
                        }
                    }, "prism-coordinator-hello");
                    admission.setDaemon(true);
                    admission.start();
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Lets in a peer that proves it belongs to the run ({@link Handshake}); any other is refused and counted under its
     * address and a {@link Refusal}, and nothing it sent counts or is kept.
     *
     * @param from the peer's address (or the meeting directory), under which its refusal is counted
     * @param peer the peer, for the first refusals told as they come
     * @param unproven its connection, or null (a message file): one closed to make room was counted then, not again
     */
    private void admit(LineLink link, String from, String peer, Unproven unproven) {
        Handshake.Admission admission;
        try {
            admission = Handshake.asCoordinator(link, secret, r -> r >= 0 && (worldSize <= 0 || r < worldSize),
                    authenticationMillis);
        } catch (Refusal.Refused e) {
            if (unproven == null || !unproven.evicted) {
                refusals.add(e.why, from, peer);
            }
            link.close();
            return;
        }
        if (unproven != null && !releaseSlot(unproven)) {
            link.close(); // proved itself just as it was closed to make room: it tries again, as any rank turned away
            return;
        }
        int rank = admission.rank();
        hosts.put(rank, Handshake.printable(admission.host()));
        pids.put(rank, admission.pid());
        lastHeard.put(rank, System.nanoTime());
        Channel previous = ranks.put(rank, admission.channel());
        if (previous != null) {
            // the same rank again (it reconnected): only a process of this run could prove it
            closing.add(previous);
            previous.close();
        }
        synchronized (ranks) {
            ranks.notifyAll();
        }
    }

    /**
     * The peers refused, counted by address (the first {@value #ADDRESSES}; the rest together) and by {@link Refusal}:
     * a fixed number of counters, however many peers came and whatever they sent. A few are told to the listener as
     * they come.
     */
    private static final class Refusals {
        private static final int TOLD = 5;
        private static final int ADDRESSES = 16;
        private static final String OTHERS = "other addresses";
        private final Map<String, long[]> counts = new java.util.LinkedHashMap<>();
        private int told;
        private volatile java.util.function.Consumer<String> listener;

        synchronized void add(Refusal why, String from, String peer) {
            String key = counts.containsKey(from) || counts.size() < ADDRESSES ? from : OTHERS;
            counts.computeIfAbsent(key, k -> new long[Refusal.values().length])[why.ordinal()]++;
            java.util.function.Consumer<String> l = listener;
            if (l != null && told < TOLD) {
                told++;
                l.accept("refused " + peer + ": " + why.text + (told == TOLD
                        ? " (further refusals are counted, by address, in the run's notes)" : ""));
            }
        }

        synchronized long total() {
            return counts.values().stream().flatMapToLong(java.util.Arrays::stream).sum();
        }

        synchronized java.util.Optional<String> take() {
            if (counts.isEmpty()) {
                return java.util.Optional.empty();
            }
            List<String> lines = new ArrayList<>();
            for (Map.Entry<String, long[]> e : counts.entrySet()) {
                long[] n = e.getValue();
                long total = java.util.Arrays.stream(n).sum();
                String connections = String.format(java.util.Locale.ROOT, "%,d %s", total, total == 1 ? "connection"
                        : "connections");
                if (n[Refusal.SLOTS_FULL.ordinal()] + n[Refusal.EVICTED.ordinal()] == total) {
                    // only turned away, or closed for newer ones, while slots were taken: the run's own ranks, many
                    // on one node, try again
                    lines.add(connections + " from " + e.getKey() + " turned away, or closed unproven to make room,"
                            + " while every slot was taken (a rank of this run tries again)");
                    continue;
                }
                StringBuilder line = new StringBuilder(connections + " refused from " + e.getKey() + ": not of this run");
                String separator = " (";
                for (Refusal why : Refusal.values()) {
                    if (n[why.ordinal()] > 0) {
                        line.append(separator).append(String.format(java.util.Locale.ROOT, "%,d ", n[why.ordinal()]))
                                .append(why.text);
                        separator = ", ";
                    }
                }
                lines.add(line.append(")").toString());
            }
            counts.clear();
            java.util.function.Consumer<String> l = listener;
            if (l != null) {
                lines.forEach(l);
            }
            return java.util.Optional.of(String.join("; ", lines));
        }
    }

    /**
     * Waits until every rank in {@code expected} has connected.
     *
     * @param gone tells which of them already died (their process exited), so waiting stops early
     * @return the ranks still missing at {@code deadline}, or that died: empty when all are here
     */
    public List<Integer> awaitRanks(Collection<Integer> expected, Instant deadline, IntFunction<Boolean> gone)
            throws InterruptedException {
        synchronized (ranks) {
            while (true) {
                List<Integer> missing = new ArrayList<>();
                boolean anyGone = false;
                for (int r : expected) {
                    if (!ranks.containsKey(r)) {
                        missing.add(r);
                        anyGone |= gone.apply(r);
                    }
                }
                long wait = deadline.toEpochMilli() - System.currentTimeMillis();
                if (missing.isEmpty() || anyGone || wait <= 0) {
                    return missing;
                }
                ranks.wait(Math.min(wait, 100));
            }
        }
    }

    /**
     * Sends {@code plan} to each rank of {@code remote}, serves their barriers on {@code barrier},
     * and returns the results that arrived by {@code until} (a rank that lost its connection or
     * never reported is absent).
     */
    public Map<Integer, RankResult> execute(RunPlan plan, Collection<Integer> remote, RankBarrier barrier,
                                            ScenarioListener listener, Instant until) throws InterruptedException {
        return execute(plan, remote, barrier, listener, until, r -> false);
    }

    /**
     * As {@link #execute(RunPlan, Collection, RankBarrier, ScenarioListener, Instant)}, also stopping
     * every rank as soon as {@code died} says a rank's process is gone (through files, no connection
     * drops to say so).
     */
    public Map<Integer, RankResult> execute(RunPlan plan, Collection<Integer> remote, RankBarrier barrier,
                                            ScenarioListener listener, Instant until,
                                            java.util.function.IntPredicate died) throws InterruptedException {
        Map<Integer, RankResult> results = new ConcurrentHashMap<>();
        List<Thread> handlers = new ArrayList<>();
        List<Integer> served = new ArrayList<>();
        long silenceNanos = plan.silenceLimit().toNanos();
        // between runs nobody reads the ranks' pings: each rank's silence is counted from this run's start
        remote.forEach(r -> lastHeard.put(r, System.nanoTime()));
        remote.forEach(lost::remove);
        remote.forEach(lostAt::remove);
        remote.forEach(slowest::remove);
        remote.forEach(phases::remove);
        // a rank that fails or dies, or an interruption, stops every remote rank before its next operation
        barrier.onAbort(reason -> tellToStop(remote, reason, barrier.deadlinePassed()));
        for (int rank : remote) {
            Channel wire = ranks.get(rank);
            if (wire == null) {
                // lost in an earlier run of this step (its process gave up and exited): this run cannot have it
                giveUp(rank, notConnected(rank, hosts.get(rank)), barrier);
                continue;
            }
            Thread handler = new Thread(() -> serve(rank, wire, plan, barrier, listener, results), "prism-coordinator-rank-" + rank);
            handler.setDaemon(true);
            handlers.add(handler);
            served.add(rank);
            handler.start();
        }
        long[] lastLook = {System.nanoTime()};
        Set<Integer> probing = ConcurrentHashMap.newKeySet();
        Map<Integer, Long> probedAt = new ConcurrentHashMap<>();
        // once told to stop, every rank still connected reports what it measured: a live rank does so within moments,
        // a loaded one later, a silent one is asked about below. So the wait ends when all reported or were lost, or at
        // the deadline; after a signal, within the signal's grace (SLURM's KillWait counts from it)
        // after a signal: a bound that fits SLURM's KillWait. Every task of a step gets srun's SIGTERM at once, so the
        // other ranks are stopping too, each finishing its operation and writing its own document before it reports:
        // on a loaded node that takes seconds, and a wait that ended when nothing had come within one second lost all
        // of them (32 ranks on 8 nodes beside a CPU hog)
        RankThreads.awaitUntil(handlers, barrier::stopReason, until.toEpochMilli(),
                stopSeen -> plan.interruption().interruptedAt().map(at -> Math.max(stopSeen, at.toEpochMilli())
                        + signalledResultsMillis).orElse(Long.MAX_VALUE), () -> {
            long now = System.nanoTime();
            if (now - lastLook[0] > silenceNanos / 2) {
                // this process itself was stopped or starved that long: the ranks' silence is not theirs
                served.forEach(r -> lastHeard.put(r, now));
            }
            lastLook[0] = now;
            for (int r : served) {
                if (results.containsKey(r) || lost.containsKey(r)) {
                    continue;
                }
                if (died.test(r)) {
                    giveUp(r, rankOn(r, hosts.get(r)) + "'s process died", barrier);
                    continue;
                }
                Channel wire = ranks.get(r);
                long silent = now - lastHeard.getOrDefault(r, now);
                if (wire != null && wire.heartbeats() && silent > silenceNanos && !probing.contains(r)
                        && now - probedAt.getOrDefault(r, 0L) > silenceNanos) {
                    probedAt.put(r, now);
                    Thread probe = new Thread(() -> {
                        try {
                            judgeSilence(r, wire, silent, barrier, listener);
                        } finally {
                            probing.remove(r);
                        }
                    }, "prism-coordinator-probe-" + r);
                    probe.setDaemon(true);
                    probing.add(r);
                    probe.start();
                }
            }
        });
        for (int i = 0; i < handlers.size(); i++) {
            if (handlers.get(i).isAlive()) {
                // a rank that has not reported by now is hung: drop its connection so its handler ends
                barrier.expire();
                Channel wire = ranks.remove(served.get(i));
                if (wire != null) {
                    closing.add(wire);
                    wire.close();
                }
            }
        }
        // a rank that was silent but whose node answered says so in its result: slow, with how slow
        slowest.forEach((r, nanos) -> results.computeIfPresent(r, (k, result) -> noted(result, "liveness", "silent for up to "
                + Durations.approximately(Duration.ofNanos(nanos)) + " (over the silence limit of "
                + Durations.format(plan.silenceLimit()) + "), and its " + (onThisHost(r) ? "process" : "node")
                + " still answered: slow, not lost")));
        return results;
    }

    /** @return {@code r} with the note {@code key}: {@code note} added */
    public static RankResult noted(RankResult r, String key, String note) {
        Map<String, String> notes = new java.util.LinkedHashMap<>(r.notes());
        notes.put(key, note);
        return new RankResult(r.rank(), r.hostname(), r.status(), r.failure(), r.phaseNanos(), r.measurements(),
                r.counters(), r.stalls(), notes, r.intervals());
    }

    /**
     * @return the result of {@code rank}, which sent none: why it was lost (with how long after the first loss, when it
     *         was lost later: then it is not what the run's failure names), else {@code otherwise}
     */
    public RankResult unreported(int rank, String node, String otherwise) {
        String why = lostReason(rank).orElse(otherwise);
        java.util.Optional<String> after = lostAfter(rank);
        return after.isPresent() ? missing(rank, node, Failure.Kind.ABORTED, why + " (" + after.get() + " was lost)")
                : missing(rank, node, Failure.Kind.EXCEPTION, why);
    }

    /**
     * A rank silent for longer than the run's silence limit: asks whether it is still there — its process, when it runs
     * on this host, else its node's kernel. One that is there is slow (the longest such silence is kept, for its
     * result); one that is not is given up on, and the run stops.
     */
    private void judgeSilence(int rank, Channel wire, long silentNanos, RankBarrier barrier, ScenarioListener listener) {
        String node = hosts.get(rank);
        String silence = Durations.approximately(Duration.ofNanos(silentNanos));
        String unanswered;
        if (onThisHost(rank)) {
            unanswered = Heartbeat.processAlive(pids.get(rank)) ? null : "its process " + pids.get(rank) + " is gone";
        } else if (wire.peer() != null) {
            unanswered = Heartbeat.nodeAnswers(wire.peer());
            unanswered = unanswered == null ? null : "its node does not answer (" + unanswered + ")";
        } else {
            unanswered = "there is no way to ask";
        }
        if (unanswered == null) {
            slowest.merge(rank, silentNanos, Math::max);
            listener.rankSlow(rank, Duration.ofNanos(silentNanos));
            return;
        }
        giveUp(rank, rankOn(rank, node) + " has not been heard from for " + silence + " and " + unanswered
                + ": its node or its network is down", barrier);
        ranks.remove(rank, wire);
        wire.close();
    }

    /** @return whether {@code rank} runs on this host and said its pid, so its process itself can be looked at */
    private boolean onThisHost(int rank) {
        return HostProbe.hostname().equals(hosts.get(rank)) && pids.getOrDefault(rank, -1L) > 0;
    }

    /** Gives up on {@code rank} for {@code why}: remembered (with when, the first loss heads the failure), and the run stops. */
    private void giveUp(int rank, String why, RankBarrier barrier) {
        if (lost.putIfAbsent(rank, why) == null) {
            lostAt.put(rank, System.nanoTime());
            lostEarlier.put(rank, "lost in an earlier run of this step (" + why + ")");
        }
        barrier.abort(why);
    }

    /**
     * After a signal, the longest wait for the results of ranks told to stop (every rank still connected is waited for
     * until then), unless {@link #resultsAfterSignalWithin} says otherwise: under SLURM rank 0's own clean-up must also
     * fit in KillWait (by default 30 s, often 5–10 s) from the signal.
     */
    private static final long SIGNALLED_STOP_LIMIT_MILLIS = 3_000;
    private volatile long signalledResultsMillis = SIGNALLED_STOP_LIMIT_MILLIS;

    /**
     * @param limit after a signal, the longest wait for the results of ranks told to stop (every task of a SLURM step
     *              gets srun's SIGTERM at once, and a loaded node's ranks report seconds later), at least 1 s; rank 0
     *              still writes the run's documents and removes its own directory after it, before SLURM's SIGKILL
     */
    public void resultsAfterSignalWithin(Duration limit) {
        signalledResultsMillis = Math.max(1_000, limit.toMillis());
    }

    /**
     * Sends every remote rank the reason to stop, and whether it is the run's deadline (a rank still at work then timed
     * out, whatever its own clock says), off the caller's thread (which may hold the barrier).
     */
    private void tellToStop(Collection<Integer> remote, String reason, boolean deadline) {
        Thread teller = new Thread(() -> {
            for (int rank : remote) {
                Channel wire = ranks.get(rank);
                if (wire != null) {
                    try {
                        wire.send(Channel.message("stop").put("reason", reason).put("deadline", deadline));
                    } catch (IOException e) {
                        // that rank is gone already
                    }
                }
            }
        }, "prism-coordinator-stop");
        teller.setDaemon(true);
        teller.start();
    }

    private void serve(int rank, Channel wire, RunPlan plan, RankBarrier barrier, ScenarioListener listener,
                       Map<Integer, RankResult> results) {
        try {
            wire.send(PlanCodec.encode(plan));
            while (true) {
                JsonNode m = wire.receive();
                if (m == null) {
                    throw new SocketException("connection closed");
                }
                lastHeard.put(rank, System.nanoTime());
                String kind = m.path("type").asText();
                try {
                    if (handle(rank, kind, m, wire, barrier, listener, results)) {
                        return;
                    }
                } catch (RuntimeException e) {
                    // a rank of another build, or one that lies: the step cannot go on believing it
                    throw new ProtocolViolation("sent a malformed '" + Handshake.printable(kind) + "' message ("
                            + Handshake.printable(String.valueOf(e.getMessage())) + ")");
                }
            }
        } catch (ProtocolViolation e) {
            giveUp(rank, rankOn(rank, hosts.get(rank)) + " broke the coordination protocol: " + e.getMessage()
                    + "; the step stops", barrier);
            ranks.remove(rank, wire);
            closing.add(wire);
            wire.close();
        } catch (IOException e) {
            String node = hosts.get(rank);
            String why = rankOn(rank, node) + " lost its connection to the coordinator ("
                    + e.getMessage() + ")";
            if (!closing.contains(wire)) {
                giveUp(rank, why, barrier);
            }
            ranks.remove(rank, wire);
            wire.close();
        }
    }

    /** @return whether {@code m} was the rank's result, its last message of the run */
    private boolean handle(int rank, String kind, JsonNode m, Channel wire, RankBarrier barrier, ScenarioListener listener,
                           Map<Integer, RankResult> results) throws ProtocolViolation {
        switch (kind) {
            case "ping" -> {
                // alive: nothing more to do
            }
            case "barrier" -> {
                // waited for in a thread of its own: this one goes on reading, so the rank's pings still count
                String name = m.path("name").asText();
                Thread waiter = new Thread(() -> awaitBarrier(rank, name, wire, barrier), "prism-coordinator-barrier-" + rank);
                waiter.setDaemon(true);
                waiter.start();
            }
            case "abort" -> barrier.abort(m.path("reason").asText());
            case "phase" -> {
                String name = m.path("phase").asText();
                dev.prism.RankPhase phase = java.util.Arrays.stream(dev.prism.RankPhase.values())
                        .filter(p -> p.name().equals(name)).findFirst()
                        .orElseThrow(() -> new ProtocolViolation("sent a 'phase' message with a phase PRISM does not have, '"
                                + Handshake.printable(name) + "'"));
                phases.put(rank, phase);
                listener.rankEntered(rank, phase);
            }
            case "stall" -> listener.stallDetected(new Stall(rank, m.path("operation").asText(),
                    m.path("path").isNull() ? null : m.path("path").asText(), Instant.now(),
                    m.path("durationNanos").asLong(), false));
            case "interval" -> listener.intervalCompleted(rank, m.path("operation").asText(), m.path("index").asInt(),
                    ResultJson.measurementFrom(m.path("operation").asText(), m.path("measurement")));
            case "result" -> {
                RankResult result = ResultJson.rankFromJson(m.path("document").asText());
                if (result.rank() != rank) {
                    throw new ProtocolViolation("sent a result as rank " + result.rank());
                }
                results.put(rank, result);
                return true;
            }
            default -> throw new ProtocolViolation("sent a message of an unknown kind, '"
                    + Handshake.printable(kind) + "'");
        }
        return false;
    }

    /** Waits at {@code barrier} for {@code rank} and tells it the outcome: released, or aborted and why. */
    private static void awaitBarrier(int rank, String name, Channel wire, RankBarrier barrier) {
        try {
            try {
                barrier.await(rank, name);
                wire.send(Channel.message("released"));
            } catch (RankAbortedException e) {
                wire.send(Channel.message("aborted").put("reason", e.getMessage()).put("deadline", barrier.deadlinePassed())
                        .put("midPhase", e.midPhase()));
            }
        } catch (IOException e) {
            // the rank is gone: its handler says so
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return a FAIL result for a rank that never reported */
    public static RankResult missing(int rank, Failure.Kind kind, String message) {
        return missing(rank, "?", kind, message);
    }

    /** @return {@code rank 1 on n2} for messages, or {@code rank 1} when its node is not known (null or "?") */
    public static String rankOn(int rank, String node) {
        return "rank " + rank + (node == null || node.equals("?") ? "" : " on " + node);
    }

    /** @return the result of a rank that reported nothing, on {@code host} ("?" when not known) */
    public static RankResult missing(int rank, String host, Failure.Kind kind, String message) {
        return new RankResult(rank, host, Status.FAIL, new Failure(kind, message, rank), 0, Map.of(), Map.of(), List.of());
    }

    /**
     * @return the rank lost first in the last run (by time), and how long after it {@code rank} was lost; empty when
     *         {@code rank} was not lost or is the first
     */
    public java.util.Optional<String> lostAfter(int rank) {
        Long at = lostAt.get(rank);
        java.util.Optional<Map.Entry<Integer, Long>> first = lostAt.entrySet().stream().min(Map.Entry.comparingByValue());
        if (at == null || first.isEmpty() || first.get().getKey() == rank
                || at - first.get().getValue() < java.util.concurrent.TimeUnit.SECONDS.toNanos(LOST_TOGETHER_SECONDS)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Durations.approximately(Duration.ofNanos(at - first.get().getValue())) + " after "
                + rankOn(first.get().getKey(), hosts.get(first.get().getKey())));
    }

    /** Ranks lost within this many seconds of the first one went together (one node's ranks, say). */
    private static final long LOST_TOGETHER_SECONDS = 2;

    /**
     * @return why {@code rank} (on {@code node}) cannot take part: {@code rank 8 on n3 is not connected: lost in an
     *         earlier run of this step (…)}
     */
    public String notConnected(int rank, String node) {
        return rankOn(rank, node) + " is not connected: " + lostEarlier.getOrDefault(rank, "it was lost earlier in this step");
    }

    /** Remembers that {@code rank} never connected, and {@code why}: the step's next benchmarks say so, skipped at once. */
    public void absentFromTheStart(int rank, String why) {
        lostEarlier.put(rank, "it never connected (" + why + ")");
    }

    /** @return why the coordinator gave up on {@code rank} in the last run (silence, a closed connection), if it did */
    public java.util.Optional<String> lostReason(int rank) {
        return java.util.Optional.ofNullable(lost.get(rank));
    }

    /**
     * @return where {@code rank} was when it was last heard of in the current run, for a rank that died: {@code in setup},
     *         {@code in the timed phase}; empty before its first phase
     */
    public java.util.Optional<String> whereIs(int rank) {
        dev.prism.RankPhase phase = phases.get(rank);
        if (phase == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(phase == dev.prism.RankPhase.FINISHED ? "after it finished, before its result arrived"
                : "in " + phase.description());
    }

    /** @return the host rank {@code rank} said it ran on when it connected, if it did */
    public java.util.Optional<String> hostOf(int rank) {
        return java.util.Optional.ofNullable(hosts.get(rank));
    }

    /** @return the ranks connected now, sorted */
    public TreeSet<Integer> connected() {
        return new TreeSet<>(ranks.keySet());
    }

    /** Tells every connected rank to exit, then stops listening. */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Tells every rank to exit and stops; through files, also waits up to {@code departure} for the
     * ranks to remove their message files, the sign they read their last message and the directory may go.
     */
    public void close(Duration departure) {
        Set<Integer> told = new TreeSet<>(ranks.keySet());
        for (Channel wire : ranks.values()) {
            try {
                wire.send(Channel.message("exit"));
            } catch (IOException e) {
                // already gone
            }
            closing.add(wire);
            wire.close();
        }
        ranks.clear();
        closed = true;
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                // stopping anyway
            }
        }
        if (directory != null && !departure.isZero()) {
            awaitDeparture(told, System.nanoTime() + departure.toNanos());
        }
    }

    private void awaitDeparture(Set<Integer> told, long deadline) {
        while (System.nanoTime() < deadline && told.stream().anyMatch(r -> FileLink.announced(directory, r))) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
