package dev.prism.spi;

import dev.prism.ConsoleProgress;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** Control characters from a name reach a terminal shown, never obeyed (issue 55). */
class TerminalTextTest {
    @Test
    void controlCharacters_areShownEscaped_andTheRestUnchanged() {
        assertThat(TerminalText.escape("x\r\u001b[2Kall runs PASSED")).isEqualTo("x\\r\\x1b[2Kall runs PASSED");
        assertThat(TerminalText.escape("a\tb\nc\u007fd\u009be\u202ef\u2066g")).isEqualTo("a\\tb\\nc\\u007fd\\u009be\\u202ef\\u2066g");
        assertThat(TerminalText.escapeKeepingLayout("a\n\tb\u0007\r")).isEqualTo("a\n\tb\\x07\\r");
        assertThat(TerminalText.escape("/tmp/prism-0 é 名前 \\x1b")).isEqualTo("/tmp/prism-0 é 名前 \\x1b");
    }

    /** Whatever the text, what is escaped holds none of the characters a terminal obeys, and plain text is unchanged. */
    @Property(tries = 1000)
    void escapedText_holdsNoControlCharacter(@ForAll("hostile") String text) {
        assertThat(TerminalText.escape(text).chars().filter(c -> TerminalText.escaped((char) c))).isEmpty();
        assertThat(TerminalText.escapeKeepingLayout(text).chars().filter(c -> c != '\n' && c != '\t' && TerminalText.escaped((char) c)))
                .isEmpty();
        assertThat(TerminalText.escapeKeepingLayout(text).chars().filter(c -> c == '\n').count())
                .isEqualTo(text.chars().filter(c -> c == '\n').count());
        String plain = text.chars().filter(c -> !TerminalText.escaped((char) c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        assertThat(TerminalText.escape(plain)).isEqualTo(plain);
    }

    /** The escaping writer is what the CLI prints through: each way of writing to it escapes, lines stay lines. */
    @Property(tries = 300)
    void theEscapingWriter_escapesEveryWayOfWriting(@ForAll("hostile") String text) {
        StringWriter sink = new StringWriter();
        PrintWriter out = TerminalText.escaping(new PrintWriter(sink));
        out.print(text);
        out.write(text.toCharArray(), 0, text.length());
        text.chars().forEach(out::write);
        out.printf("%s%n", text);
        out.flush();
        String line = TerminalText.escapeKeepingLayout(text);
        assertThat(sink.toString()).isEqualTo(line + line + line + line + "\n");
        assertThat(TerminalText.escaping(out)).isSameAs(out);
        assertThat(TerminalText.raw(out)).isNotSameAs(out);
    }

    /** The progress lines print what the target and the ranks said: escaped too, whatever writer they were given. */
    @Test
    void progressLines_showANamesControlCharactersEscaped() {
        StringWriter sink = new StringWriter();
        try (ConsoleProgress progress = ConsoleProgress.to(new PrintWriter(sink), ConsoleProgress.Style.EVENTS)) {
            progress.targetExposed("target /g/x\r\u001b[2Kall runs PASSED is writable by others");
            progress.otherRunsInTarget("prism-1\nall runs PASSED");
        }
        assertThat(sink.toString()).isEqualTo("warning: target /g/x\\r\\x1b[2Kall runs PASSED is writable by others\n"
                + "note: prism-1\\nall runs PASSED\n");
    }

    @Provide
    Arbitrary<String> hostile() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withCharRange('\u0000', '\u00a0').withChars("\u202e\u2066\u2069\u200f\u061c\u2028é名")
                        .ofMaxLength(40));
    }
}
