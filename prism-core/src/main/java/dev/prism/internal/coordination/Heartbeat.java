package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The liveness rule between the coordinator and its ranks over TCP. Each end sends a {@code ping} every
 * {@link #INTERVAL_MILLIS} from a thread that does nothing else. An end that has heard nothing for the run's silence
 * limit does not take the other for dead on that alone: a busy node, a long GC pause or a stopped process are silent
 * too. It first asks the other end's kernel, which answers even when the process cannot ({@link #nodeAnswers}): a
 * node that answers is slow and is waited for (up to the run's deadline); one that does not is down, or its network
 * is.
 */
public final class Heartbeat {
    /** How often each end pings. */
    public static final long INTERVAL_MILLIS = 2_000;
    /** How long the kernel of a node that is up takes at most to answer a connection attempt. */
    static final int PROBE_MILLIS = 3_000;

    private Heartbeat() {
    }

    /** @return whether {@code message} is a ping, which only says the sender is alive */
    public static boolean isPing(JsonNode message) {
        return "ping".equals(message.path("type").asText());
    }

    /** @return a ping */
    static com.fasterxml.jackson.databind.node.ObjectNode ping() {
        return Channel.message("ping");
    }

    /**
     * Asks the kernel of the node at {@code address} whether it is there: a connection attempt it accepts (a listening
     * port: the kernel completes it even while the process is stopped or starved) or refuses (no listener there) says
     * the node is up; no answer within {@link #PROBE_MILLIS} (or no route to it) says it is not, or its network is
     * down. A firewall that drops connection attempts silently would read as "down": the silence limit is then the
     * only rule, as before.
     *
     * @return null when the node answered, else what happened (e.g. {@code connect timed out})
     */
    public static String nodeAnswers(InetSocketAddress address) {
        try (Socket probe = new Socket()) {
            probe.connect(address, PROBE_MILLIS);
            return null;
        } catch (ConnectException e) {
            String message = String.valueOf(e.getMessage());
            return message.contains("refused") ? null : message;
        } catch (IOException e) {
            return String.valueOf(e.getMessage());
        }
    }

    /**
     * @return whether the process {@code pid} of this host is alive and not a zombie (a stopped or starved one is
     *         alive: slow, not dead)
     */
    static boolean processAlive(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", String.valueOf(pid), "stat"));
            String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
            return !state.equals("Z") && !state.equals("X");
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
    }
}
