package dev.prism.internal.coordination;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.PrismException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.IntPredicate;

/**
 * How a rank and the coordinator prove to each other that both belong to the run before either believes the other,
 * with the run's {@link RunSecret} and two fresh nonces (so nothing recorded from another connection can be replayed):
 * <ol>
 *   <li>rank: {@code hello} with the protocol, its PRISM version, its rank and its nonce;</li>
 *   <li>coordinator: {@code challenge} with its own nonce and a proof (a keyed digest of both nonces, the secret's
 *       binding — the SLURM job and step, or the run — and the rank), or {@code refused} with why (another PRISM
 *       version, a rank out of range);</li>
 *   <li>rank: checks the proof, then {@code proof} with its host and pid and its own proof of the same;</li>
 *   <li>coordinator: checks it, then {@code admitted}, the first sealed message. A rank that hears nothing (the
 *       coordinator gave up on it at its deadline) tries again instead of taking itself for admitted.</li>
 * </ol>
 * Both then seal every message with a session key drawn from the secret, its binding and both nonces
 * ({@link SealedChannel}). A rank of another step that shares the secret is refused by this step's coordinator, and
 * refuses it. Lines before that are at most {@value #MAX_HANDSHAKE_BYTES} bytes, and the coordinator keeps none of what
 * a refused peer sent: it counts it under a {@link Refusal}.
 */
public final class Handshake {
    /** The version of the messages ranks and the coordinator exchange. */
    static final int PROTOCOL = 3;
    /** The longest line accepted before a peer has proved itself. */
    static final int MAX_HANDSHAKE_BYTES = 4096;
    /** The longest message accepted from a peer that proved itself: a rank's result document with its histograms. */
    static final int MAX_MESSAGE_BYTES = 256 << 20;
    private static final int NONCE_BYTES = 16;
    private static final HexFormat HEX = HexFormat.of();

    private Handshake() {
    }

    /**
     * A rank joins the coordinator over {@code socket}, connected already.
     *
     * @throws PrismException when the coordinator refused this rank or did not prove it belongs to the run
     * @throws IOException    when the connection closed or timed out before the handshake ended (worth another try)
     */
    public static Channel joinOverTcp(java.net.Socket socket, RunSecret secret, int rank, long millis) throws IOException {
        String where = socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        return asRank(new TcpLink(socket), secret, rank, HostProbe.hostname(), ProcessHandle.current().pid(), millis, where);
    }

