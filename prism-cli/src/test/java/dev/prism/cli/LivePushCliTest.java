package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.Pushgateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A time-based run with {@code --interval} and {@code --push}: each interval's percentiles reach a real Pushgateway
 * while the run is still going (latency over time in a soak run), and the run's final figures after it.
 */
class LivePushCliTest {
    @Test
    void intervalsArePushedAsTheyComplete_whileTheRunGoesOn(@TempDir Path work) throws Exception {
        try (Pushgateway gateway = Pushgateway.start(work)) {
            Path target = Files.createDirectories(work.resolve("target"));
            CompletableFuture<Cli.Outcome> run = CompletableFuture.supplyAsync(() -> prism("run", "create_files", "--target",
                    target.toString(), "--duration", "8s", "--interval", "1s", "-q", "--out", work.resolve("out").toString(),
                    "--push", gateway.address().toString()));
            String first = Await.value("an interval of create_files on the Pushgateway", () -> {
                if (run.isDone()) {
                    return Optional.of("the run ended first: " + run.get().err());
                }
                return gateway.metrics().lines().filter(l -> l.startsWith("prism_interval_latency_seconds{")
                        && l.contains("operation=\"create\"") && l.contains("statistic=\"p99\"")).findFirst();
            });
            assertThat(first).as("pushed while the run went on").doesNotStartWith("the run ended first");
            assertThat(run).as("the run is still going when its first interval is on the gateway").isNotDone();
            assertThat(first).contains("job=\"prism_live\"").contains("benchmark=\"create_files\"").contains("tasks=\"1\"");
            assertThat(Double.parseDouble(first.substring(first.lastIndexOf(' ') + 1))).isPositive();
            Cli.Outcome done = run.get(5, TimeUnit.MINUTES);
            assertThat(done.exit()).as(done.err()).isZero();
            String end = gateway.metrics();
            double lastEnd = end.lines().filter(l -> l.startsWith("prism_interval_end_seconds{")).mapToDouble(
                    l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
            assertThat(lastEnd).as("the latest interval pushed ends within the 8 s run").isBetween(1.0, 8.0);
            assertThat(end).contains("job=\"prism\"").contains("prism_run_passed{");
        }
    }
}
