package dev.prism.report;

import dev.prism.spi.Credentials;
import dev.prism.spi.InputFiles;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A Prometheus Pushgateway to push figures to ({@link Metrics#push(Pushgateway, java.util.List)}): its address, over
 * {@code http} or {@code https}, and how to authenticate, if it asks — HTTP basic auth or a bearer token, as a
 * Pushgateway behind a reverse proxy or with its web configuration does. Credentials are sent in the
 * {@code Authorization} header and nowhere else: {@link #toString()} and every message show the address without them.
 *
 * <pre>{@code
 * import dev.prism.report.Pushgateway;
 * import java.net.URI;
 *
 * var gateway = Pushgateway.at(URI.create("https://ops:s3cret@push.example:9091"));
 * System.out.println(gateway);                  // https://push.example:9091 (basic auth)
 * System.out.println(gateway.authenticates());  // true
 * }</pre>
 */
public final class Pushgateway {
    /** The environment variable that may hold the credentials, as a file would ({@code basic USER:PASSWORD} or {@code bearer TOKEN}). */
    public static final String AUTH_ENVIRONMENT = "PRISM_PUSH_AUTH";
    private static final long MAX_AUTH_FILE_BYTES = 4096;

    private final URI address;
    private final String authorization;
    private final String scheme;

    private Pushgateway(URI address, String authorization, String scheme) {
        this.address = address;
        this.authorization = authorization;
        this.scheme = scheme;
    }

    /**
     * @param address {@code http://host:port} or {@code https://host:port}; user information in it
     *                ({@code https://user:password@host}) becomes basic auth and is taken out of the address
     * @throws IllegalArgumentException when it is not such an address, or holds an {@code @} after its host (a password
     *                                  with an unencoded {@code /}, {@code ?}, {@code #} or {@code @}: the message says
     *                                  to percent-encode it, and never repeats it)
     */
    public static Pushgateway at(URI address) {
        Objects.requireNonNull(address, "address");
        if (holdsAtAfterHost(address)) {
            throw new IllegalArgumentException(AT_AFTER_HOST + ", was '" + Credentials.redactUrl(address.toString()) + "'");
        }
        if (address.getHost() == null || !("http".equals(address.getScheme()) || "https".equals(address.getScheme()))) {
            throw new IllegalArgumentException("a Pushgateway's address must be http:// or https:// with a host, such as"
                    + " http://pushgateway:9091, was '" + Credentials.redactUrl(address.toString()) + "'");
        }
        String userInfo = address.getRawUserInfo();
        try {
            URI bare = new URI(address.getScheme(), null, address.getHost(), address.getPort(), address.getPath(), null, null);
            if (userInfo == null) {
                return new Pushgateway(bare, null, null);
            }
            String decoded = java.net.URLDecoder.decode(userInfo, StandardCharsets.UTF_8);
            return new Pushgateway(bare, basicHeader(decoded), "basic auth");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("a Pushgateway's address must be http:// or https:// with a host, was '"
                    + Credentials.redactUrl(address.toString()) + "'", e);
        }
    }

    /**
     * Why an address with an {@code @} after its host is refused: {@code http://ops:p@ss/w:rd@gw:9091} is, to every URL
     * parser, user {@code ops}, password {@code p} and host {@code ss}; pushing there would send part of the password to
     * a host the user never named, and print the rest as a path.
     */
    static final String AT_AFTER_HOST = "a Pushgateway's address may hold '@' only before its host: a password holding"
            + " '/', '?', '#' or '@' must be percent-encoded in it (%2F, %3F, %23, %40), or given by --push-auth-file or $"
            + AUTH_ENVIRONMENT + "; nothing was sent";

    /** @return whether {@code address} has an {@code @} in its path, query or fragment: see {@link #AT_AFTER_HOST} */
    static boolean holdsAtAfterHost(URI address) {
        return Optional.ofNullable(address.getRawPath()).orElse("").contains("@")
                || Optional.ofNullable(address.getRawQuery()).orElse("").contains("@")
                || Optional.ofNullable(address.getRawFragment()).orElse("").contains("@");
    }

    /**
     * @param text {@code basic USER:PASSWORD} or {@code bearer TOKEN} (one line, as in an auth file)
     * @return this gateway authenticating so
     * @throws IllegalArgumentException saying which forms are accepted (never repeating the text)
     */
    public Pushgateway withCredentials(String text) {
        String line = Objects.requireNonNull(text, "text").strip();
        int space = line.indexOf(' ');
        String kind = space < 0 ? line.toLowerCase(java.util.Locale.ROOT) : line.substring(0, space).toLowerCase(java.util.Locale.ROOT);
        String value = space < 0 ? "" : line.substring(space + 1).strip();
        if (kind.equals("basic") && value.contains(":") && !value.contains("\n")) {
            return new Pushgateway(address, basicHeader(value), "basic auth");
        }
        if (kind.equals("bearer") && !value.isEmpty() && value.chars().noneMatch(c -> c <= ' ' || c == 127)) {
            return new Pushgateway(address, "Bearer " + value, "bearer token");
        }
        throw new IllegalArgumentException("Pushgateway credentials must be one line, 'basic USER:PASSWORD' or 'bearer TOKEN'"
                + " (" + line.length() + " characters given, not shown)");
    }

    /**
     * @param file a regular file only its owner may read or write (as ssh asks of a key), holding one line:
     *             {@code basic USER:PASSWORD} or {@code bearer TOKEN}
     * @return this gateway authenticating with the file's credentials
     * @throws IllegalArgumentException naming the file when it is not such a file
     */
    public Pushgateway withCredentialsFrom(Path file) throws IOException {
        InputFiles.requireRegular(file, MAX_AUTH_FILE_BYTES, "push auth file");
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        if (permissions.stream().anyMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"))) {
            throw new IllegalArgumentException("push auth file " + file + " has mode "
                    + java.nio.file.attribute.PosixFilePermissions.toString(permissions)
                    + ": others may read it; refused (chmod 600 " + file + ")");
        }
        try {
            return withCredentials(InputFiles.readText(file, MAX_AUTH_FILE_BYTES, "push auth file"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("push auth file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String basicHeader(String userColonPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userColonPassword.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the address, without credentials */
    public URI address() {
        return address;
    }

    /** @return whether requests carry credentials */
    public boolean authenticates() {
        return authorization != null;
    }

    /** @return the {@code Authorization} header's value, for the request only */
    Optional<String> authorization() {
        return Optional.ofNullable(authorization);
    }

    /** @return the address and how it authenticates, never the credentials */
    @Override
    public String toString() {
        return address + (scheme == null ? "" : " (" + scheme + ")");
    }
}
