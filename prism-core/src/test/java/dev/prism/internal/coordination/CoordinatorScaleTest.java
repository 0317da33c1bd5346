package dev.prism.internal.coordination;

import dev.prism.internal.output.ResultJson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prism.Benchmarks;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;
import dev.prism.Status;
import dev.prism.testing.CheckedThread;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The coordinator alone at scale: 512 ranks on loopback, each a socket and a thread, through 100 barriers. */
@org.junit.jupiter.api.Tag("timing")
class CoordinatorScaleTest {
    private static final int RANKS = 512;
    private static final int BARRIERS = 100;

    @Test
    void fiveHundredTwelveRanks_completeOneHundredBarriers() throws Exception {
        RunSecret secret = RunSecret.generate();
        try (Coordinator coordinator = Coordinator.tcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), RANKS, secret)) {
            AtomicLong firstBarrier = new AtomicLong(Long.MAX_VALUE);
            AtomicLong lastRelease = new AtomicLong();
            // what each simulated rank checks fails the test at its join, in the test's thread
            List<CheckedThread> ranks = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                int rank = r;
                ranks.add(CheckedThread.start("sim-" + r, () -> simulateRank(coordinator.port(), rank, secret, firstBarrier,
                        lastRelease)));
            }
            List<Integer> all = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                all.add(r);
            }
            assertThat(coordinator.awaitRanks(all, Instant.now().plusSeconds(60), r -> false)).isEmpty();
            Instant deadline = Instant.now().plusSeconds(120);
            RunPlan plan = new RunPlan(Benchmarks.create("test_noop", Map.of()), RANKS, Path.of("/nonexistent"), 1,
                    Duration.ofSeconds(120), deadline, Duration.ofSeconds(1), ScenarioListener.NONE, "scale", 0, null);
            Map<Integer, RankResult> results = coordinator.execute(plan, all, new RankBarrier(RANKS, deadline),
                    ScenarioListener.NONE, deadline);
            for (CheckedThread t : ranks) {
                t.join();
            }
            assertThat(results).hasSize(RANKS);
            assertThat(results.values()).allSatisfy(r -> assertThat(r.status()).isEqualTo(Status.PASS));
            double perBarrierMicros = (lastRelease.get() - firstBarrier.get()) / 1e3 / BARRIERS;
            System.out.printf("coordinator scale: %d ranks, %d barriers, %.0f µs per barrier round (all ranks released)%n",
                    RANKS, BARRIERS, perBarrierMicros);
        }
    }

    private static void simulateRank(int port, int rank, RunSecret secret, AtomicLong firstBarrier, AtomicLong lastRelease) {
        try (Channel wire = join(port, rank, secret)) {
            JsonNode plan = receive(wire);
            assertThat(plan.path("type").asText()).as("rank " + rank + "'s first message").isEqualTo("plan");
            for (int b = 0; b < BARRIERS; b++) {
                long sent = System.nanoTime();
                firstBarrier.accumulateAndGet(sent, Math::min);
                wire.send(Channel.message("barrier").put("rank", rank).put("name", "b" + b));
                JsonNode reply = receive(wire);
                assertThat(reply.path("type").asText()).as("rank " + rank + " at barrier b" + b).isEqualTo("released");
                lastRelease.accumulateAndGet(System.nanoTime(), Math::max);
            }
            RankResult result = new RankResult(rank, "sim", Status.PASS, null, 1, Map.of(), Map.of(), List.of());
            wire.send(Channel.message("result").put("document", ResultJson.rankToJson("scale", "test_noop", RANKS, 0, result)));
        } catch (Exception e) {
            throw new AssertionError("rank " + rank + ": " + e, e);
        }
    }

    /** Joins as a rank does: a coordinator busy with other handshakes may close a connection, which is tried again. */
    private static Channel join(int port, int rank, RunSecret secret) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
            try {
                return Handshake.joinOverTcp(socket, secret, rank, 60_000);
            } catch (java.io.IOException e) {
                socket.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    /** @return the next message that is not the coordinator's heartbeat */
    private static JsonNode receive(Channel wire) throws java.io.IOException {
        JsonNode m = wire.receive();
        while (m != null && Heartbeat.isPing(m)) {
            m = wire.receive();
        }
        return m;
    }
}
