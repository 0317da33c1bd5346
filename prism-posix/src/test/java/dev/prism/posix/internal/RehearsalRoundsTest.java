package dev.prism.posix.internal;

import dev.prism.WorkloadContext;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link Rehearsal#repeat} uses the compiler's answers: a round of {@value Rehearsal#ROUND_OPERATIONS} operations,
 * a wait, and a stop once {@value Rehearsal#STEADY_ROUNDS} rounds in a row compiled nothing — never after one or two
 * quiet rounds, since a profiled tier counts a round's calls before it asks for the last. The compiler's answers are
 * scripted here (what {@code awaitCompilerRound} says after each round); {@code TimedPhaseCompilesNothingTest} holds
 * the outcome against a real JVM's flight recording.
 */
class RehearsalRoundsTest {
    /** @return a rank context whose waits answer {@code answers} in turn (then false), counting the waits */
    private static WorkloadContext answering(List<Boolean> answers, List<Integer> waitedAt, int[] steps) {
        Iterator<Boolean> next = answers.iterator();
        return (WorkloadContext) Proxy.newProxyInstance(WorkloadContext.class.getClassLoader(),
                new Class<?>[] {WorkloadContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "awaitCompilerRound" -> {
                        waitedAt.add(steps[0]);
                        yield next.hasNext() ? next.next() : false;
                    }
                    case "alreadyWarm" -> false;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static List<Integer> rounds(List<Boolean> answers, int iterations, int operationsPerStep, int[] steps) {
        List<Integer> waitedAt = new ArrayList<>();
        Rehearsal.repeat(answering(answers, waitedAt, steps), iterations, operationsPerStep, i -> steps[0]++);
        return waitedAt;
    }

    @Test
    void itStopsAfterThreeQuietRoundsInARow_notAfterOneOrTwo() {
        int[] steps = {0};
        List<Integer> waits = rounds(List.of(true, false, true, false, false, true, false, false, false, true), 10_000, 1,
                steps);
        assertThat(waits).containsExactly(1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000);
        assertThat(steps[0]).isEqualTo(9_000);
    }

    @Test
    void aCompilerThatNeverSettles_getsEveryIteration_andNoMore() {
        int[] steps = {0};
        List<Integer> waits = rounds(java.util.Collections.nCopies(20, true), 10_000, 1, steps);
        assertThat(waits).hasSize(9);
        assertThat(steps[0]).isEqualTo(10_000);
    }

    @Test
    void stepsOfManyOperations_makeRoundsOfAboutAThousandOperations() {
        int[] steps = {0};
        // a listing of 10 files and their 10 stats a step: rounds of 91 steps (1,001 operations)
        List<Integer> waits = rounds(List.of(true), 909, 11, steps);
        assertThat(waits).containsExactly(91, 182, 273, 364);
        assertThat(steps[0]).isEqualTo(364);
    }

    @Test
    void aRehearsalOfFewOperations_waitsForNothing() {
        int[] steps = {0};
        assertThat(rounds(List.of(true), 63, 1, steps)).isEmpty();
        assertThat(steps[0]).isEqualTo(63);
    }
}
