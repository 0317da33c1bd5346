package dev.prism.cli;

import dev.prism.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two runs on one target measure each other's load. Before, both passed and only the JSON's {@code othersBusyShare}
 * knew (issue 38); now the second is warned at its start that the first may be at work, and both tables say under
 * their figures that another run wrote in the target while they ran.
 */
class SharedTargetCliTest {
    @TempDir
    Path work;

    @Test
    void aSecondRunOnTheSameTarget_isWarnedAtItsStart_andBothTablesSaySo() throws Exception {
        Path target = Files.createDirectory(work.resolve("target"));
        Path out = work.resolve("out");
        CompletableFuture<Cli.Outcome> first = CompletableFuture.supplyAsync(() -> prism("run", "create_files", "--target",
                target.toString(), "--run-id", "first", "--out", out.toString(), "-p", "files=1000", "--reps", "40"));
        Await.until("the first run creates files", () -> {
            try (Stream<Path> files = Files.walk(target)) {
                return files.filter(p -> p.toString().contains("prism-first/rank-0/")).limit(50).count() >= 50;
            }
        });
        CompletableFuture<Cli.Outcome> second = CompletableFuture.supplyAsync(() -> prism("run", "create_files", "--target",
                target.toString(), "--run-id", "second", "--out", out.toString(), "-p", "files=50000"));
        // the state the first run's footer is about: it began a repetition while the second run's directory was there
        Await.until("the first run finished a repetition while the second run was at work", () -> {
            if (!Files.isDirectory(target.resolve("prism-second"))) {
                return false;
            }
            long done = reps(out.resolve("first"));
            Await.until("the first run finishes one more repetition", () -> reps(out.resolve("first")) > done);
            return true;
        });
        Cli.Outcome two = second.get(10, TimeUnit.MINUTES);
        assertThat(two.exit()).as(two.err()).isZero();
        assertThat(two.err()).contains("note: another PRISM run may be at work in " + target + ": prism-first (changed ");
        assertThat(two.out()).contains("note: another PRISM run wrote in " + target + " while this one ran (prism-first):"
                + " its load is in these figures");
        Cli.Outcome one = first.get(10, TimeUnit.MINUTES);
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.out()).contains("note: another PRISM run wrote in " + target + " while this one ran (prism-second)");
    }

    /** @return the repetitions the first run has finished: its rank documents, one per repetition */
    private static long reps(Path results) throws java.io.IOException {
        if (!Files.isDirectory(results)) {
            return 0;
        }
        try (Stream<Path> docs = Files.walk(results)) {
            return docs.filter(p -> p.getFileName().toString().equals("rank-0.json")).count();
        }
    }
}
