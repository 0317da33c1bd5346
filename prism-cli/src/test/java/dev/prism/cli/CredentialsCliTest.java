package dev.prism.cli;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Pushgateway behind authentication, on loopback: the credentials of {@code --push http://user:password@…},
 * {@code --push-auth-file} and {@code $PRISM_PUSH_AUTH} reach it in the Authorization header, and nowhere else — not
 * in the result's provenance, a file under {@code --out}, stdout or stderr. Before, the password went into
 * {@code provenance.command} and on stderr, and was never sent (issue 38).
 */
class CredentialsCliTest {
    private static final String PASSWORD = "s3cret-pw-38";
    @TempDir
    Path work;
    private HttpServer gateway;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private volatile int status = 200;

    @BeforeEach
    void startAGatewayThatRecordsWhatAuthenticatesIt() throws IOException {
        gateway = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        gateway.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.getRequestBody().readAllBytes();
            byte[] body = (status == 200 ? "" : "Unauthorized").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        gateway.start();
    }

    @AfterEach
    void stop() {
        gateway.stop(0);
    }

    @Test
    void aPasswordInThePushUrl_isSentAsBasicAuth_andAppearsInNoOutput() throws IOException {
        Cli.Outcome o = run("u", "--push", "http://ops:" + PASSWORD + "@127.0.0.1:" + port());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(authorizations).isNotEmpty().allSatisfy(a -> assertThat(a).isEqualTo("Basic "
                + Base64.getEncoder().encodeToString(("ops:" + PASSWORD).getBytes(StandardCharsets.UTF_8))));
        assertNowhere(o, PASSWORD);
        assertThat(Files.readString(document("u"))).contains("--push http://***@127.0.0.1:" + port());
    }

    @Test
    void aBearerTokenFromAnAuthFile_isSent_andAFileOthersMayRead_isRefused() throws IOException {
        Path auth = Files.createFile(work.resolve("push.auth"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        Files.writeString(auth, "bearer tok-" + PASSWORD + "\n");
        Cli.Outcome o = run("b", "--push", "http://127.0.0.1:" + port(), "--push-auth-file", auth.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(authorizations).isNotEmpty().allSatisfy(a -> assertThat(a).isEqualTo("Bearer tok-" + PASSWORD));
        assertNowhere(o, PASSWORD);

        Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-r--r--"));
        Cli.Outcome open = run("o", "--push", "http://127.0.0.1:" + port(), "--push-auth-file", auth.toString());
        assertThat(open.exit()).isEqualTo(2);
        assertThat(open.err()).contains("push auth file " + auth + " has mode rw-r--r--: others may read it; refused");
        assertThat(open.err() + open.out()).doesNotContain(PASSWORD);
    }

    @Test
    void credentialsTheGatewayRefuses_areSaidSo_withoutRepeatingThem() throws IOException {
        status = 401;
        Cli.Outcome o = run("r", "--push", "http://ops:" + PASSWORD + "@127.0.0.1:" + port());
        assertThat(o.err()).contains("the Pushgateway http://127.0.0.1:" + port() + " (basic auth) refused the figures:"
                + " HTTP 401 Unauthorized (it did not accept the credentials)");
        assertNowhere(o, PASSWORD);
    }

    @Test
    void aMalformedPushUrl_isAUsageError_thatDoesNotRepeatThePassword() {
        Cli.Outcome o = prism("run", "create_files", "--target", work.toString(), "-q", "--push", "ftp://ops:" + PASSWORD + "@gw");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("was 'ftp://***@gw'").doesNotContain(PASSWORD);
    }

    /**
     * {@code http://ops:p@ss/w:rd…@127.0.0.1} is host {@code ss} to every URL parser: before, the figures went there with
     * part of the password, and stderr and the provenance showed the rest ({@code http://***@ss/w:rd…}). Now it is refused
     * before any work, nothing is sent, and the message shows only the host (issue 55).
     */
    @Test
    void aPasswordHoldingAtAndSlash_isRefusedBeforeAnythingIsSent_andAppearsInNoOutput() throws IOException {
        Cli.Outcome o = run("s", "--push", "http://ops:p@ss/w:rd-" + PASSWORD + "@127.0.0.1:" + port() + "/x");
        assertThat(o.exit()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains("was 'http://***@127.0.0.1:" + port() + "/x'").contains("percent-encoded");
        assertThat(authorizations).isEmpty();
        assertThat(o.out() + o.err()).doesNotContain(PASSWORD).doesNotContain("w:rd").doesNotContain("ops:p");
        assertThat(work.resolve("out")).doesNotExist();
    }

    /** A password with a space makes the URL malformed: the refusal, before, printed it whole (no pattern matched). */
    @Test
    void aPasswordHoldingASpace_isNotRepeated_byTheRefusal() {
        Cli.Outcome o = run("w", "--push", "http://ops:pa ss" + PASSWORD + "@127.0.0.1:" + port());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("was 'http://***@127.0.0.1:" + port() + "'");
        assertThat(o.out() + o.err()).doesNotContain(PASSWORD).doesNotContain("pa ss");
    }

    private Cli.Outcome run(String id, String... push) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "create_files", "--target", work.toString(), "--out",
                work.resolve("out").toString(), "--run-id", id, "-p", "files=10", "--reps", "1"));
        args.addAll(List.of(push));
        return prism(args.toArray(String[]::new));
    }

    private Path document(String id) throws IOException {
        try (Stream<Path> files = Files.list(work.resolve("out").resolve(id))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-t1.json")).findFirst().orElseThrow();
        }
    }

    /** The secret is in no output: stdout, stderr, or any file under --out. */
    private void assertNowhere(Cli.Outcome o, String secret) throws IOException {
        assertThat(o.out()).doesNotContain(secret);
        assertThat(o.err()).doesNotContain(secret);
        try (Stream<Path> files = Files.walk(work.resolve("out"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain(secret);
            }
        }
    }

    private int port() {
        return gateway.getAddress().getPort();
    }
}
