package dev.prism.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.Stall;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A rank in its own process: connects to the coordinator (retrying until a deadline), then runs each
 * plan it is sent, meeting the other ranks through the coordinator, and sends its result back. Exits
 * when told to or when the coordinator goes away.
 */
public final class RankWorker {
    /** How long a stuck rank gets after its deadline before the process gives up on it. */
    private static final long GRACE_MILLIS = 2_000;

    private final Rendezvous rendezvous;
    private final int rank;

    /**
     * @param rendezvous where the coordinator is
     * @param rank       this rank
     */
    public RankWorker(Rendezvous rendezvous, int rank) {
        this.rendezvous = rendezvous;
        this.rank = rank;
    }

    /** A worker for the coordinator at {@code host:port}. */
    public RankWorker(String host, int port, int rank) {
        this(Rendezvous.tcp(host, port), rank);
    }

    /**
     * Serves plans until told to exit, or until the coordinator has been silent for {@code connectTimeout}
     * (so no worker waits forever for a coordinator that died).
     *
     * @param connectTimeout how long to keep trying to reach the coordinator, and to wait for its next word
     * @throws PrismException naming the address when the coordinator cannot be reached in time
     */
    public void serve(Duration connectTimeout) throws IOException, InterruptedException {
        try (Channel wire = rendezvous.isDirectory() ? DirectoryChannel.forRank(rendezvous.directory(), rank)
                : connect(connectTimeout)) {
            wire.send(Channel.message("hello").put("rank", rank).put("host", HostProbe.hostname())
                    .put("pid", ProcessHandle.current().pid()));
            boolean heard = false;
            while (true) {
                JsonNode m;
                try {
                    m = wire.receive(connectTimeout.toMillis());
                } catch (SocketTimeoutException e) {
                    throw new PrismException("rank " + rank + (heard ? " heard nothing more from" : " got no plan from")
                            + " the coordinator at " + rendezvous + " within " + Durations.format(connectTimeout));
                }
                heard = true;
                if (m == null || "exit".equals(m.path("type").asText())) {
                    return;
                }
                if ("plan".equals(m.path("type").asText())) {
                    RankResult result = runPlan(wire, m);
                    wire.send(Channel.message("result").put("document",
                            ResultJson.rankToJson("", "", 0, 0, result)));
                }
            }
        }
    }

    private Channel connect(Duration timeout) throws InterruptedException {
        String host = rendezvous.host();
        int port = rendezvous.port();
        Instant deadline = Instant.now().plus(timeout);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 2_000);
                return new TcpChannel(socket);
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

    private RankResult runPlan(Channel wire, JsonNode message) throws InterruptedException {
        ScenarioListener forwardStalls = new ScenarioListener() {
            @Override
            public void stallDetected(Stall stall) {
                try {
                    wire.send(Channel.message("stall").put("operation", stall.operation()).put("path", stall.path())
                            .put("durationNanos", stall.durationNanos()));
                } catch (IOException e) {
                    // the coordinator is gone; the rank will find out at its next barrier
                }
            }
        };
        RunPlan plan = PlanCodec.decode(message, forwardStalls);
        RemoteSync sync = new RemoteSync(wire, plan.deadline());
        try (StallMonitor monitor = new StallMonitor(plan.stallThreshold().toNanos(), forwardStalls)) {
            RankExecution execution = new RankExecution(plan, rank, sync, monitor);
            AtomicReference<RankResult> result = new AtomicReference<>();
            Thread thread = new Thread(() -> result.set(execution.run()), "prism-rank-" + rank);
            thread.setDaemon(true);
            thread.start();
            thread.join(Math.max(1, Duration.between(Instant.now(), plan.deadline()).toMillis()) + GRACE_MILLIS);
            if (thread.isAlive()) {
                execution.markTimedOut();
                thread.interrupt();
                thread.join(GRACE_MILLIS);
            }
            return result.get() != null ? result.get() : execution.unfinished();
        }
    }

    /** Barriers through the coordinator, each ending by the run's deadline. */
    private static final class RemoteSync implements RankSync {
        private final Channel wire;
        private final Instant deadline;

        RemoteSync(Channel wire, Instant deadline) {
            this.wire = wire;
            this.deadline = deadline;
        }

        @Override
        public void await(int rank, String name) {
            try {
                wire.send(Channel.message("barrier").put("rank", rank).put("name", name));
                long wait = Duration.between(Instant.now(), deadline).toMillis() + GRACE_MILLIS;
                JsonNode reply = wire.receive(Math.max(1, wait));
                if (reply == null) {
                    throw new RankAbortedException("the coordinator went away during barrier '" + name + "'");
                }
                if ("aborted".equals(reply.path("type").asText())) {
                    throw new RankAbortedException("stopped at barrier '" + name + "': " + reply.path("reason").asText());
                }
            } catch (SocketTimeoutException e) {
                throw new RankAbortedException("the coordinator did not release barrier '" + name + "' by the run's deadline");
            } catch (IOException e) {
                throw new RankAbortedException("lost the coordinator at barrier '" + name + "': " + e.getMessage());
            }
        }

        @Override
        public void abort(String reason) {
            try {
                wire.send(Channel.message("abort").put("reason", reason));
            } catch (IOException e) {
                // the coordinator is gone: nothing to tell
            }
        }

        @Override
        public void expire() {
            // the coordinator owns the deadline of every barrier
        }
    }

    /**
     * Entry point of a rank process: {@code RankWorker HOST PORT RANK [CONNECT_TIMEOUT_SECONDS]}, or
     * {@code RankWorker dir:DIRECTORY 0 RANK [CONNECT_TIMEOUT_SECONDS]} to meet through files.
     * Exit codes: 0 done, 3 could not reach the coordinator, 1 anything else.
     */
    public static void main(String[] args) {
        int rank = Integer.parseInt(args[2]);
        Duration connect = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 60);
        Rendezvous rendezvous = args[0].startsWith("dir:") ? Rendezvous.directory(java.nio.file.Path.of(args[0].substring(4)))
                : Rendezvous.tcp(args[0], Integer.parseInt(args[1]));
        try {
            new RankWorker(rendezvous, rank).serve(connect);
            System.exit(0);
        } catch (PrismException e) {
            System.err.println("prism: " + e.getMessage());
            System.exit(3);
        } catch (Exception e) {
            System.err.println("prism: rank " + rank + " failed: " + e);
            System.exit(1);
        }
    }
}
