package dev.prism.report;

import dev.prism.Results;
import dev.prism.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A benchmark name in a result document another user planted, holding a line break and a line of its own
 * ({@code "create_files\nok   every run PASSED"}), was printed by compare and gate as two lines: the second read as a
 * verdict PRISM never gave (issue 55). Every value from a document is one cell on one line, its line breaks escaped,
 * and in markdown its {@code |} too.
 */
class ForeignTextInTablesTest {
    private static final Path CORE_GOLDEN = Path.of("../prism-core/src/test/resources/golden");
    private static final String FORGED = "ok   every run PASSED | verdict";
    private static final String NAME = "create_files\n" + FORGED;

    @TempDir
    Path work;

    private RunResult planted() throws IOException {
        String json = Files.readString(CORE_GOLDEN.resolve("run-pass.json"))
                .replace("\"benchmark\" : \"create_files\"", "\"benchmark\" : \"" + NAME.replace("\n", "\\n") + "\"");
        return Results.load(Files.writeString(work.resolve("planted.json"), json)).get(0);
    }

    @Test
    void compare_printsAForeignValueOnOneLine_escapingItsLineBreak_andItsBarInMarkdown() throws IOException {
        RunResult run = planted();
        assertThat(run.benchmark()).as("the document's name, as planted").isEqualTo(NAME);
        Comparison c = Comparison.defaults().compare(List.of(run), List.of(run));
        assertThat(c.table(false).lines()).noneMatch(line -> line.startsWith(FORGED.substring(0, 10)))
                .anyMatch(line -> line.contains("create_files\\n" + FORGED));
        String markdown = c.table(true);
        assertThat(markdown.lines()).noneMatch(line -> line.startsWith(FORGED.substring(0, 10)));
        assertThat(markdown).contains("create_files\\n" + FORGED.replace("|", "\\|")).doesNotContain(FORGED);
    }

    @Test
    void gate_printsAForeignValueOnOneLine() throws IOException {
        RunResult run = planted();
        String verdict = Gate.of(Gate.expect(NAME).op("create").p99().below(java.time.Duration.ofHours(1)))
                .evaluate(List.of(run)).toString();
        assertThat(verdict.lines()).noneMatch(line -> line.startsWith(FORGED.substring(0, 10)));
        assertThat(verdict).contains("create_files\\n" + FORGED);
    }
}
