package dev.prism.internal.coordination;

import dev.prism.PrismException;
import dev.prism.testing.Await;
import dev.prism.testing.Neighbour;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A SLURM step's address file ({@code .prism-step-J.S.coordinator}) in a shared target that a neighbour — another
 * unprivileged user — races (issue 55, item 8; finding 2: a link renamed over its temporary name made root write the
 * address into a 0600 root-only file and leave it 0644): rank 0 publishes its address again and again while the
 * neighbour renames a link to the root-only file or a FIFO over every name that appears, until the neighbour has
 * swapped one of the temporary names; the root-only file is unchanged, a rank reading what the neighbour put in the
 * file's place is refused at once (never blocked on the FIFO, never reading the root-only file), and withdrawing the
 * file removes the neighbour's link, not what it names.
 */
class CoordinatorEndpointNeighbourTest {

    @Test
    void anAddressFileTheNeighbourRaces_isNeverWrittenOrReadThroughItsLinks(@TempDir Path home) throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path target = neighbour.sharedDirectory("target");
            Path file = target.resolve(".prism-step-4711.0.coordinator");
            neighbour.race(Neighbour.Mode.MIXED, List.of(target), List.of());
            AtomicInteger read = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            assertTimeoutPreemptively(Duration.ofMinutes(4), () -> Await.until(
                    "the neighbour swaps a temporary name of the address file, and a rank is refused what it put there",
                    () -> {
                        CoordinatorEndpoint.publish(file, "n7", 29411);
                        try {
                            Rendezvous r = CoordinatorEndpoint.await(file, 1, Instant.now(), () -> true);
                            assertThat(r).isEqualTo(Rendezvous.tcp("n7", 29411));
                            read.incrementAndGet();
                        } catch (PrismException swapped) {
                            assertThat(swapped.getMessage()).doesNotContain(neighbour.token())
                                    .contains("rank 1 cannot read the coordinator's address from " + file);
                            refused.incrementAndGet();
                        }
                        return refused.get() > 0 && neighbour.swapsSoFar().stream().anyMatch(s -> s.matches(
                                "(link|fifo) .*/\\.\\.prism-step-4711\\.0\\.coordinator\\.[0-9a-f]+\\.tmp"));
                    }));
            CoordinatorEndpoint.withdraw(file);
            neighbour.stop();
            neighbour.assertRootOnlyUnchanged();
            neighbour.assertNoRootOnlyByteUnder(target);
        }
    }
}
