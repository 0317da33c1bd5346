package dev.prism.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus Pushgateway (Debian's prometheus-pushgateway) on a free loopback port, for the tests of the metrics
 * export: started and awaited ready, stopped on close. Skips (or fails, under PRISM_REQUIRE_PROMETHEUS=1) without it.
 */
public final class Pushgateway implements AutoCloseable {
    private final Process process;
    private final URI address;
    private final HttpClient http = HttpClient.newHttpClient();

    private Pushgateway(Process process, URI address) {
        this.process = process;
        this.address = address;
    }

    /** Starts one, its log in {@code directory}, and waits until it answers {@code /-/ready}. */
    public static Pushgateway start(Path directory) throws IOException {
        Required.require(onPath("prometheus-pushgateway"), "PRISM_REQUIRE_PROMETHEUS",
                "prometheus-pushgateway is missing: apt-get install prometheus-pushgateway");
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        // its own persistence file: Debian's build keeps pushed metrics in /var/lib/prometheus otherwise, across runs
        Process process = new ProcessBuilder("prometheus-pushgateway", "--web.listen-address=127.0.0.1:" + port,
                "--persistence.file=" + directory.resolve("pushgateway.data"))
                .redirectErrorStream(true).redirectOutput(directory.resolve("pushgateway.log").toFile()).start();
        Pushgateway gateway = new Pushgateway(process, URI.create("http://127.0.0.1:" + port));
        try {
            Await.until("the Pushgateway on port " + port + " answers /-/ready (or exits)", () -> {
                if (!process.isAlive()) {
                    return true;
                }
                try {
                    return gateway.http.send(HttpRequest.newBuilder(gateway.address.resolve("/-/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException e) {
                    return false;
                }
            });
            if (!process.isAlive()) {
                throw new IOException("the Pushgateway exited: " + Files.readString(directory.resolve("pushgateway.log")));
            }
        } catch (IOException | RuntimeException | Error e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    /** @return its address, {@code http://127.0.0.1:PORT} */
    public URI address() {
        return address;
    }

    /** @return what its {@code /metrics} serves now */
    public String metrics() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(address.resolve("/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** @return whether {@code program} is an executable on the PATH */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Stops it and waits for it to end. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