    /**
     * A rank joins the coordinator through message files in {@code directory} (made private when missing; refused when
     * another user made it).
     *
     * @throws java.net.SocketTimeoutException when the coordinator did not answer within {@code millis}
     */
    public static Channel joinThroughFiles(java.nio.file.Path directory, RunSecret secret, int rank, long millis)
            throws IOException {
        FileLink link = FileLink.forRank(PrivateDirectory.ensure(directory), rank);
        try {
            return asRank(link, secret, rank, HostProbe.hostname(), ProcessHandle.current().pid(), millis, "directory " + directory);
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** @return this build's version as ranks compare it: a rank of another build is refused */
    static String version() {
        return HostProbe.prismVersion() + " (" + HostProbe.prismCommit() + ")";
    }

    /** A rank that proved it belongs to the run, and its sealed channel. */
    record Admission(int rank, String host, long pid, SealedChannel channel) {
    }

    /**
     * The rank's side.
     *
     * @param coordinator the coordinator's address or directory, for messages
     * @return the sealed channel to the coordinator
     * @throws PrismException when the coordinator refused this rank or did not prove it belongs to the run
     * @throws IOException    when the link closed or timed out before the handshake ended (worth another try)
     */
    static SealedChannel asRank(LineLink link, RunSecret secret, int rank, String host, long pid, long millis,
                                String coordinator) throws IOException {
        byte[] own = RunSecret.randomBytes(NONCE_BYTES);
        link.write(Channel.message("hello").put("protocol", PROTOCOL).put("version", version()).put("rank", rank)
                .put("nonce", HEX.formatHex(own)).toString());
        String line = link.read(millis, MAX_HANDSHAKE_BYTES);
        if (line == null) {
            throw new java.io.EOFException("the coordinator at " + coordinator + " closed the connection before it answered");
        }
        JsonNode challenge = parse(line);
        if (challenge != null && "refused".equals(challenge.path("type").asText())) {
            throw new PrismException("rank " + rank + " was refused by the coordinator at " + coordinator + ": "
                    + challenge.path("reason").asText("no reason given"));
        }
        byte[] theirs = nonce(challenge);
        byte[] proof = hexOrNull(challenge == null ? null : challenge.path("proof").asText(null));
        if (theirs == null || proof == null || !"challenge".equals(challenge.path("type").asText())) {
            throw new PrismException("rank " + rank + " got no challenge from the coordinator at " + coordinator
                    + " but something else: it does not speak PRISM's protocol " + PROTOCOL + "; refused");
        }
        if (!MessageDigest.isEqual(proof, secret.mac(utf8("coordinator"), own, theirs, bound(secret, rank)))) {
            throw new PrismException("the coordinator at " + coordinator + " did not prove it belongs to this run (its proof"
                    + " does not match this rank's run secret for this job and step): refused, nothing it says is"
                    + " obeyed. Do all tasks have the same " + RunSecret.ENVIRONMENT + ", and is it their own step's?");
        }
        link.write(Channel.message("proof").put("host", host).put("pid", pid).put("proof", HEX.formatHex(
                secret.mac(utf8("rank"), theirs, own, bound(secret, rank), utf8(host), utf8(String.valueOf(pid)))))
                .toString());
        SealedChannel channel = new SealedChannel(link, secret.mac(utf8("session"), own, theirs, bound(secret, rank)), true);
        JsonNode admitted;
        try {
            admitted = channel.receive(millis);
        } catch (ProtocolViolation e) {
            throw new PrismException("rank " + rank + " was not admitted by the coordinator at " + coordinator
                    + ": it answered this rank's proof with no sealed message (it refused the proof)");
        }
        if (admitted == null) {
            throw new java.io.EOFException("the coordinator at " + coordinator + " closed the connection before it admitted"
                    + " rank " + rank + " (it gave up waiting for the rank's proof)");
        }
        if (!"admitted".equals(admitted.path("type").asText())) {
            throw new PrismException("rank " + rank + " got '" + printable(admitted.path("type").asText()) + "' from the"
                    + " coordinator at " + coordinator + " instead of being admitted: it runs another protocol");
        }
        return channel;
    }

    /**
     * The coordinator's side.
     *
     * @param accepted which ranks may connect (in the step's range)
     * @param millis   how long the peer has, from now, to prove itself
     * @return the rank that proved itself
     * @throws Refusal.Refused saying why the peer was refused, from a fixed set (it was told where that helps a real
     *                         rank: another version, a rank out of range, a secret that differs); nothing it sent is
     *                         kept
     */
    static Admission asCoordinator(LineLink link, RunSecret secret, IntPredicate accepted, long millis)
            throws Refusal.Refused {
        long deadline = System.nanoTime() + millis * 1_000_000;
        JsonNode hello = parse(readBefore(link, deadline));
        if (hello == null || !"hello".equals(hello.path("type").asText())) {
            throw new Refusal.Refused(Refusal.NOT_PRISM);
        }
        int rank = hello.path("rank").isInt() ? hello.path("rank").asInt() : -1;
        if (hello.path("protocol").asInt(1) != PROTOCOL || !version().equals(hello.path("version").asText())) {
            // the peer is told its own words back, cut short; nothing of them is kept here
            refuse(link, "rank " + printable(hello.path("rank").asText("?")) + " runs PRISM "
                    + printable(hello.path("version").asText("of protocol 1")) + ", rank 0 runs PRISM " + version()
                    + ": every rank of a run must run the same PRISM");
            throw new Refusal.Refused(Refusal.VERSION);
        }
        if (!accepted.test(rank)) {
            refuse(link, "rank " + printable(hello.path("rank").asText()) + " is not a rank this run waits for");
            throw new Refusal.Refused(Refusal.RANK);
        }
        byte[] theirs = nonce(hello);
        if (theirs == null) {
            throw new Refusal.Refused(Refusal.NOT_PRISM);
        }
        byte[] own = RunSecret.randomBytes(NONCE_BYTES);
        try {
            link.write(Channel.message("challenge").put("protocol", PROTOCOL).put("version", version())
                    .put("nonce", HEX.formatHex(own))
                    .put("proof", HEX.formatHex(secret.mac(utf8("coordinator"), theirs, own, bound(secret, rank))))
                    .toString());
        } catch (IOException e) {
            throw new Refusal.Refused(Refusal.CLOSED);
        }
        JsonNode answer = parse(readBefore(link, deadline));
        String host = answer == null ? "" : answer.path("host").asText("");
        long pid = answer == null ? -1 : answer.path("pid").asLong(-1);
        byte[] proof = hexOrNull(answer == null ? null : answer.path("proof").asText(null));
        if (proof == null || host.isEmpty() || host.length() > 255 || !"proof".equals(answer.path("type").asText())
                || !MessageDigest.isEqual(proof, secret.mac(utf8("rank"), own, theirs, bound(secret, rank),
                utf8(host), utf8(String.valueOf(pid))))) {
            refuse(link, "did not prove it belongs to this run, as rank " + rank + " (its proof does not match the run"
                    + " secret for this job and step): is " + RunSecret.ENVIRONMENT + " the same for every task, and"
                    + " did it reach the coordinator of its own step?");
            throw new Refusal.Refused(Refusal.PROOF);
        }
        SealedChannel channel = new SealedChannel(link, secret.mac(utf8("session"), theirs, own, bound(secret, rank)), false);
        try {
            channel.send(Channel.message("admitted"));
        } catch (IOException e) {
            throw new Refusal.Refused(Refusal.CLOSED);
        }
        return new Admission(rank, host, pid, channel);
    }

    /** @return the next line, if it comes before {@code deadline} (System.nanoTime()) */
    private static String readBefore(LineLink link, long deadline) throws Refusal.Refused {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new Refusal.Refused(Refusal.TIMEOUT);
        }
        String line;
        try {
            line = link.read(left, MAX_HANDSHAKE_BYTES);
        } catch (java.net.SocketTimeoutException e) {
            throw new Refusal.Refused(Refusal.TIMEOUT);
        } catch (ProtocolViolation e) {
            throw new Refusal.Refused(Refusal.NOT_PRISM); // a line over the limit
        } catch (IOException e) {
            throw new Refusal.Refused(Refusal.CLOSED); // reset
        }
        if (line == null) {
            throw new Refusal.Refused(Refusal.CLOSED);
        }
        return line;
    }

    /** @return what a proof is bound to besides the nonces: the secret's job and step (or run), and the rank */
    private static byte[] bound(RunSecret secret, int rank) {
        return utf8(secret.binding() + "\n" + rank);
    }

    private static void refuse(LineLink link, String why) {
        try {
            link.write(Channel.message("refused").put("reason", why).toString());
        } catch (IOException e) {
            // it is gone already
        }
    }

    private static JsonNode parse(String line) {
        try {
            JsonNode node = Channel.MAPPER.readTree(line);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static byte[] nonce(JsonNode message) {
        byte[] nonce = hexOrNull(message == null ? null : message.path("nonce").asText(null));
        return nonce != null && nonce.length == NONCE_BYTES ? nonce : null;
    }

    private static byte[] hexOrNull(String text) {
        if (text == null || text.length() > 256 || text.length() % 2 != 0) {
            return null;
        }
        try {
            return HEX.parseHex(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** @return {@code text} cut to 64 characters, control characters replaced: a peer's words go into our messages */
    static String printable(String text) {
        String cut = text.length() > 64 ? text.substring(0, 64) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
