package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.Status;
import dev.prism.internal.output.ResultJson;
import dev.prism.testing.Await;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The coordinator before a peer has proved itself (issue 55): a flood from one address holds only that address's slots,
 * so a rank elsewhere still joins, and is counted by address in the run's notes; what refused peers sent is never kept
 * (132k hellos with a new version string each grew rank 0 by 1.6 GB and put 30 million characters into its result);
 * and a rank of another SLURM step with the same secret is not taken for one of this step. All on loopback: 127.0.0.2
 * is another address of this host.
 */
@org.junit.jupiter.api.Tag("timing")
class PreAuthenticationTest {
    /** Another address of this host (Linux routes all of 127.0.0.0/8 to the loopback) */
    private static final InetAddress FLOODER = address("127.0.0.2");
    /** Each task in a thread of its own: the common pool may have one thread on a small machine */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> {
        Thread t = new Thread(task, "pre-auth-test");
        t.setDaemon(true);
        t.start();
    };

    @Test
    void aFloodFromOneAddress_holdsOnlyItsSlots_aRankElsewhereJoinsDuringIt_andTheFloodIsCountedByAddress()
            throws Exception {
        RunSecret secret = RunSecret.generate();
        List<String> told = new CopyOnWriteArrayList<>();
        int flood = Coordinator.MAX_PENDING + 100; // more than every slot there is
        List<Socket> silent = new ArrayList<>();
        // the flood's connections are never closed by their deadline while the test runs: the rank joins during it
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress("127.0.0.1", 0), 2, secret)
                .authenticateWithin(Duration.ofHours(1))) {
            coordinator.reportRefusalsTo(told::add);
            flood(coordinator, FLOODER, flood, silent);
            Await.until("the coordinator closed the flood's oldest beyond its address's slots",
                    () -> coordinator.refusedSoFar() == flood - Coordinator.SLOTS_PER_ADDRESS);
            rankJoinsAndPasses(coordinator, secret, "rank 1 joined while the flood held its slots");
            assertThat(coordinator.refusedSoFar()).as("the flood still holds its slots, uncounted")
                    .isEqualTo(flood - Coordinator.SLOTS_PER_ADDRESS);
            for (Socket s : silent) {
                s.close();
            }
            Await.until("the flood's last connections are counted", () -> coordinator.refusedSoFar() == flood);
            String note = coordinator.takeRefusals().orElseThrow();
            assertThat(note).isEqualTo(String.format(java.util.Locale.ROOT, "%,d connections refused from %s: not of"
                            + " this run (%,d closed unproven to make room for a newer connection, %d closed the"
                            + " connection before it proved itself)", flood, FLOODER.getHostAddress(),
                    flood - Coordinator.SLOTS_PER_ADDRESS, Coordinator.SLOTS_PER_ADDRESS));
            assertThat(told).as("stderr: the first few as they came, then the count by address").hasSize(6)
                    .endsWith(note);
            assertThat(told.subList(0, 5)).allSatisfy(line -> assertThat(line)
                    .startsWith("refused " + FLOODER.getHostAddress() + ":")
                    .contains(": closed unproven to make room for a newer connection"));
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
    }

    @Test
    void aFloodFromTwoAddresses_fillingEverySlot_stillLetsARankOfAThirdAddressJoin() throws Exception {
        RunSecret secret = RunSecret.generate();
        InetAddress second = address("127.0.0.3");
        int each = Coordinator.SLOTS_PER_ADDRESS + 50; // together more than every slot there is
        List<Socket> silent = new ArrayList<>();
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress("127.0.0.1", 0), 2, secret)
                .authenticateWithin(Duration.ofHours(1))) {
            flood(coordinator, FLOODER, each, silent);
            flood(coordinator, second, each, silent);
            Await.until("both floods hold their addresses' slots, every slot taken",
                    () -> coordinator.refusedSoFar() == 2L * (each - Coordinator.SLOTS_PER_ADDRESS));
            rankJoinsAndPasses(coordinator, secret, "rank 1, from a third address, joined while two floods held every slot");
            assertThat(coordinator.refusedSoFar()).as("room was made by closing one flood connection, counted")
                    .isEqualTo(2L * (each - Coordinator.SLOTS_PER_ADDRESS) + 1);
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
    }

    @Test
    void aFloodFromTheRanksOwnAddress_stillLetsTheRankJoin() throws Exception {
        RunSecret secret = RunSecret.generate();
        InetAddress own = address("127.0.0.1");
        int flood = Coordinator.MAX_PENDING + 100;
        List<Socket> silent = new ArrayList<>();
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress("127.0.0.1", 0), 2, secret)
                .authenticateWithin(Duration.ofHours(1))) {
            flood(coordinator, own, flood, silent);
            Await.until("the flood holds every slot of the rank's own address",
                    () -> coordinator.refusedSoFar() == flood - Coordinator.SLOTS_PER_ADDRESS);
            rankJoinsAndPasses(coordinator, secret, "rank 1 joined from the address a flood fills");
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
    }

    /** A real rank 1 joins ({@code joined} says why that matters), runs and reports, and the run passes. */
    private static void rankJoinsAndPasses(Coordinator coordinator, RunSecret secret, String joined) throws Exception {
        CompletableFuture<String> rank = RealRank.start(coordinator.port(), 1, secret);
        assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plus(Await.PATIENCE), r -> rank.isDone()))
                .as(joined).isEmpty();
        assertThat(execute(coordinator).get(1).status()).isEqualTo(Status.PASS);
        assertThat(rank.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("reported");
    }

    /** Opens {@code count} connections from {@code from} to the coordinator that never say a word. */
    private static void flood(Coordinator coordinator, InetAddress from, int count, List<Socket> silent)
            throws IOException {
        for (int i = 0; i < count; i++) {
            Socket s = new Socket();
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress("127.0.0.1", coordinator.port()));
            silent.add(s);
        }
    }

    @Test
    void hellosWithANewVersionStringEach_areCountedUnderOneReason_andNoneOfTheirTextIsKept() throws Exception {
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress("127.0.0.1", 0), 2, RunSecret.generate())) {
            List<String> told = new CopyOnWriteArrayList<>();
            coordinator.reportRefusalsTo(told::add);
            String few = refuseVersions(coordinator, 0, 10);
            String many = refuseVersions(coordinator, 10, 1_010);
            assertThat(few).isEqualTo("10 connections refused from 127.0.0.1: not of this run (10 ran another PRISM"
                    + " version)");
            assertThat(many).isEqualTo("1,000 connections refused from 127.0.0.1: not of this run (1,000 ran another"
                    + " PRISM version)");
            assertThat(many.length() - few.length()).as("the record grows by the digits of its counts, not per hello")
                    .isEqualTo(6);
            assertThat(told).hasSize(7).noneMatch(line -> line.contains("peer-text"));
        }
    }

    /** Sends hellos {@code from} to {@code to}, each of another PRISM version; @return the refusals counted for them */
    private static String refuseVersions(Coordinator coordinator, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            try (Socket s = new Socket("127.0.0.1", coordinator.port())) {
                send(s, Channel.message("hello").put("protocol", Handshake.PROTOCOL).put("version", "peer-text-" + i + "-"
                        + "x".repeat(200)).put("rank", 1).put("nonce", HexFormat.of().formatHex(new byte[16])).toString());
                assertThat(readLine(s)).as("the coordinator's answer").contains("\"refused\"");
            }
        }
        Await.until("every hello is counted", () -> coordinator.refusedSoFar() == to - from);
        return coordinator.takeRefusals().orElseThrow();
    }

    /**
     * A rank of step 4242.0 whose connection is relayed to step 4242.1's coordinator, both with one secret (a long-lived
     * {@code ~/.prism/run-secret}): the coordinator's proof is bound to its own step, so the rank refuses it and never
     * proves itself there, and that coordinator has no rank 1.
     */
    @Test
    void aRankOfAnotherStep_relayedToThisStepsCoordinator_isNotTakenForOneOfItsRanks() throws Exception {
        String hex = RunSecret.generate().hex();
        RunSecret stepA = RunSecret.forStep(Map.of(RunSecret.ENVIRONMENT, hex, "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0"));
        RunSecret stepB = RunSecret.forStep(Map.of(RunSecret.ENVIRONMENT, hex, "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "1"));
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress("127.0.0.1", 0), 2, stepB);
             ServerSocket relay = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> relayed = CompletableFuture.runAsync(() -> {
                try (Socket rank = relay.accept(); Socket onward = new Socket("127.0.0.1", coordinator.port())) {
                    CompletableFuture<Void> up = CompletableFuture.runAsync(() -> pump(rank, onward), OWN_THREAD);
                    pump(onward, rank);
                    up.join();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, OWN_THREAD);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), relay.getLocalPort())) {
                assertThatThrownBy(() -> Handshake.joinOverTcp(socket, stepA, 1, Await.PATIENCE.toMillis()))
                        .isInstanceOf(PrismException.class).hasMessageContaining("did not prove it belongs to this run");
            }
            relayed.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
            Await.until("the relayed peer is counted", () -> coordinator.refusedSoFar() == 1);
            assertThat(coordinator.connected()).as("step 4242.1 has no rank 1").isEmpty();
            assertThat(coordinator.takeRefusals()).hasValue("1 connection refused from 127.0.0.1: not of this run (1 closed"
                    + " the connection before it proved itself)");
            // the same secret within one step still works
            CompletableFuture<String> rank = RealRank.start(coordinator.port(), 1, stepB);
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plus(Await.PATIENCE), r -> rank.isDone())).isEmpty();
            execute(coordinator);
            assertThat(rank.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("reported");
        }
    }

    /** Copies {@code from} to {@code to} until {@code from} ends, then ends {@code to}'s output. */
    private static void pump(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed: the relay is over
        }
    }

    /** Runs a plan with rank 0 in this thread passing its barrier at once, rank 1 remote. */
    private static Map<Integer, RankResult> execute(Coordinator coordinator) throws InterruptedException {
        return ForgedPeerTest.execute(coordinator, 2, Await.PATIENCE);
    }

    /**
     * A rank of the run in a thread of its own: joins (trying again while the coordinator turns it away), takes its plan,
     * meets rank 0 at a barrier and reports. What it found, or its failure, reaches the test through the future.
     */
    private static final class RealRank {
        static CompletableFuture<String> start(int port, int rank, RunSecret secret) {
            return CompletableFuture.supplyAsync(() -> {
                try (Channel wire = join(port, rank, secret)) {
                    if (!"plan".equals(next(wire).path("type").asText())) {
                        return "no plan";
                    }
                    wire.send(Channel.message("barrier").put("rank", rank).put("name", "b"));
                    if (!"released".equals(next(wire).path("type").asText())) {
                        return "not released";
                    }
                    RankResult result = new RankResult(rank, "real-rank", Status.PASS, null, 1, Map.of(), Map.of(), List.of());
                    wire.send(Channel.message("result").put("document", ResultJson.rankToJson("", "", 0, 0, result)));
                    return "reported";
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, OWN_THREAD);
        }

        private static Channel join(int port, int rank, RunSecret secret) throws Exception {
            long deadline = System.nanoTime() + Await.PATIENCE.toNanos();
            while (true) {
                Socket socket = new Socket("127.0.0.1", port);
                try {
                    return Handshake.joinOverTcp(socket, secret, rank, Await.PATIENCE.toMillis());
                } catch (IOException e) {
                    socket.close(); // turned away: tried again, as RankWorker does
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                }
            }
        }

        private static JsonNode next(Channel wire) throws IOException {
            JsonNode m = wire.receive();
            while (m != null && Heartbeat.isPing(m)) {
                m = wire.receive();
            }
            return m == null ? Channel.message("closed") : m;
        }
    }

    private static void send(Socket socket, String line) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** @return one line, read byte by byte; null at the end of the stream */
    private static String readLine(Socket socket) throws IOException {
        socket.setSoTimeout((int) Await.PATIENCE.toMillis());
        InputStream in = socket.getInputStream();
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.write(b);
        }
        return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
