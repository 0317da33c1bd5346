package dev.prism.torch;

import dev.prism.Benchmark;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.Required;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the torch tests need before they run — a Python with torch, or a skip (a failure under PRISM_REQUIRE_TORCH=1) —
 * and the two-rank run most of them make.
 */
final class TorchPresent {
    private TorchPresent() {
    }

    /** Skips the test class (or fails it, under PRISM_REQUIRE_TORCH=1) unless torch can be run. */
    static void require() {
        java.util.Optional<String> missing = TorchRun.builder().build().torchMissing();
        Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
    }

    /** @return the run of {@code b} by two ranks on {@code target}, within 5 minutes, checked to have passed */
    static RunResult passedOnTwoRanks(Path target, Benchmark b) {
        RunResult r = Scenario.builder().target(target).benchmark(b).tasks(2).timeout(Duration.ofMinutes(5))
                .build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        return r;
    }
}
