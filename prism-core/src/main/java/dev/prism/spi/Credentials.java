package dev.prism.spi;

import java.util.regex.Pattern;

/**
 * Keeps credentials out of what PRISM records and prints: a command line written into a result's provenance, a
 * message naming an address. URL user information ({@code https://user:password@host}) becomes
 * {@code https://***@host}.
 *
 * <pre>{@code
 * import dev.prism.spi.Credentials;
 *
 * System.out.println(Credentials.redact("prism run x --push http://ops:s3cret@gw:9091"));
 * // prism run x --push http://***@gw:9091
 * }</pre>
 */
public final class Credentials {
    /** A URL's scheme, then user information up to the {@code @} before its host. */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/@\\s]+@");

    private Credentials() {
    }

    /** @return {@code text} with the user information of every URL in it replaced by {@code ***} */
    public static String redact(String text) {
        return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@");
    }
}
