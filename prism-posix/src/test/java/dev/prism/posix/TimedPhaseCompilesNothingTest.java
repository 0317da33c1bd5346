package dev.prism.posix;

import dev.prism.posix.internal.Programs;
import dev.prism.testing.ScenarioInChild;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JIT compiler's work on a metadata benchmark's hot path is done before the clock: while the rank is in its timed
 * phase, no method of the timed loop, its timers or its libc calls is compiled by C1 (so none ran interpreted until
 * then) or deoptimised. C2's last compilations of some of them still come inside the phase now and then (in about one
 * run of the three benchmarks in three, 3–60 ms into it, with C1's compiled code running meanwhile): HotSpot's
 * thresholds for it grow with its queue, and a rehearsal cannot see which methods are still due. The observer is a
 * flight recording of the rank's own JVM (started by the processes launcher with PRISM's flags, as every rank is): the
 * JVM's {@code jdk.Compilation} and {@code jdk.Deoptimization} events beside PRISM's {@code dev.prism.RankPhase}
 * events, on the recording's one clock. Timing-dependent: the rehearsal's waits for the compiler are bounded (2 s
 * each), and a machine loaded past that leaves compilations for the timed phase.
 *
 * <p>Before the rehearsal ran in rounds until the compiler went quiet, with the timed loop itself as its step: on
 * tmpfs, create_files' loop ran interpreted for its first ~6,000 files and its path reached the compiler's last tier
 * inside the timed phase (create at 0.76× mdtest's rate); list_files' listing reached it there too, and the timed
 * phase's first timing threw out the timer's code (a first value into an empty histogram, a branch the rehearsal's
 * compiled code had never taken).
 */
@org.junit.jupiter.api.Tag("timing")
class TimedPhaseCompilesNothingTest {
    /**
     * What the timed loops of create, list and delete run: their own code, the timers, the libc calls. Not
     * HdrHistogram's: its methods for a new extreme are called a few dozen times in a phase, so C1 compiles them there,
     * cold code beside the path; its recording is inlined into the timers, whose recompilation would show.
     */
    private static final List<String> HOT_PATH = List.of("dev.prism.posix.", "dev.prism.WorkloadContext",
            "dev.prism.LatencyRecorder", "dev.prism.internal.rank.RankContext", "dev.prism.internal.rank.OperationSlot");
    /**
     * What other threads read of the timed loop's slots, never the loop itself: the stall monitor's poll
     * ({@code running}, {@code startedNanos}, {@code quietSince}). Their calls grow with the phase's length, not its
     * operations, so a phase stretched by a loaded core reaches C1's threshold in them whatever the rehearsal did (beside
     * two CPU hogs on one core, {@code running} at +413 ms of a 2.4 s phase); compiled on the compiler's thread, they
     * do not slow the loop.
     */
    private static final List<String> WATCHERS_ONLY = List.of("dev.prism.internal.rank.OperationSlot.running",
            "dev.prism.internal.rank.OperationSlot.startedNanos", "dev.prism.internal.rank.OperationSlot.quietSince");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"create_files", "list_files", "delete_files"})
    void theTimedLoopRunsCompiledFromItsFirstFile_noMethodOfItIsFirstCompiledOrDeoptimisedInTheTimedPhase(String benchmark)
            throws Exception {
        Path settings = Files.writeString(dir.resolve("jit.jfc"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0">
                  <event name="jdk.Compilation"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
                  <event name="jdk.Deoptimization"><setting name="enabled">true</setting><setting name="stackTrace">false</setting></event>
                  <event name="dev.prism.RankPhase"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
                </configuration>
                """);
        Path recording = dir.resolve("rank.jfr");
        // tmpfs, as bench/metadata-vs-mdtest.sh: calls of microseconds, where the compiler's work would show (on
        // storage whose steps take over 100 µs a rehearsal stops early on purpose: there it is under 1 % of a call)
        Path shm = Path.of("/dev/shm");
        Path target = Files.isDirectory(shm) ? Files.createTempDirectory(shm, "prism-jit-")
                : Files.createDirectories(dir.resolve("target"));
        // 20,000 files, as bench/metadata-vs-mdtest.sh: a timed loop long enough for the compiler to act inside it
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ScenarioInChild.class.getName(), target.toString(),
                "jit-" + benchmark, "1", benchmark, "files=20000", "access=native");
        try {
            Programs.check(command, dir, Map.of("PRISM_JAVA_OPTS", "-XX:StartFlightRecording=filename=" + recording
                    + ",dumponexit=true,settings=" + settings), Duration.ofMinutes(5));
        } finally {
            dev.prism.DirectoryRemoval.of(target);
        }

        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        RecordedEvent timed = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.prism.RankPhase") && "RUN".equals(e.getString("phase")))
                .findFirst().orElseThrow(() -> new AssertionError("the recording holds no timed phase: " + events.size()
                        + " events"));
        Instant from = timed.getStartTime();
        Instant to = timed.getEndTime();
        assertThat(Duration.between(from, to)).as("the timed phase").isPositive();
        List<String> inTimedPhase = new ArrayList<>();
        List<String> hotPathCompilations = new ArrayList<>();
        List<String> deoptimisations = new ArrayList<>();
        List<String> lastTier = new ArrayList<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (!type.equals("jdk.Compilation") && !type.equals("jdk.Deoptimization")) {
                continue;
            }
            RecordedMethod method = e.getValue("method");
            String name = method.getType().getName() + "." + method.getName();
            if (type.equals("jdk.Deoptimization") && !e.getStartTime().isBefore(from) && e.getStartTime().isBefore(to)) {
                deoptimisations.add(name + " " + e.getValue("reason") + " line " + e.getValue("lineNumber"));
            }
            if (HOT_PATH.stream().noneMatch(name::startsWith) || WATCHERS_ONLY.contains(name)) {
                continue;
            }
            boolean compilation = type.equals("jdk.Compilation");
            String what = type + " " + name + (compilation ? " level " + e.getValue("compileLevel")
                    : " " + e.getValue("reason") + " " + e.getValue("action"));
            if (compilation) {
                hotPathCompilations.add(what);
            }
            if (!e.getStartTime().isBefore(from) && e.getStartTime().isBefore(to)) {
                String at = what + " at +" + Duration.between(from, e.getStartTime()).toMillis() + " ms";
                // C1's tiers (1-3) in the timed phase: the method ran interpreted until then; a deoptimisation: the
                // rehearsal left a path untaken. C2's (4): compiled code made better, which HotSpot's policy leaves
                // into the timed phase now and then (its thresholds grow with its queue)
                if (!compilation || ((Number) e.getValue("compileLevel")).intValue() < 4) {
                    inTimedPhase.add(at);
                } else {
                    lastTier.add(at);
                }
            }
        }
        // the observer sees compilations at all: the rehearsal's own, before the clock
        assertThat(hotPathCompilations).as("compilations of the hot path in the whole recording").isNotEmpty();
        assertThat(inTimedPhase).as(benchmark + "'s timed phase (" + Duration.between(from, to).toMillis() + " ms; "
                        + "every deoptimisation in it: " + deoptimisations + "; C2's compilations in it: " + lastTier + ")")
                .isEmpty();
    }
}
