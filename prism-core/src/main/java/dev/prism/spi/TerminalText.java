package dev.prism.spi;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Text for a terminal, from anywhere: a directory or target name, a host name, a note, a parameter, a message that
 * embeds a path — whatever another user or another process chose — reaches stdout and stderr with its control
 * characters shown, never obeyed. Before, a directory named {@code x\r\e[2Kall runs PASSED} returned root's cursor,
 * erased the line and printed a verdict of its own (issue 55).
 *
 * <p>Escaped, visibly and in a form a JSON reader reads back as the same character: the C0 controls
 * ({@code \r}, {@code \n}, {@code \t}, else {@code \x1b} and the like: these never occur raw inside a JSON string); DEL,
 * the C1 controls (U+0080–U+009F), the bidirectional controls that reorder what a terminal shows (U+061C, U+200E/F,
 * U+202A–E, U+2066–9) and the line and paragraph separators (U+2028/9) as a backslash, {@code u} and four hex digits, as
 * JSON writes them (U+202E shows as {@code \}{@code u202e}). A backslash
 * is not doubled, so that JSON and paths read as they are. {@link #escape} escapes line breaks and tabs too: for a
 * value set into a line, or a line. {@link #escapeKeepingLayout} and {@link #escaping(PrintWriter)} keep {@code \n} and
 * {@code \t}, which move the cursor only forward: for what PRISM composed of many lines (a table, a JSON document, a
 * stack trace); a value put into such text is escaped whole with {@link #escape} where a forged line would matter.
 *
 * <pre>{@code
 * import dev.prism.spi.TerminalText;
 *
 * System.out.println(TerminalText.escape("x\r\033[2Kall runs PASSED"));   // x\r\x1b[2Kall runs PASSED
 * }</pre>
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** @return {@code text} with every control character escaped, a line break too; null as "null" */
    public static String escape(CharSequence text) {
        return escape(text, false);
    }

    /** @return {@code text} with every control character but {@code \n} and {@code \t} escaped; null as "null" */
    public static String escapeKeepingLayout(CharSequence text) {
        return escape(text, true);
    }

    /**
     * @return a writer that passes all it is given to {@code out} through {@link #escapeKeepingLayout}, flushing at
     *         each line; {@code out} itself where it is such a writer already
     */
    public static PrintWriter escaping(PrintWriter out) {
        if (out instanceof Escaping) {
            return out;
        }
        return new Escaping(out);
    }

    /**
     * @return the writer under {@code out} where it is an {@link #escaping} one, else {@code out}: for PRISM's own
     *         control sequences (a progress bar's {@code \r}), the text in them escaped by the caller
     */
    public static PrintWriter raw(PrintWriter out) {
        return out instanceof Escaping e ? e.raw : out;
    }

    /** @return whether {@code c} is shown escaped (a line break among them) */
    public static boolean escaped(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f
                || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }

    private static boolean kept(char c, boolean keepLayout) {
        return !escaped(c) || keepLayout && (c == '\n' || c == '\t');
    }

    private static String escape(CharSequence text, boolean keepLayout) {
        if (text == null) {
            return "null";
        }
        int first = 0;
        while (first < text.length() && kept(text.charAt(first), keepLayout)) {
            first++;
        }
        if (first == text.length()) {
            return text.toString();
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (kept(c, keepLayout)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x20) {
                out.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    /** A print writer escaping what passes through it. */
    private static final class Escaping extends PrintWriter {
        private final PrintWriter raw;

        Escaping(PrintWriter raw) {
            super(new FilterWriter(raw) {
                @Override
                public void write(int c) throws IOException {
                    out.write(escape(String.valueOf((char) c), true));
                }

                @Override
                public void write(char[] chars, int offset, int length) throws IOException {
                    out.write(escape(java.nio.CharBuffer.wrap(chars, offset, length), true));
                }

                @Override
                public void write(String text, int offset, int length) throws IOException {
                    out.write(escape(text.subSequence(offset, offset + length), true));
                }
            }, true);
            this.raw = raw;
        }
    }
}
