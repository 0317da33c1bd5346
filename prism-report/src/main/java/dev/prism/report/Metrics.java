package dev.prism.report;

import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.spi.AtomicFiles;
import dev.prism.spi.Formats;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Results where fleets look: a run's figures as gauges in the OpenMetrics text format (for the Prometheus node
 * exporter's textfile collector, or any scraper) and pushed to a Prometheus Pushgateway. Every sample is labelled with
 * benchmark, parameters, operation, statistic, tasks, host and target, and the result's user labels as
 * {@code label_<key>}; nothing is averaged that the results did not merge.
 *
 * <ul>
 *   <li>{@code prism_latency_seconds{statistic="mean|p50|p90|p99|p999|max"}} per operation, merged over ranks and
 *       repetitions;</li>
 *   <li>{@code prism_operations_per_second}, {@code prism_bytes_per_second}, {@code prism_operations} (samples) and
 *       {@code prism_operation_errors} per operation;</li>
 *   <li>{@code prism_run_passed} (1 or 0) and {@code prism_run_start_seconds} (Unix time) per run.</li>
 * </ul>
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import dev.prism.report.Metrics;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var runs = Scenario.builder().target(tmp).benchmark(touch).build().execute().runs();
 * System.out.print(Metrics.openMetrics(runs));
 * }</pre>
 */
public final class Metrics {
    /** The Pushgateway's job for PRISM's figures. */
    public static final String JOB = "prism";
    private static final List<Stat> LATENCIES = List.of(Stat.MEAN, Stat.P50, Stat.P90, Stat.P99, Stat.P999, Stat.MAX);

    private Metrics() {
    }

    /** @return the runs' figures in the OpenMetrics text format, ending in {@code # EOF} */
    public static String openMetrics(List<RunResult> runs) {
        return text(runs, true, true) + "# EOF\n";
    }

    /** Writes {@link #openMetrics} to {@code file} atomically (the textfile collector never reads half a file). */
    public static void writeOpenMetrics(Path file, List<RunResult> runs) throws IOException {
        AtomicFiles.write(file, openMetrics(runs).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Pushes the runs' figures to a Pushgateway, replacing what this host pushed before for each target (HTTP PUT to
     * {@code /metrics/job/prism/host/<host>/target@base64/<target>}): the group holds the latest figures of every run
     * pushed together.
     *
     * @param gateway the Pushgateway, such as {@code http://pushgateway:9091}
     * @throws IOException naming the gateway and what it answered, when it does not accept them
     */
    public static void push(URI gateway, List<RunResult> runs) throws IOException {
        push(Pushgateway.at(Objects.requireNonNull(gateway, "gateway")), runs);
    }

    /**
     * As {@link #push(URI, List)}, to a gateway that may ask for credentials.
     *
     * @throws IOException naming the gateway (never its credentials) and what it answered, when it does not accept them
     */
    public static void push(Pushgateway pushgateway, List<RunResult> runs) throws IOException {
        URI gateway = pushgateway.address();
        Map<String, List<RunResult>> byGroup = new LinkedHashMap<>();
        for (RunResult run : runs) {
            byGroup.computeIfAbsent(run.host().hostname() + "\u0000" + run.target().path(), k -> new ArrayList<>()).add(run);
        }
        for (List<RunResult> group : byGroup.values()) {
            RunResult first = group.get(0);
            URI uri = URI.create(gateway.toString().replaceFirst("/+$", "") + "/metrics/job/" + JOB + "/host@base64/"
                    + base64(first.host().hostname()) + "/target@base64/" + base64(first.target().path()));
            send(pushgateway, uri, text(group, false, false));
        }
    }

    /** The Pushgateway's job for the intervals of a run still going, apart from the final figures' group. */
    public static final String LIVE_JOB = "prism_live";

    /**
     * One interval of a run still going, merged over the ranks that closed it.
     *
     * @param benchmark  the benchmark
     * @param parameters its parameters
     * @param tasks      its task count
     * @param host       the host driving it
     * @param target     the target's path
     * @param index      the interval's index, 0-based
     * @param seconds    where the interval ends, in seconds into the timed phase
     * @param operations per operation, its latencies in the interval
     */
    public record Interval(String benchmark, Map<String, String> parameters, int tasks, String host, String target, int index,
                           double seconds, Map<String, Measurement> operations) {
        /** Copies. */
        public Interval {
            parameters = Map.copyOf(parameters);
            operations = Map.copyOf(operations);
        }
    }

    /**
     * Pushes one interval's percentiles to a Pushgateway as they complete, during a time-based run: gauges
     * {@code prism_interval_latency_seconds{statistic}}, {@code prism_interval_operations_per_second} and
     * {@code prism_interval_end_seconds}, in the group {@code job=prism_live} of this host and target, each push
     * replacing the last, so a scraper sees latency over time during a soak run.
     *
     * @throws IOException naming the gateway and what it answered, when it does not accept them
     */
    public static void push(URI gateway, Interval interval) throws IOException {
        push(Pushgateway.at(Objects.requireNonNull(gateway, "gateway")), interval);
    }

    /** As {@link #push(URI, Interval)}, to a gateway that may ask for credentials. */
    public static void push(Pushgateway pushgateway, Interval interval) throws IOException {
        URI gateway = pushgateway.address();
        String common = "benchmark=" + quote(interval.benchmark()) + ",parameters="
                + quote(Formats.parameters(interval.parameters())) + ",tasks=" + quote(String.valueOf(interval.tasks()));
        Family latency = new Family("prism_interval_latency_seconds", "latency in the latest interval completed, merged over ranks", null);
        Family ops = new Family("prism_interval_operations_per_second", "operations per second in the latest interval completed", null);
        Family end = new Family("prism_interval_end_seconds", "where the latest interval completed ends, seconds into the timed phase", null);
        end.add(common, interval.seconds());
        new java.util.TreeMap<>(interval.operations()).forEach((op, m) -> {
            String labels = common + ",operation=" + quote(op);
            ops.add(labels, m.opsPerSecond());
            latency.addLatencies(labels, m);
        });
        StringBuilder body = new StringBuilder();
        for (Family family : List.of(latency, ops, end)) {
            family.appendTo(body);
        }
        send(pushgateway, URI.create(gateway.toString().replaceFirst("/+$", "") + "/metrics/job/" + LIVE_JOB + "/host@base64/"
                + base64(interval.host()) + "/target@base64/" + base64(interval.target())), body.toString());
    }

    private static void send(Pushgateway gateway, URI uri, String body) throws IOException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        gateway.authorization().ifPresent(a -> request.header("Authorization", a));
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("pushing to " + gateway + " was interrupted", e);
        } catch (IOException e) {
            throw new IOException("could not push to " + gateway + ": " + (e.getMessage() == null
                    ? "no answer" : e.getMessage()), e);
        }
        if (response.statusCode() / 100 != 2) {
            String answer = response.body().strip();
            throw new IOException("the Pushgateway " + gateway + " refused the figures: HTTP " + response.statusCode()
                    + " " + (answer.length() > 200 ? answer.substring(0, 200) + "…" : answer)
                    + (response.statusCode() == 401 || response.statusCode() == 403 ? (gateway.authenticates()
                    ? " (it did not accept the credentials)" : " (it asks for credentials: --push-auth-file FILE or $"
                    + Pushgateway.AUTH_ENVIRONMENT + ")") : ""));
        }
    }

