package dev.prism.internal;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The coordinator ranks in other processes connect to: it hands each a plan, answers their barriers
 * through one {@link RankBarrier} (so waits end by the deadline and name who never came), and
 * gathers their results. A rank whose connection drops aborts the barrier at once, so the others
 * do not wait for it.
 */
public final class TcpCoordinator implements AutoCloseable {
    private final ServerSocket server;
    private final Map<Integer, Wire> ranks = new ConcurrentHashMap<>();
    private final Thread acceptor;

    /** Listens on {@code address} (port 0: any free port). */
    public TcpCoordinator(InetSocketAddress address) {
        try {
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(address, 1024);
        } catch (IOException e) {
            throw new PrismException("the coordinator cannot listen on " + address + ": " + e.getMessage(), e);
        }
        acceptor = new Thread(this::acceptLoop, "prism-coordinator-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the port it listens on */
    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread hello = new Thread(() -> register(socket), "prism-coordinator-hello");
                hello.setDaemon(true);
                hello.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void register(Socket socket) {
        try {
            Wire wire = new Wire(socket);
            JsonNode hello = wire.receive(30_000);
            if (hello == null || !"hello".equals(hello.path("type").asText())) {
                wire.close();
                return;
            }
            Wire previous = ranks.put(hello.path("rank").asInt(), wire);
            if (previous != null) {
                previous.close();
            }
            synchronized (ranks) {
                ranks.notifyAll();
            }
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing more to do with a socket that failed its hello
            }
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
        Map<Integer, RankResult> results = new ConcurrentHashMap<>();
        List<Thread> handlers = new ArrayList<>();
        for (int rank : remote) {
            Wire wire = ranks.get(rank);
            Thread handler = new Thread(() -> serve(rank, wire, plan, barrier, listener, results), "prism-coordinator-rank-" + rank);
            handler.setDaemon(true);
            handlers.add(handler);
            handler.start();
        }
        for (Thread handler : handlers) {
            long wait = until.toEpochMilli() - System.currentTimeMillis();
            if (wait > 0) {
                handler.join(wait);
            }
        }
        for (int i = 0; i < handlers.size(); i++) {
            if (handlers.get(i).isAlive()) {
                // a rank that has not reported by now is hung: drop its connection so its handler ends
                barrier.expire();
                Wire wire = ranks.remove(new ArrayList<>(remote).get(i));
                if (wire != null) {
                    wire.close();
                }
            }
        }
        return results;
    }

    private void serve(int rank, Wire wire, RunPlan plan, RankBarrier barrier, ScenarioListener listener,
                       Map<Integer, RankResult> results) {
        try {
            wire.send(PlanCodec.encode(plan));
            while (true) {
                JsonNode m = wire.receive();
                if (m == null) {
                    throw new SocketException("connection closed");
                }
                switch (m.path("type").asText()) {
                    case "barrier" -> {
                        try {
                            barrier.await(rank, m.path("name").asText());
                            wire.send(Wire.message("released"));
                        } catch (RankAbortedException e) {
                            wire.send(Wire.message("aborted").put("reason", e.getMessage()));
                        }
                    }
                    case "abort" -> barrier.abort(m.path("reason").asText());
                    case "stall" -> listener.stallDetected(new Stall(rank, m.path("operation").asText(),
                            m.path("path").isNull() ? null : m.path("path").asText(), Instant.now(),
                            m.path("durationNanos").asLong(), false));
                    case "result" -> {
                        results.put(rank, ResultJson.rankFromJson(m.path("document").asText()));
                        return;
                    }
                    default -> throw new IOException("unexpected message " + m);
                }
            }
        } catch (IOException e) {
            barrier.abort("rank " + rank + " lost its connection to the coordinator (" + e.getMessage() + ")");
            ranks.remove(rank, wire);
            wire.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return a FAIL result for a rank that never reported */
    public static RankResult missing(int rank, Failure.Kind kind, String message) {
        return new RankResult(rank, "?", Status.FAIL, new Failure(kind, message, rank), 0, Map.of(), Map.of(), List.of());
    }

    /** @return the ranks connected now, sorted */
    public TreeSet<Integer> connected() {
        return new TreeSet<>(ranks.keySet());
    }

    /** Tells every connected rank to exit, then stops listening. */
    @Override
    public void close() {
        for (Wire wire : ranks.values()) {
            try {
                wire.send(Wire.message("exit"));
            } catch (IOException e) {
                // already gone
            }
            wire.close();
        }
        ranks.clear();
        try {
            server.close();
        } catch (IOException e) {
            // stopping anyway
        }
    }
}
