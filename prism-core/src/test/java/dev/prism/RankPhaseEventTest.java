package dev.prism;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flight recording of a rank's JVM holds each phase of each rank as a {@code dev.prism.RankPhase} event, so that its
 * compilations, collections and safepoints can be set beside the rank's set-up, rehearsal and timed phase. Observers:
 * an injected 50 ms sleep in the timed phase, and the rank's own timed-phase length.
 */
class RankPhaseEventTest {
    @TempDir
    Path target;

    @Test
    void aRecordingHoldsEveryPhaseOfEveryRank_inOrder_andTheTimedPhaseSpansTheClock() throws Exception {
        Benchmark b = Benchmark.builder("phases").run(ctx -> ctx.measure("sleep", () -> Thread.sleep(50))).build();
        Path file = target.resolve("phases.jfr");
        RunResult run;
        try (Recording recording = new Recording()) {
            recording.enable("dev.prism.RankPhase").withoutThreshold();
            recording.start();
            run = Scenario.builder().target(target).benchmark(b).tasks(2).build().execute().runs().get(0);
            recording.stop();
            recording.dump(file);
        }
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(file));
        events.sort(Comparator.comparing(RecordedEvent::getStartTime));
        for (int rank = 0; rank < 2; rank++) {
            int r = rank;
            List<RecordedEvent> own = events.stream().filter(e -> e.getInt("rank") == r).toList();
            assertThat(own).extracting(e -> e.getString("phase"))
                    .containsExactly("SETUP", "REHEARSAL", "RUN", "VALIDATE", "TEARDOWN");
            RecordedEvent timed = own.get(2);
            long phaseNanos = run.repetitions().get(0).ranks().get(rank).phaseNanos();
            assertThat(timed.getDuration()).isGreaterThanOrEqualTo(Duration.ofMillis(50))
                    .isGreaterThanOrEqualTo(Duration.ofNanos(phaseNanos));
            // each phase begins where the one before it ended
            for (int i = 1; i < own.size(); i++) {
                assertThat(own.get(i).getStartTime()).isAfterOrEqualTo(own.get(i - 1).getEndTime());
            }
        }
    }
}
