package dev.prism.cli;

import dev.prism.RunResult;
import dev.prism.report.Metrics;
import dev.prism.report.Pushgateway;
import dev.prism.spi.Credentials;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** {@code --metrics FILE} and {@code --push URL} of run and suite: checked before any work, done after it. */
final class MetricsExport {
    private final Path file;
    private final Pushgateway gateway;

    private MetricsExport(Path file, Pushgateway gateway) {
        this.file = file;
        this.gateway = gateway;
    }

    /** @return an export that writes and pushes nothing */
    static MetricsExport none() {
        return new MetricsExport(null, null);
    }

    /**
     * @param authFile {@code --push-auth-file}, or null: then {@code $PRISM_PUSH_AUTH}, else the URL's user information
     * @return the export these options ask for, their values checked now (the messages never repeat a password)
     */
    static MetricsExport of(Path file, String push, Path authFile) throws java.io.IOException {
        Pushgateway gateway = null;
        if (push != null) {
            URI address;
            try {
                address = URI.create(push);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--push must be a Pushgateway's http:// or https:// address, such as"
                        + " http://pushgateway:9091, was '" + Credentials.redactUrl(push) + "'");
            }
            if ((String.valueOf(address.getRawPath()) + address.getRawQuery() + address.getRawFragment()).contains("@")) {
                // every URL parser takes http://ops:p@ss/w:rd@gw for host ss: part of the password would go there
                throw new IllegalArgumentException("--push may hold '@' only before the host: a password holding '/', '?',"
                        + " '#' or '@' must be percent-encoded in the URL (%2F, %3F, %23, %40), or given by --push-auth-file"
                        + " or $" + Pushgateway.AUTH_ENVIRONMENT + "; was '" + Credentials.redactUrl(push) + "'");
            }
            try {
                gateway = Pushgateway.at(address);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--push must be a Pushgateway's http:// or https:// address, such as"
                        + " http://pushgateway:9091, was '" + Credentials.redactUrl(push) + "'");
            }
            String fromEnvironment = System.getenv(Pushgateway.AUTH_ENVIRONMENT);
            if (authFile != null) {
                gateway = gateway.withCredentialsFrom(authFile);
            } else if (fromEnvironment != null && !fromEnvironment.isBlank()) {
                try {
                    gateway = gateway.withCredentials(fromEnvironment);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("$" + Pushgateway.AUTH_ENVIRONMENT + ": " + e.getMessage(), e);
                }
            }
        } else if (authFile != null) {
            throw new IllegalArgumentException("--push-auth-file gives credentials for --push: give the Pushgateway's address"
                    + " with --push URL");
        }
        if (file != null && java.nio.file.Files.isDirectory(file)) {
            throw new IllegalArgumentException("--metrics " + file + " is a directory; name the file to write, such as "
                    + file.resolve("prism.prom"));
        }
        return new MetricsExport(file, gateway);
    }

    /**
     * @param target   the target the run measures, as each pushed interval names it
     * @param interval the length of the intervals ({@code --interval}); zero: none
     * @return with {@code --push} and {@code --interval}, a listener pushing each interval as it completes around
     *         {@code next}; else null
     */
    IntervalPusher live(dev.prism.ScenarioListener next, Path target, java.time.Duration interval, PrintWriter err) {
        if (gateway == null || interval.isZero()) {
            return null;
        }
        return new IntervalPusher(next, gateway, target, interval, err);
    }

    /** Writes and pushes the runs' figures; a failure is said on stderr and never hides the results. */
    void export(List<RunResult> runs, PrintWriter err) {
        if (runs.isEmpty()) {
            return;
        }
        if (file != null) {
            try {
                Metrics.writeOpenMetrics(file.toAbsolutePath(), runs);
            } catch (IOException e) {
                err.println("prism: could not write the metrics to " + file + ": " + dev.prism.spi.Errno.describe(e));
            }
        }
        if (gateway != null) {
            try {
                Metrics.push(gateway, runs);
            } catch (IOException e) {
                err.println("prism: " + e.getMessage());
            }
        }
        err.flush();
    }
}
