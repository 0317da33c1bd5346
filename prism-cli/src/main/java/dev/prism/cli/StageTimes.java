package dev.prism.cli;

import dev.prism.RankPhase;
import dev.prism.ScenarioListener;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where the ranks' time went, stage by stage, heard from the phases they enter ({@link ScenarioListener#rankEntered}, in
 * this JVM or through the coordinator): each rank's time from entering one phase to entering the next is added to the
 * phase it left, over every warm-up and repetition, and a stage's figure is its slowest rank's total (ranks pass the
 * stages together, between barriers). Passes every event on to the listener it wraps.
 */
final class StageTimes extends ForwardingListener {
    /** A phase a rank entered, and when (System.nanoTime). */
    private record Entered(RankPhase phase, long nanos) {
    }

    /** Per rank: the phase it is in */
    private final Map<Integer, Entered> current = new HashMap<>();
    /** Per rank, per phase left: nanoseconds spent in it */
    private final Map<Integer, Map<RankPhase, Long>> spent = new HashMap<>();

    StageTimes(ScenarioListener next) {
        super(next);
    }

    @Override
    public void rankEntered(int rank, RankPhase phase) {
        long now = System.nanoTime();
        synchronized (this) {
            Entered left = current.put(rank, new Entered(phase, now));
            if (left != null && left.phase() != RankPhase.FINISHED) {
                spent.computeIfAbsent(rank, r -> new EnumMap<>(RankPhase.class)).merge(left.phase(), now - left.nanos(), Long::sum);
            }
        }
        super.rankEntered(rank, phase);
    }

    /** @return nanoseconds the slowest rank spent in {@code phase}, over the whole command */
    synchronized long nanosIn(RankPhase phase) {
        return spent.values().stream().mapToLong(m -> m.getOrDefault(phase, 0L)).max().orElse(0);
    }

    /**
     * @return e.g. "start-up 1.2 s, set-up 20.1 s, rehearsal 3.0 s, validation 0.0 s, teardown 0.4 s": the untimed
     *         stages, each its slowest rank's total (the timed phase is the results' own figure, said beside it)
     */
    String untimedStages() {
        StringJoiner s = new StringJoiner(", ");
        for (RankPhase phase : new RankPhase[]{RankPhase.STARTING, RankPhase.SETUP, RankPhase.REHEARSAL,
                RankPhase.VALIDATE, RankPhase.TEARDOWN}) {
            s.add(String.format(Locale.ROOT, "%s %.1f s", label(phase), nanosIn(phase) / 1e9));
        }
        return s.toString();
    }

    private static String label(RankPhase phase) {
        return switch (phase) {
            case STARTING -> "start-up";
            case SETUP -> "set-up";
            case REHEARSAL -> "rehearsal and JIT wait";
            case VALIDATE -> "validation";
            case TEARDOWN -> "teardown";
            default -> phase.description();
        };
    }
}
