package dev.prism.spi;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps credentials out of what PRISM records and prints: a command line written into a result's provenance, a
 * message naming an address. URL user information ({@code https://user:password@host}) becomes
 * {@code https://***@host}, whatever characters the password holds.
 *
 * <p>The URL is parsed, not matched: its user information is everything from just after {@code scheme://} to the
 * <em>last</em> {@code @} of the URL, so a password holding {@code @}, {@code /}, {@code :}, {@code ?} or {@code #}
 * unencoded ({@code http://ops:p@ss/w:rd@gw:9091/x}) is removed whole, where RFC 3986 would end the authority at the
 * first {@code /} and leave {@code ss/w:rd} in sight. The cost is on the safe side: an address whose path holds an
 * {@code @} ({@code http://gw/a@b}) shows only what follows it ({@code http://***@b}). Where the URL ends: for
 * {@link #redactUrl} at the end of the text given (one argument, one address: a password may hold white space too);
 * for {@link #redact} at the next white space, so that the rest of a command line stays readable.
 *
 * <pre>{@code
 * import dev.prism.spi.Credentials;
 *
 * System.out.println(Credentials.redact("prism run x --push http://ops:s3cret@gw:9091"));
 * // prism run x --push http://***@gw:9091
 * System.out.println(Credentials.redactUrl("http://ops:p@ss/w:rd@gw:9091/x"));
 * // http://***@gw:9091/x
 * }</pre>
 */
public final class Credentials {
    /** A URL's scheme and its {@code ://}: the user information, if any, starts right after. */
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");
    /** A word of free text: a URL in it ends where the word does. */
    private static final Pattern WORD = Pattern.compile("\\S+");

    private Credentials() {
    }

    /**
     * @return {@code text} with the user information of every URL in it replaced by {@code ***}, each URL ending at the
     *         next white space; null for null
     */
    public static String redact(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        Matcher word = WORD.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (word.find()) {
            word.appendReplacement(out, Matcher.quoteReplacement(redactUrl(word.group())));
        }
        word.appendTail(out);
        return out.toString();
    }

    /**
     * @param url one URL, or one command-line argument holding one ({@code --push=http://…}), taken whole: any character
     *            may be in its password, white space too
     * @return {@code url} with everything between its first {@code scheme://} and its last {@code @} replaced by
     *         {@code ***}; unchanged when it has no {@code scheme://} or no {@code @} after one; null for null
     */
    public static String redactUrl(String url) {
        if (url == null) {
            return null;
        }
        int at = url.lastIndexOf('@');
        if (at < 0) {
            return url;
        }
        Matcher scheme = SCHEME.matcher(url);
        if (!scheme.find() || scheme.end() > at) {
            return url;
        }
        return url.substring(0, scheme.end()) + "***" + url.substring(at);
    }
}
