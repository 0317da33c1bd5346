package dev.prism.internal.coordination;

import dev.prism.testing.CheckedThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code --coordinator file:} meeting directory is checked once and then held by descriptor: another user who may
 * write the directory above it renames it after the check and puts a link in its place, and every message file the
 * coordinator and its ranks write, read and remove after that still lives in the directory they checked.
 */
class MeetingDirectoryTest {

    @Test
    void aMeetingDirectoryRenamedAndReplacedByALink_isStillTheOneUsed(@TempDir Path shared) throws Exception {
        Path meeting = shared.resolve("meeting");
        Path victim = Files.createDirectory(shared.resolve("victim"));
        RunSecret secret = RunSecret.generate();
        try (Coordinator coordinator = Coordinator.directory(meeting, 2, secret)) {
            CheckedThread rank = CheckedThread.start("rank-1", () -> {
                try (Channel channel = Handshake.joinThroughFiles(meeting, secret, 1, 60_000)) {
                    for (var m = channel.receive(60_000); m != null; m = channel.receive(60_000)) {
                        if ("exit".equals(m.path("type").asText())) {
                            break;
                        }
                    }
                }
            });
            assertThat(coordinator.awaitRanks(List.of(1), Instant.now().plusSeconds(60), r -> false)).isEmpty();
            // the neighbour's swap, after every check was made
            Files.move(meeting, shared.resolve("moved"));
            Files.createSymbolicLink(meeting, victim);
            coordinator.close(Duration.ofMinutes(1));
            rank.join();
        }
        assertThat(victim).as("nothing written through the link").isEmptyDirectory();
        // the rank read its exit in the directory it held and removed its files there, as it does when nothing moved
        assertThat(shared.resolve("moved")).isEmptyDirectory();
    }
}
