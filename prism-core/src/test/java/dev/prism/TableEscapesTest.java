package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console table shows what ranks and programs noted, and why a run failed, each on its line: a note or a message
 * holding a line break and a cursor movement started a line of its own under the figures (issue 55).
 */
class TableEscapesTest {
    private static final String FORGED = "v1\n  tasks 1: all runs PASSED\r\u001b[2K";

    @TempDir
    Path target;

    @Test
    void aNoteAndAFailureMessage_stayOnTheirLine_controlCharactersShown() {
        Benchmark noting = Benchmark.builder("noting").run(ctx -> {
            ctx.note("tool", FORGED);
            try (var t = ctx.time("op")) {
                // one timed operation
            }
            throw new IllegalStateException("failed in /g/" + FORGED);
        }).build();
        ScenarioResult result = Scenario.builder().target(target).benchmark(noting).repetitions(1).build().execute();
        String table = result.table();
        assertThat(table).contains("tool=\"v1\\n  tasks 1: all runs PASSED\\r\\x1b[2K\"")
                .contains("/g/v1\\n  tasks 1: all runs PASSED\\r\\x1b[2K").doesNotContain("\r").doesNotContain("\u001b");
        assertThat(table.lines()).noneMatch(line -> line.startsWith("  tasks 1: all runs PASSED"));
    }
}
