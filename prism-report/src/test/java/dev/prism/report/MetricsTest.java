package dev.prism.report;

import dev.prism.Benchmark;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.Pushgateway;
import dev.prism.testing.Required;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run's figures where fleets look: the OpenMetrics file as Prometheus's own {@code promtool} checks it, and a round
 * trip through a real Pushgateway (Debian's prometheus-pushgateway, started on loopback here and stopped after), read
 * back from its {@code /metrics}.
 */
class MetricsTest {
    private static final Benchmark TOUCH = dev.prism.testing.Touch.files(200);

    private static RunResult run(Path target) {
        return Scenario.builder().target(target).benchmark(TOUCH).tasks(2).repetitions(2).label("firmware", "4.3")
                .build().execute().runs().get(0);
    }

    @Test
    void theOpenMetricsFile_passesPromtool_andHoldsTheRunsFigures(@TempDir Path dir) throws Exception {
        Required.require(Pushgateway.onPath("promtool"), "PRISM_REQUIRE_PROMETHEUS", "promtool is missing: apt-get install prometheus");
        RunResult run = run(dir);
        Path file = dir.resolve("prism.prom");
        Metrics.writeOpenMetrics(file, List.of(run));
        String text = Files.readString(file);
        assertThat(text).endsWith("# EOF\n");
        String labels = "benchmark=\"touch\",parameters=\"\",tasks=\"2\",host=\"" + run.host().hostname() + "\",target=\""
                + run.target().path() + "\",label_firmware=\"4.3\"";
        assertThat(text).contains("prism_latency_seconds{" + labels + ",operation=\"create\",statistic=\"p99\"} "
                + run.measurement("create").p99Nanos() / 1e9 + "\n");
        assertThat(text).contains("prism_operations{" + labels + ",operation=\"create\"} 800\n");
        assertThat(text).contains("prism_run_passed{" + labels + "} 1\n");
        Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectInput(file.toFile())
                .redirectErrorStream(true).start();
        String said = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(promtool.exitValue()).as("promtool check metrics said: %s", said).isZero();
        assertThat(said).isEmpty();
    }

    @Test
    void pushedFigures_comeBackFromThePushgateway(@TempDir Path dir) throws Exception {
        RunResult run = run(dir);
        URI base;
        try (Pushgateway gateway = Pushgateway.start(dir)) {
            base = gateway.address();
            Metrics.push(base, List.of(run));
            String served = gateway.metrics();
            String p99 = served.lines().filter(l -> l.startsWith("prism_latency_seconds{") && l.contains("operation=\"create\"")
                    && l.contains("statistic=\"p99\"")).findFirst().orElseThrow(() -> new AssertionError(
                    "no create p99 in the Pushgateway's metrics:\n" + served));
            assertThat(p99).contains("benchmark=\"touch\"").contains("tasks=\"2\"").contains("job=\"prism\"")
                    .contains("host=\"" + run.host().hostname() + "\"").contains("target=\"" + run.target().path() + "\"")
                    .contains("label_firmware=\"4.3\"");
            assertThat(Double.parseDouble(p99.substring(p99.lastIndexOf(' ') + 1)))
                    .isEqualTo(run.measurement("create").p99Nanos() / 1e9);
            // a second push of the same host and target replaces the group: one series, not two
            Metrics.push(base, List.of(run));
            assertThat(gateway.metrics().lines().filter(l -> l.equals(p99))).hasSize(1);
        }
        // nothing listens any more: a push says where it could not go
        URI gone = base;
        assertThatThrownBy(() -> Metrics.push(gone, List.of(run)))
                .isInstanceOf(IOException.class).hasMessageStartingWith("could not push to " + gone);
    }

}
