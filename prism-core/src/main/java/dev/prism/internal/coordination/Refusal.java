package dev.prism.internal.coordination;

import java.io.IOException;

/**
 * Why the coordinator refused a peer before it proved it belongs to the run: a fixed set, so that what a peer sent
 * (a version string, a rank, a message's type) is never kept, counted by its words or printed. A flood of hellos, each
 * with other words, costs a counter, not memory.
 */
enum Refusal {
    /** all slots were taken, and its address already held its fair share of them */
    SLOTS_FULL("turned away at once with every slot taken"),
    /** closed unproven to make room for a newer connection: its address held all its slots, or most of all */
    EVICTED("closed unproven to make room for a newer connection"),
    TIMEOUT("did not prove itself within " + Coordinator.AUTHENTICATION_MILLIS / 1000 + " s"),
    CLOSED("closed the connection before it proved itself"),
    NOT_PRISM("did not speak PRISM's protocol"),
    VERSION("ran another PRISM version"),
    RANK("claimed a rank this run does not have"),
    PROOF("did not prove it knows the run's secret for this job, step and rank");

    final String text;

    Refusal(String text) {
        this.text = text;
    }

    /** The coordinator's side of the handshake refused the peer for {@link #why}. */
    static final class Refused extends IOException {
        final Refusal why;

        Refused(Refusal why) {
            super(why.text);
            this.why = why;
        }
    }
}
