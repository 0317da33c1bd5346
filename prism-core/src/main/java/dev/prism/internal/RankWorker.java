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

    private final String host;
    private final int port;
    private final int rank;

    /**
     * @param host the coordinator's host
     * @param port the coordinator's port
     * @param rank this rank
     */
    public RankWorker(String host, int port, int rank) {
        this.host = host;
        this.port = port;
        this.rank = rank;
    }

    /**
     * Serves plans until told to exit.
     *
     * @param connectTimeout how long to keep trying to reach the coordinator
     * @throws PrismException naming the address when the coordinator cannot be reached in time
     */
    public void serve(Duration connectTimeout) throws IOException, InterruptedException {
        try (Wire wire = connect(connectTimeout)) {
            wire.send(Wire.message("hello").put("rank", rank).put("host", HostProbe.hostname())
                    .put("pid", ProcessHandle.current().pid()));
            while (true) {
                JsonNode m = wire.receive();
                if (m == null || "exit".equals(m.path("type").asText())) {
                    return;
                }
                if ("plan".equals(m.path("type").asText())) {
                    RankResult result = runPlan(wire, m);
                    wire.send(Wire.message("result").put("document",
                            ResultJson.rankToJson("", "", 0, 0, result)));
                }
            }
        }
    }

    private Wire connect(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 2_000);
                return new Wire(socket);
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

    private RankResult runPlan(Wire wire, JsonNode message) throws InterruptedException {
        ScenarioListener forwardStalls = new ScenarioListener() {
            @Override
            public void stallDetected(Stall stall) {
                try {
                    wire.send(Wire.message("stall").put("operation", stall.operation()).put("path", stall.path())
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
        private final Wire wire;
        private final Instant deadline;

        RemoteSync(Wire wire, Instant deadline) {
            this.wire = wire;
            this.deadline = deadline;
        }

        @Override
        public void await(int rank, String name) {
            try {
                wire.send(Wire.message("barrier").put("rank", rank).put("name", name));
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
                wire.send(Wire.message("abort").put("reason", reason));
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
     * Entry point of a rank process: {@code RankWorker HOST PORT RANK [CONNECT_TIMEOUT_SECONDS]}.
     * Exit codes: 0 done, 3 could not reach the coordinator, 1 anything else.
     */
    public static void main(String[] args) {
        int rank = Integer.parseInt(args[2]);
        Duration connect = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 60);
        try {
            new RankWorker(args[0], Integer.parseInt(args[1]), rank).serve(connect);
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
