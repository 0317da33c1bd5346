package dev.prism.internal.rank;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One phase of one rank as a Java Flight Recorder event ({@code dev.prism.RankPhase}): its start and length on the
 * recording's clock, so that a recording of a rank's JVM puts its compilations, collections and safepoints beside the
 * rank's set-up, rehearsal, timed phase and the rest. Committed as the rank enters the next phase, never inside a
 * timed phase; where no recording asks for it, an event costs an allocation and a check per phase.
 */
@Name("dev.prism.RankPhase")
@Label("PRISM rank phase")
@Category("PRISM")
@Description("A phase of a PRISM rank: set-up, rehearsal and the wait for the JIT, the timed phase, validation, teardown")
final class RankPhaseEvent extends jdk.jfr.Event {
    @Label("Rank")
    int rank;

    @Label("Phase")
    @Description("RankPhase's name: SETUP, REHEARSAL, RUN, VALIDATE, TEARDOWN")
    String phase;

    RankPhaseEvent(int rank, String phase) {
        this.rank = rank;
        this.phase = phase;
    }
}
