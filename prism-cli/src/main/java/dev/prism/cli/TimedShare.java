package dev.prism.cli;

import dev.prism.RankResult;
import dev.prism.RunResult;

import java.util.List;
import java.util.Locale;

/**
 * How much of a command's wall time went to what it measured: the timed phases of its repetitions (each the longest of
 * its ranks' phases, as the ranks time together) against the time since PRISM started, so PRISM's own overhead —
 * JVM starts, set-ups, rehearsals, clean-ups — stays visible at the end of every run and suite, with the ranks' own
 * untimed stages ({@link StageTimes}) beside it.
 */
final class TimedShare {
    private TimedShare() {
    }

    /** @return the timed phases' wall time, in nanoseconds, over every repetition (warm-ups are not kept) of {@code runs} */
    static long timedNanos(List<RunResult> runs) {
        return runs.stream().flatMap(r -> r.repetitions().stream())
                .mapToLong(rep -> rep.ranks().stream().mapToLong(RankResult::phaseNanos).max().orElse(0)).sum();
    }

    /**
     * @return e.g. "time: timed phases 6.8 s of 51.0 s in all (13%); the ranks' untimed stages: start-up 1.2 s, set-up
     *         20.1 s, …" — the stages as {@code stages} heard them, or the first part alone without
     */
    static String line(List<RunResult> runs, long wallNanos, StageTimes stages) {
        long timed = timedNanos(runs);
        return String.format(Locale.ROOT, "time: timed phases %.1f s of %.1f s in all (%d%%)", timed / 1e9, wallNanos / 1e9,
                wallNanos <= 0 ? 0 : Math.round(100.0 * timed / wallNanos))
                + (stages == null ? "" : "; the ranks' untimed stages: " + stages.untimedStages());
    }
}
