package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.Benchmarks;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.Status;
import dev.prism.internal.output.ResultJson;
import dev.prism.internal.rank.RankWorker;
import dev.prism.testing.Await;
import dev.prism.testing.CheckedThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A hostile user of the same cluster against the coordinator: a client that speaks PRISM's wire format but does not
 * know the run's secret (forged hello and result, silent and huge connections), a rank that sends what the protocol
 * does not have, a rank of another version, a coordinator that is not the run's, and meeting directories made by
 * another user. Each was accepted, believed or waited on before the handshake (issue 38).
 */
@org.junit.jupiter.api.Tag("timing")
class ForgedPeerTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void aPeerWithoutTheSecret_isRefused_andTheRealRanksResultIsTheOneKept() throws Exception {
        RunSecret secret = RunSecret.generate();
        List<String> told = new CopyOnWriteArrayList<>();
        CheckedThread real;
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, secret)) {
            coordinator.reportRefusalsTo(told::add);
            // the forger first: it claims rank 1 and answers the challenge with a proof made without the secret
            try (Socket forger = new Socket(InetAddress.getLoopbackAddress(), coordinator.port())) {
                JsonNode challenge = hello(forger, 1, Handshake.version());
                assertThat(challenge.path("type").asText()).isEqualTo("challenge");
                send(forger, "{\"type\":\"proof\",\"host\":\"FORGED-HOST\",\"pid\":1,\"proof\":\"" + HEX.formatHex(new byte[32]) + "\"}");
                JsonNode answer = read(forger);
                assertThat(answer.path("type").asText()).isEqualTo("refused");
                assertThat(answer.path("reason").asText()).contains("did not prove it belongs to this run");
                assertThat(readLine(forger)).as("the coordinator closed the forger's connection").isNull();
            }
            assertThat(coordinator.connected()).as("no rank is connected on the forger's word").isEmpty();
            real = realRank(coordinator.port(), 1, secret);
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            Map<Integer, RankResult> results = execute(coordinator, 2);
            assertThat(results).containsOnlyKeys(1);
            assertThat(results.get(1).hostname()).isEqualTo("real-rank");
            assertThat(coordinator.hostOf(1)).contains(HostProbe.hostname());
            assertThat(told).singleElement().asString().startsWith("refused 127.0.0.1:")
                    .endsWith(": did not prove it knows the run's secret for this job, step and rank");
            assertThat(coordinator.takeRefusals()).hasValue("1 connection refused from 127.0.0.1: not of this run (1 did"
                    + " not prove it knows the run's secret for this job, step and rank)");
        }
        real.join(); // told to exit by the coordinator's close: what it checked on its side fails the test here
    }

    @Test
    void silentConnections_areClosedAtTheAuthenticationDeadline_andCounted_whileARealRankStillJoins() throws Exception {
        RunSecret secret = RunSecret.generate();
        int silent = Coordinator.SLOTS_PER_ADDRESS + 44;
        List<Socket> sockets = new ArrayList<>();
        CheckedThread real;
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, secret)) {
            for (int i = 0; i < silent; i++) {
                sockets.add(new Socket(InetAddress.getLoopbackAddress(), coordinator.port()));
            }
            // each connection beyond the cap takes the place of its address's oldest, which is closed and its thread
            // ends: the flood never holds more threads than the cap
            dev.prism.testing.Await.until("the closed connections' threads have ended", () -> Thread.getAllStackTraces()
                    .keySet().stream().filter(t -> t.getName().equals("prism-coordinator-hello")).count()
                    <= Coordinator.SLOTS_PER_ADDRESS);
            for (Socket s : sockets) {
                s.setSoTimeout(60_000);
                assertThat(s.getInputStream().read()).as("a silent connection is closed").isEqualTo(-1);
                s.close();
            }
            // then a real rank still gets in
            real = realRank(coordinator.port(), 1, secret);
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            execute(coordinator, 2);
            String note = coordinator.takeRefusals().orElseThrow();
            assertThat(note).isEqualTo(silent + " connections refused from 127.0.0.1: not of this run (44 closed unproven"
                    + " to make room for a newer connection, " + Coordinator.SLOTS_PER_ADDRESS + " did not prove itself"
                    + " within 5 s)");
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        real.join(); // told to exit by the coordinator's close
    }

    @Test
    void aHugeLineBeforeTheHandshake_isRefusedAtTheLimit_notHeld() throws Exception {
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, RunSecret.generate());
             Socket flood = new Socket(InetAddress.getLoopbackAddress(), coordinator.port())) {
            OutputStream out = flood.getOutputStream();
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            long written = 0;
            try {
                for (int i = 0; i < 16 * 1024; i++) { // up to 1 GiB: the coordinator must stop reading long before
                    out.write(chunk);
                    written += chunk.length;
                }
            } catch (IOException e) {
                // the coordinator closed the connection: what was expected
            }
            assertThat(written).as("bytes the coordinator took before closing").isLessThan(64L << 20);
            Await.until("the flood is counted", () -> coordinator.takeRefusals()
                    .filter(n -> n.contains("1 did not speak PRISM's protocol")).isPresent());
        }
    }

    @Test
    void aRankOfAnotherVersion_isRefused_namingBothVersions() throws Exception {
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, RunSecret.generate());
             Socket old = new Socket(InetAddress.getLoopbackAddress(), coordinator.port())) {
            JsonNode answer = hello(old, 1, "0.0.1 (abcdef0)");
            assertThat(answer.path("type").asText()).isEqualTo("refused");
            assertThat(answer.path("reason").asText()).isEqualTo("rank 1 runs PRISM 0.0.1 (abcdef0), rank 0 runs PRISM "
                    + Handshake.version() + ": every rank of a run must run the same PRISM");
        }
    }

    @Test
    void aRankClaimingARankTheStepDoesNotHave_isRefused() throws Exception {
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, RunSecret.generate());
             Socket stray = new Socket(InetAddress.getLoopbackAddress(), coordinator.port())) {
            JsonNode answer = hello(stray, 7, Handshake.version());
            assertThat(answer.path("reason").asText()).isEqualTo("rank 7 is not a rank this run waits for");
        }
    }

    @Test
    void aMalformedMessage_failsTheStepAtOnce_namingTheRankAndTheMessagesKind() throws Exception {
        RunSecret secret = RunSecret.generate();
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, secret);
             Channel rank = joinAsRank(coordinator.port(), 1, secret)) {
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
            CheckedThread bogus = CheckedThread.start("bogus-rank", () -> {
                nextOtherThanPing(rank); // the plan
                sent.set(System.nanoTime());
                rank.send(Channel.message("phase").put("phase", "BOGUS"));
            });
            Map<Integer, RankResult> results;
            try (dev.prism.testing.SchedulingDelay delay = dev.prism.testing.SchedulingDelay.watch()) {
                results = execute(coordinator, 2, Duration.ofMinutes(5));
                long ended = System.nanoTime();
                // not the run's 5-minute deadline: the step stops as soon as the message comes, the observer being the
                // moment the bogus rank sent it (and the host's delays in handing it on)
                assertThat(sent.get()).as("the bogus message was sent").isNotZero();
                assertThat((ended - sent.get()) / 1e9).isLessThan(0.5 + 5 * delay.longest().toNanos() / 1e9);
            }
            assertThat(results).isEmpty();
            assertThat(coordinator.lostReason(1)).hasValueSatisfying(why -> assertThat(why).isEqualTo("rank 1 on "
                    + HostProbe.hostname() + " broke the coordination protocol: sent a 'phase' message with a phase PRISM does"
                    + " not have, 'BOGUS'; the step stops"));
            bogus.join();
        }
    }

    @Test
    void anUnknownKindOfMessage_failsTheStepAtOnce() throws Exception {
        RunSecret secret = RunSecret.generate();
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, secret);
             Channel rank = joinAsRank(coordinator.port(), 1, secret)) {
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            CheckedThread other = CheckedThread.start("teleporting-rank", () -> {
                nextOtherThanPing(rank);
                rank.send(Channel.message("teleport"));
            });
            execute(coordinator, 2, Duration.ofMinutes(5));
            assertThat(coordinator.lostReason(1)).hasValueSatisfying(why -> assertThat(why)
                    .contains("broke the coordination protocol: sent a message of an unknown kind, 'teleport'"));
            other.join();
        }
    }

    /** Through files: a line appended by anyone but the rank (no key, so no valid digest) stops the step, naming it. */
    @Test
    void aForgedLineInARanksMessageFile_failsItsIntegrityCheck(@TempDir Path shared) throws Exception {
        RunSecret secret = RunSecret.generate();
        Path meeting = shared.resolve("step");
        java.util.concurrent.atomic.AtomicBoolean judged = new java.util.concurrent.atomic.AtomicBoolean();
        Thread joining;
        try (Coordinator coordinator = Coordinator.directory(meeting, 2, secret)) {
            joining = new Thread(() -> {
                try (Channel rank = Handshake.joinThroughFiles(meeting, secret, 1, 60_000)) {
                    nextOtherThanPing(rank); // the plan; then the forger speaks for it
                    RankResult fake = new RankResult(1, "FORGED-HOST", Status.PASS, null, 7, Map.of(), Map.of(), List.of());
                    Files.writeString(meeting.resolve("rank-1.up"), "AAAA " + Channel.message("result").put("document",
                            ResultJson.rankToJson("", "", 0, 0, fake)) + "\n", StandardOpenOption.APPEND);
                    // files cannot tell the rank it was dropped: it listens until the test has its verdict
                    while (!judged.get()) {
                        try {
                            rank.receive(100);
                        } catch (java.net.SocketTimeoutException nothingYet) {
                            // listen again
                        }
                    }
                } catch (IOException e) {
                    // the coordinator gave up on it: what the test expects
                }
            });
            joining.setDaemon(true);
            joining.start();
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            assertThat(Files.getPosixFilePermissions(meeting)).containsExactlyInAnyOrderElementsOf(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            Map<Integer, RankResult> results = execute(coordinator, 2, Duration.ofMinutes(5));
            assertThat(results).isEmpty();
            assertThat(coordinator.lostReason(1)).hasValueSatisfying(why -> assertThat(why)
                    .contains("broke the coordination protocol: message 1 from " + meeting.resolve("rank-1.up")
                            + " failed its integrity check"));
        } finally {
            judged.set(true);
        }
        // the rank's thread removes its message files as it leaves: done before JUnit removes the directory
        joining.join();
    }

    @Test
    void aCoordinatorThatCannotProveItBelongsToTheRun_isNotObeyed() throws Exception {
        try (ServerSocket foreign = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            // what the impostor sees is checked in its thread; join throws it in the test's
            CheckedThread impostor = CheckedThread.start("impostor", () -> {
                try (Socket s = foreign.accept()) {
                    JsonNode hello = read(s);
                    send(s, "{\"type\":\"challenge\",\"protocol\":" + Handshake.PROTOCOL + ",\"version\":\"" + Handshake.version() + "\",\"nonce\":\""
                            + HEX.formatHex(new byte[16]) + "\",\"proof\":\"" + HEX.formatHex(new byte[32]) + "\"}");
                    assertThat(hello.path("rank").asInt()).isEqualTo(1);
                    assertThat(readLine(s)).as("the rank sent nothing more").isNull();
                }
            });
            assertThatThrownBy(() -> new RankWorker(Rendezvous.tcp("127.0.0.1", foreign.getLocalPort()), 1,
                    RunSecret.generate()).serve(Duration.ofSeconds(30)))
                    .isInstanceOf(PrismException.class)
                    .hasMessageStartingWith("the coordinator at 127.0.0.1:" + foreign.getLocalPort()
                            + " did not prove it belongs to this run");
            impostor.join();
        }
    }

    /**
     * A plan whose run directory is not in the rank's target (rank 0 of another run, or a plan bent on making a root
     * rank work and clean up elsewhere) is refused: the rank reports the refusal and makes, works in and removes nothing.
     */
    @Test
    void aPlanWhoseRunDirectoryIsNotInTheRanksTarget_isRefused(@TempDir Path dir) throws Exception {
        RunSecret secret = RunSecret.generate();
        Path target = Files.createDirectories(dir.resolve("target"));
        try (Coordinator coordinator = Coordinator.tcp(loopback(), 2, secret)) {
            Thread worker = new Thread(() -> {
                try {
                    new RankWorker(Rendezvous.tcp("127.0.0.1", coordinator.port()), 1, secret).underTarget(target)
                            .serve(Duration.ofSeconds(60));
                } catch (Exception e) {
                    // told to exit when the coordinator closes
                }
            });
            worker.setDaemon(true);
            worker.start();
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            Map<Integer, RankResult> results = execute(coordinator, 2); // its run directory: /nonexistent
            assertThat(results.get(1).failure().message()).isEqualTo("rank 1 refused the plan: its run directory"
                    + " /nonexistent is not a run directory in this rank's target " + target);
            assertThat(Path.of("/nonexistent")).doesNotExist();
        }
    }

    /** A meeting directory another (real, unprivileged) user made beforehand, to plant links in it, is refused. */
    @Test
    void aMeetingDirectoryMadeByAnotherUser_orOpenToOthers_isRefused(@TempDir Path shared) throws Exception {
        Path open = Files.createDirectory(shared.resolve("open"), java.nio.file.attribute.PosixFilePermissions
                .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> Coordinator.directory(open, 2, RunSecret.generate())).isInstanceOf(PrismException.class)
                .hasMessage("the meeting directory " + open + " has mode rwxrwxrwx, not rwx------: refused, as others could"
                        + " read or plant files in it");
        dev.prism.testing.Required.root("chown to another user needs root");
        Path planted = Files.createDirectory(shared.resolve("planted"));
        Files.createSymbolicLink(planted.resolve("rank-1.down"), shared.resolve("victim"));
        Process chown = new ProcessBuilder("chown", "-h", "-R", "nobody", planted.toString()).inheritIO().start();
        assertThat(chown.waitFor(30, TimeUnit.SECONDS) && chown.exitValue() == 0).as("chown nobody").isTrue();
        int nobody = (Integer) Files.getAttribute(planted, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS);
        assertThatThrownBy(() -> Coordinator.directory(planted, 2, RunSecret.generate())).isInstanceOf(PrismException.class)
                .hasMessageStartingWith("the meeting directory " + planted + " was made by uid " + nobody + ", not by this run");
        assertThatThrownBy(() -> Handshake.joinThroughFiles(planted, RunSecret.generate(), 1, 1_000))
                .isInstanceOf(PrismException.class).hasMessageContaining("was made by uid " + nobody);
        assertThat(shared.resolve("victim")).as("nothing was written through the planted link").doesNotExist();
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    private static Map<Integer, RankResult> execute(Coordinator coordinator, int tasks) throws InterruptedException {
        return execute(coordinator, tasks, Duration.ofSeconds(60));
    }

    /** Runs a plan with rank 0 in this thread passing its barriers at once, rank 1 remote (PreAuthenticationTest's too). */
    static Map<Integer, RankResult> execute(Coordinator coordinator, int tasks, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        RunPlan plan = new RunPlan(Benchmarks.create("test_noop", Map.of()), tasks, Path.of("/nonexistent"), 1,
                timeout, deadline, Duration.ofSeconds(1), ScenarioListener.NONE, "forged", 0, null);
        RankBarrier barrier = new RankBarrier(tasks, deadline);
        Thread local = new Thread(() -> {
            try {
                barrier.await(0, "b");
            } catch (Exception e) {
                // aborted: the step stopped
            }
        });
        local.setDaemon(true);
        local.start();
        return coordinator.execute(plan, List.of(1), barrier, ScenarioListener.NONE, deadline);
    }

    /**
     * A rank of the run, with the secret: takes its plan, meets rank 0 at a barrier, reports, and waits to be told to
     * exit. What it checks fails the test at its {@link CheckedThread#join}, after the coordinator closed.
     */
    private static CheckedThread realRank(int port, int rank, RunSecret secret) {
        return CheckedThread.start("real-rank-" + rank, () -> {
            try (Channel wire = joinAsRank(port, rank, secret)) {
                assertThat(nextOtherThanPing(wire).path("type").asText()).as("rank " + rank + "'s first message").isEqualTo("plan");
                wire.send(Channel.message("barrier").put("rank", rank).put("name", "b"));
                assertThat(nextOtherThanPing(wire).path("type").asText()).as("rank " + rank + " at barrier b").isEqualTo("released");
                RankResult result = new RankResult(rank, "real-rank", Status.PASS, null, 1, Map.of(), Map.of(), List.of());
                wire.send(Channel.message("result").put("document", ResultJson.rankToJson("", "", 0, 0, result)));
                nextOtherThanPing(wire); // exit, or the end of the connection
            }
        });
    }

    /** Joins as a rank does, trying again while the coordinator is busy with other peers. */
    private static Channel joinAsRank(int port, int rank, RunSecret secret) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
            try {
                return Handshake.joinOverTcp(socket, secret, rank, 60_000);
            } catch (IOException e) {
                socket.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static JsonNode nextOtherThanPing(Channel wire) throws IOException {
        JsonNode m = wire.receive();
        while (m != null && Heartbeat.isPing(m)) {
            m = wire.receive();
        }
        return m;
    }

    /** Sends a well-formed hello as {@code rank} and returns the coordinator's answer. */
    private static JsonNode hello(Socket socket, int rank, String version) throws IOException {
        send(socket, "{\"type\":\"hello\",\"protocol\":" + Handshake.PROTOCOL + ",\"version\":\"" + version + "\",\"rank\":" + rank + ",\"nonce\":\""
                + HEX.formatHex(new byte[16]) + "\"}");
        return read(socket);
    }

    private static void send(Socket socket, String line) throws IOException {
        socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    private static JsonNode read(Socket socket) throws IOException {
        String line = readLine(socket);
        assertThat(line).as("a line from the peer").isNotNull();
        return Channel.MAPPER.readTree(line);
    }

    /** Reads one line byte by byte (no buffer that would swallow the next one); null at the end of the stream. */
    private static String readLine(Socket socket) throws IOException {
        socket.setSoTimeout(60_000);
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        int b;
        while ((b = socket.getInputStream().read()) >= 0 && b != '\n') {
            line.write(b);
        }
        return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }
}