    /** Base64url as the Pushgateway reads a grouping value with {@code @base64} ({@code =} for the empty string). */
    private static String base64(String value) {
        return value.isEmpty() ? "=" : Base64.getUrlEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(List<RunResult> runs, boolean openMetrics, boolean hostAndTarget) {
        Family latency = new Family("prism_latency_seconds", "latency of one operation, merged over ranks and repetitions",
                openMetrics ? "seconds" : null);
        Family ops = new Family("prism_operations_per_second", "operations per second of the timed phase", null);
        Family bytes = new Family("prism_bytes_per_second", "bytes per second of the timed phase", null);
        Family count = new Family("prism_operations", "operations timed, over ranks and repetitions", null);
        Family errors = new Family("prism_operation_errors", "operations that failed (never samples)", null);
        Family passed = new Family("prism_run_passed", "1 when every repetition of the run passed, else 0", null);
        Family started = new Family("prism_run_start_seconds", "when the run started, seconds since the Unix epoch",
                openMetrics ? "seconds" : null);
        for (RunResult run : runs) {
            String common = labels(run, hostAndTarget);
            passed.add(common, run.passed() ? 1 : 0);
            started.add(common, run.startedAt().toEpochMilli() / 1000.0);
            for (Map.Entry<String, Measurement> e : run.measurements().entrySet()) {
                Measurement m = e.getValue();
                String op = common + ",operation=" + quote(e.getKey());
                count.add(op, m.count());
                errors.add(op, m.errors());
                if (m.count() == 0) {
                    continue;
                }
                latency.addLatencies(op, m);
                ops.add(op, m.opsPerSecond());
                if (m.bytes() > 0) {
                    bytes.add(op, m.bytesPerSecond());
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (Family family : List.of(latency, ops, bytes, count, errors, passed, started)) {
            family.appendTo(out);
        }
        return out.toString();
    }

    private static String labels(RunResult run, boolean hostAndTarget) {
        StringBuilder s = new StringBuilder("benchmark=" + quote(run.benchmark()) + ",parameters="
                + quote(Formats.parameters(run.parameters())) + ",tasks=" + quote(String.valueOf(run.tasks())));
        if (hostAndTarget) {
            s.append(",host=").append(quote(run.host().hostname())).append(",target=").append(quote(run.target().path()));
        }
        run.provenance().labels().forEach((k, v) -> s.append(",label_").append(k.replaceAll("[^A-Za-z0-9_]", "_"))
                .append('=').append(quote(v)));
        return s.toString();
    }

    /** @return a label value in double quotes, with backslash, quote and newline escaped as both formats require */
    static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }

    /** One metric family: its metadata once, then its samples. */
    private static final class Family {
        private final String name;
        private final String help;
        private final String unit;
        private final StringBuilder samples = new StringBuilder();

        Family(String name, String help, String unit) {
            this.name = name;
            this.help = help;
            this.unit = unit;
        }

        void add(String labels, double value) {
            samples.append(name).append('{').append(labels).append("} ").append(number(value)).append('\n');
        }

        /** Adds each latency statistic {@code m} holds enough operations for, in seconds, labelled {@code statistic}. */
        void addLatencies(String labels, Measurement m) {
            for (Stat stat : LATENCIES) {
                if (m.count() > 0 && m.count() >= stat.minimumCount()) {
                    add(labels + ",statistic=" + quote(stat.label().replace(".", "")), stat.of(m) / 1e9);
                }
            }
        }

        void appendTo(StringBuilder out) {
            if (samples.length() == 0) {
                return;
            }
            out.append("# TYPE ").append(name).append(" gauge\n");
            if (unit != null) {
                out.append("# UNIT ").append(name).append(' ').append(unit).append('\n');
            }
            out.append("# HELP ").append(name).append(' ').append(help).append('\n').append(samples);
        }

        private static String number(double v) {
            if (Double.isNaN(v)) {
                return "NaN";
            }
            if (Double.isInfinite(v)) {
                return v > 0 ? "+Inf" : "-Inf";
            }
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : Double.toString(v);
        }
    }
}
