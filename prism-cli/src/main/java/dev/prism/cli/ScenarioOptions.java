package dev.prism.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;

/** Options shared by {@code run} and {@code suite}. */
final class ScenarioOptions {
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "prism-results",
            description = "where result JSON goes, in a subdirectory named by the run id (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--result-mode", paramLabel = "MODE", defaultValue = "0644", converter = OctalModeConverter.class,
            description = "permission bits of the result documents in --out, octal, e.g. 0600 for only their owner"
                    + " (default: ${DEFAULT-VALUE})")
    int resultMode;

    @Option(names = "--json", description = "print the result documents (a JSON array) on stdout instead of tables")
    boolean json;

    @Option(names = {"-q", "--quiet"}, description = "no progress bar or stall notices on stderr")
    boolean quiet;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m",
            converter = DurationConverter.class,
            description = "deadline of each repetition, e.g. 30s, 10m (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--stall-threshold", paramLabel = "DURATION", defaultValue = "1s",
            converter = DurationConverter.class,
            description = "operations slower than this are reported as stalls (default: ${DEFAULT-VALUE})")
    Duration stallThreshold;

    @Option(names = "--cleanup-grace", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "how long removing the run directory may go without progress, and after a signal"
                    + " how long it may take in all, before it is given up naming what was left (default: 10s; under"
                    + " --launcher slurm, KillWait less a second)")
    Duration cleanupGrace;

    @Option(names = "--silence-limit", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "how long a rank process or the coordinator may go unheard before the other end asks whether"
                    + " its node is still there; one that answers is slow and waited for, one that does not is lost"
                    + " (default: a tenth of --timeout, from 15s to 60s)")
    Duration silenceLimit;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "seed of every rank's random source (default: ${DEFAULT-VALUE})")
    long seed;

    /** How ranks are started. */
    enum LauncherKind { THREADS, PROCESSES, SLURM }

    @Option(names = "--launcher", paramLabel = "KIND", defaultValue = "threads", converter = LauncherConverter.class,
            description = "threads (ranks in this JVM), processes (one JVM per rank on this host) or slurm"
                    + " (each srun task is a rank; rank 0 coordinates) (default: ${DEFAULT-VALUE})")
    LauncherKind launcher;

    @Option(names = "--coordinator", paramLabel = "tcp|file:DIR", defaultValue = "tcp",
            description = "how processes and slurm ranks meet: tcp (rank 0 listens), or file:DIR, a directory on the"
                    + " shared filesystem, where ranks cannot open sockets to each other (default: ${DEFAULT-VALUE})")
    String coordinator;

    /** @return the shared directory of --coordinator file:DIR, or null for tcp */
    java.nio.file.Path coordinationDirectory() {
        if (coordinator.equals("tcp")) {
            return null;
        }
        if (coordinator.startsWith("file:") && coordinator.length() > 5) {
            java.nio.file.Path dir = java.nio.file.Path.of(coordinator.substring(5)).toAbsolutePath();
            if (!java.nio.file.Files.isDirectory(dir)) {
                throw new IllegalArgumentException("--coordinator file:" + dir + ": no such directory; give an existing"
                        + " directory on the filesystem all ranks share");
            }
            return dir;
        }
        throw new IllegalArgumentException("--coordinator must be tcp or file:DIR, was '" + coordinator + "'");
    }

    /** The most ranks as threads of one JVM: each holds buffers and a thread stack; beyond this, use processes or SLURM. */
    static final int MAX_THREAD_RANKS = 4096;
    /** What one rank process needs at least (a small JVM heap and its code). */
    static final long BYTES_PER_RANK_PROCESS = 96L << 20;

    /** Refuses task counts the launcher cannot start on this machine, before any work. */
    void requireLaunchable(java.util.List<Integer> tasks) {
        int most = tasks.stream().mapToInt(Integer::intValue).max().orElse(1);
        if (launcher == LauncherKind.THREADS && most > MAX_THREAD_RANKS) {
            throw new IllegalArgumentException("--tasks " + most + " is more than " + MAX_THREAD_RANKS + " ranks as threads"
                    + " of one JVM; use --launcher processes or slurm");
        }
        if (launcher == LauncherKind.PROCESSES) {
            long available = dev.prism.HostInfo.availableMemoryBytes();
            long limit = available == 0 ? 1024 : Math.max(1, Math.min(1024, available / BYTES_PER_RANK_PROCESS));
            if (most > limit) {
                throw new IllegalArgumentException("--tasks " + most + " rank processes need about " + (most * 96)
                        + " MiB, but this host has " + available / (1 << 20) + " MiB available (at most " + limit
                        + " ranks here); spread them over nodes with --launcher slurm");
            }
        }
    }

    /**
     * @return {@code --out}/{@code runId}, checked before any work: --out must be a directory (or
     *         creatable), and the run's own directory must not exist yet (a link planted there is refused)
     */
    Path outputDirectory(String runId) {
        if (out.toString().isEmpty()) {
            throw new IllegalArgumentException("--out must name a directory, was ''");
        }
        if (java.nio.file.Files.exists(out) && !java.nio.file.Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + " is not a directory");
        }
        Path run = out.resolve(runId);
        if (java.nio.file.Files.exists(run, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("--out " + out + " already holds " + run.getFileName()
                    + (java.nio.file.Files.isSymbolicLink(run) ? " (a symbolic link)" : "") + "; choose another --run-id");
        }
        return run;
    }

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "run each repetition for this long and count what was done, instead of a fixed amount of work"
                    + " (create_files, list_files, move_files, open_contention, md5_check, create_synthetic_workload)")
    Duration duration;

    @Option(names = "--ramp", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "with --duration: work this long first, untimed")
    Duration ramp;

    @Option(names = "--interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "also keep one histogram per interval of the timed phase (JSON time series and an HdrHistogram"
                    + " log beside each result), e.g. 1s")
    Duration interval;

    /** @return the pacing these options ask for */
    dev.prism.Pacing pacing() {
        return dev.prism.Pacing.of(duration == null ? Duration.ZERO : duration, ramp == null ? Duration.ZERO : ramp,
                interval == null ? Duration.ZERO : interval);
    }

    @Option(names = "--continue-on-error", description = "count a failed operation (per operation and errno, in the table"
            + " and JSON) and go on with the next file instead of failing the run, as fio's continue_on_error: for"
            + " qualifying flaky storage (create, move and delete files, md5_check)")
    boolean continueOnError;

    @Option(names = "--gate", paramLabel = "FILE", description = "a gate file of expectations; exit 1 when one fails")
    java.nio.file.Path gate;

    @Option(names = "--baseline", paramLabel = "DIR", description = "earlier results to hold this run against (gates that"
            + " say notSlowerThanBaselineBy, and a comparison table)")
    java.nio.file.Path baseline;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "a fact about this run to record in every result"
            + " (firmware=4.3, kernel_change=…), shown by history where a series shifted; repeatable")
    java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();

    @Option(names = "--junit", paramLabel = "FILE", description = "with --gate: write the verdict as JUnit XML, one test"
            + " case per expectation, for CI systems to show")
    java.nio.file.Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "with --gate: write the verdict as Markdown, for a"
            + " CI job's summary page")
    java.nio.file.Path markdown;

    @Option(names = "--metrics", paramLabel = "FILE", description = "write the run's figures in the OpenMetrics text"
            + " format, e.g. for the Prometheus node exporter's textfile collector (FILE.prom)")
    java.nio.file.Path metrics;

    @Option(names = "--push", paramLabel = "URL", description = "push the run's figures to a Prometheus Pushgateway,"
            + " e.g. http://pushgateway:9091, grouped by job prism and this host")
    String push;

    @Option(names = "--push-auth-file", paramLabel = "FILE", description = "credentials for --push: a file only you may"
            + " read holding 'basic USER:PASSWORD' or 'bearer TOKEN' (else $PRISM_PUSH_AUTH, else the URL's user:password);"
            + " never recorded or printed")
    java.nio.file.Path pushAuthFile;

    @Option(names = "--run-id", paramLabel = "ID", description = "names the run directory and results (default: time-based)")
    String runId;

    /** Reads threads|processes|slurm in any case. */
    static final class LauncherConverter implements picocli.CommandLine.ITypeConverter<LauncherKind> {
        @Override
        public LauncherKind convert(String value) {
            try {
                return LauncherKind.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a launcher; use threads,"
                        + " processes or slurm");
            }
        }
    }
}
