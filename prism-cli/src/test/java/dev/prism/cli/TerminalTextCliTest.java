package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A directory another user named {@code x\r\e[2Kall runs PASSED}, given to root's {@code prism}: before, the context
 * line printed the name raw, and the terminal returned the cursor, erased the line and showed the name's own verdict
 * (issue 55). Now every control character of it reaches stdout and stderr escaped, through the real command's writers.
 */
class TerminalTextCliTest {
    private static final String NAME = "x\r\u001b[2Kall runs PASSED\u202e";
    private static final String SHOWN = "x\\r\\x1b[2Kall runs PASSED\\u202e";

    @TempDir
    Path work;

    @Test
    void aTargetWhoseNameMovesTheCursor_isShownEscaped_byRun() throws Exception {
        Path target = Files.createDirectory(work.resolve(NAME));
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "--out", work.resolve("out").toString(),
                "--run-id", "r", "-p", "files=10", "--reps", "1");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("target " + work + "/" + SHOWN + ":");
        assertNoControlCharacters(o);
    }

    @Test
    void aMissingTargetWhoseNameMovesTheCursor_isRefused_escaped() {
        Cli.Outcome o = prism("run", "create_files", "--target", work.resolve(NAME).toString(), "-p", "files=10");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains(SHOWN);
        assertNoControlCharacters(o);
    }

    @Test
    void aValueThatMovesTheCursor_isAUsageError_escaped() {
        Cli.Outcome o = prism("run", "create_files", "--target", work.toString(), "--reps", NAME);
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains(SHOWN);
        assertNoControlCharacters(o);
    }

    @Test
    void resultsInADirectoryWhoseNameMovesTheCursor_areCompared_escaped() throws Exception {
        Cli.Outcome run = prism("run", "create_files", "--target", work.toString(), "-q", "--out", work.resolve(NAME).toString(),
                "--run-id", "r", "-p", "files=10", "--reps", "2");
        assertThat(run.exit()).as(run.err()).isZero();
        Path results = work.resolve(NAME).resolve("r");
        Cli.Outcome o = prism("compare", results.toString(), work.resolve("absent" + NAME).toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("absent" + SHOWN);
        assertNoControlCharacters(o);
    }

    /** Nothing on stdout or stderr but printable text and line breaks: no CR, ESC, C1 or bidirectional control. */
    private static void assertNoControlCharacters(Cli.Outcome o) {
        for (String stream : new String[]{o.out(), o.err()}) {
            assertThat(stream.chars().filter(c -> c != '\n' && (c < 0x20 || c >= 0x7f && c <= 0x9f || c >= 0x202a && c <= 0x202e))
                    .boxed().toList()).as(stream).isEmpty();
            assertThat(stream).doesNotContain("\r").doesNotContain("\u001b").doesNotContain("\u202e");
        }
    }
}
