package dev.prism.internal.rank;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JIT wait before a timed phase reads HotSpot's compile queue (what {@code jcmd Compiler.queue} prints on JDK 17
 * and 25 alike): idle only with no compilation in progress and every queue empty.
 */
class CompilerQueueTest {
    private static final String IDLE = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n";
    private static final String COMPILING = "Current compiles: \nC2 CompilerThread0  1511   !   4       "
            + "a.B::c (530 bytes)\n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n";
    private static final String WAITING = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\n"
            + "1412       4       a.B::getTag (4 bytes)\n";

    @Test
    void idle_onlyWithNothingCompilingAndEveryQueueEmpty() {
        assertThat(CompilerQueue.idle(IDLE)).isTrue();
        assertThat(CompilerQueue.idle(COMPILING)).isFalse();
        assertThat(CompilerQueue.idle(WAITING)).isFalse();
        assertThat(CompilerQueue.idle("Unknown diagnostic command")).isFalse();
        assertThat(CompilerQueue.isQueueListing("Unknown diagnostic command")).isFalse();
    }

    @Test
    void thisJvmsQueue_isFound_andReadsIdleOnceTheWaitForItEnds() throws Exception {
        assertThat(CompilerQueue.find()).as("HotSpot's compilerQueue command").isPresent();
        JitQuiet.prepare();
        JitQuiet.await(Instant.now().plusSeconds(60), null);
        // the wait returns when the queue was idle or at its bound; a quiet test JVM reaches idle well within it
        long until = System.nanoTime() + JitQuiet.MAX_WAIT_MILLIS * 1_000_000;
        boolean idle = CompilerQueue.find().orElseThrow().idle();
        while (!idle && System.nanoTime() < until) {
            Thread.sleep(5);
            idle = CompilerQueue.find().orElseThrow().idle();
        }
        assertThat(idle).isTrue();
    }
}
