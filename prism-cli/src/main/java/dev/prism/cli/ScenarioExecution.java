package dev.prism.cli;

import dev.prism.ConsoleProgress;

import dev.prism.HostInfo;
import dev.prism.Interruption;
import dev.prism.Signals;
import dev.prism.Launcher;
import dev.prism.SlurmEnvironment;
import dev.prism.SlurmWorker;
import dev.prism.RunResult;
import dev.prism.TargetInfo;
import dev.prism.spi.Formats;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import picocli.CommandLine;

import dev.prism.spi.TerminalText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

/** What {@code run} and {@code suite} share: options → scenario → progress → tables or JSON → exit code. */
final class ScenarioExecution {
    private ScenarioExecution() {
    }

    /**
     * @return how long clean-up may take after a signal under SLURM: within KillWait, which ends in SIGKILL (a second
     *         to spare for the exit), and never more than the default 10 s; at least 1 s
     */
    static Duration cleanupGraceWithin(Duration killWait) {
        return Duration.ofSeconds(Math.max(1, Math.min(10, killWait.toSeconds() - 1))); // KillWait is whole seconds
    }

    /**
     * A supervised run's stdin is its supervisor's control channel: a line {@code SIGTERM} is a signal it received; the
     * end of input is its death (killed with SIGKILL, say), after which this run stops, keeps what was measured and
     * cleans up as after a signal, since nobody waits for it any more.
     */
    private static void listenToSupervisor(Signals signals, Interruption interruption) {
        Thread listener = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                    java.nio.charset.StandardCharsets.US_ASCII))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.equals("SIGINT") || line.equals("SIGTERM")) {
                        signals.forwarded(line);
                    }
                }
            } catch (java.io.IOException e) {
                // as the end of input
            }
            // the supervisor would have removed its scratch directory (where this run tells it the run directory);
            // dead, it cannot: this process does, as it exits, after anything it still writes there
            Runtime.getRuntime().addShutdownHook(new Thread(Supervisor::removeScratchOfDeadSupervisor,
                    "prism-supervisor-scratch"));
            interruption.interrupt("the death of its supervising prism process");
        }, "prism-supervisor-control");
        listener.setDaemon(true);
        listener.start();
    }

    /**
     * @return {@code next}, which, supervised, also tells the supervisor the run directory once the first run has made
     *         it: a run's process killed outright cannot remove it, the supervisor then does
     */
    private static dev.prism.ScenarioListener announcingRunDirectory(dev.prism.ScenarioListener next, Path target, String runId) {
        String file = System.getenv(Supervisor.RUN_DIRECTORY_FILE);
        if (!PrismCommand.supervised() || file == null) {
            return next;
        }
        Path runDirectory = target.toAbsolutePath().normalize().resolve("prism-" + runId);
        return new ForwardingListener(next) {
            private boolean told;

            @Override
            public void executionStarted(dev.prism.Benchmark benchmark, int tasks, int repetition, boolean warmup, int done,
                                         int total) {
                if (!told) {
                    told = true;
                    try {
                        dev.prism.spi.AtomicFiles.write(Path.of(file), (runDirectory + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    } catch (java.io.IOException e) {
                        // the supervisor cannot clean up after a kill: it says it knows of no run directory
                    }
                }
                super.executionStarted(benchmark, tasks, repetition, warmup, done, total);
            }
        };
    }

    /** Keeps what {@link dev.prism.ScenarioListener#otherRunsInTarget} says once the runs have begun: the table's footer. */
    private static final class OtherRunsFooter {
        private volatile String seen;
        private volatile boolean started;

        dev.prism.ScenarioListener around(dev.prism.ScenarioListener next) {
            return new ForwardingListener(next) {
                @Override
                public void executionStarted(dev.prism.Benchmark benchmark, int tasks, int repetition, boolean warmup,
                                             int done, int total) {
                    started = true;
                    super.executionStarted(benchmark, tasks, repetition, warmup, done, total);
                }

                @Override
                public void otherRunsInTarget(String description) {
                    if (started) {
                        seen = description;
                    }
                    super.otherRunsInTarget(description);
                }
            };
        }

        java.util.Optional<String> seen() {
            return java.util.Optional.ofNullable(seen);
        }
    }

    /**
     * The output directory failed (a full disk, a read-only mount): what was measured is kept all the same, in a new
     * directory of the temporary directory, else (that failing too) as documents on stdout.
     *
     * @return where the documents are now; null when only on stdout
     */
    private static Path keepElsewhere(ScenarioResult result, boolean json, PrintWriter stdout, PrintWriter stderr) {
        stderr.println(TerminalText.escape("prism: " + result.unwritten()));
        try {
            Path fallback = java.nio.file.Files.createTempDirectory("prism-results-" + result.runId().replaceAll("[^A-Za-z0-9_.-]", "_") + "-");
            result.writeJson(fallback);
            stderr.println(TerminalText.escape("prism: every run's document is kept in " + fallback + " instead; the table has every figure"));
            stderr.flush();
            return fallback;
        } catch (java.io.IOException | RuntimeException e) {
            stderr.println("prism: the temporary directory failed too (" + (e instanceof java.io.IOException io
                    ? dev.prism.spi.Errno.describe(io) : e.getMessage()) + ")" + (json ? ": the documents are on stdout above"
                    : ": the run's documents follow on stdout"));
            stderr.flush();
            if (!json) {
                stdout.println(result.runs().stream().map(RunResult::toJson).map(String::strip)
                        .collect(Collectors.joining(",\n", "[\n", "\n]")));
                stdout.flush();
            }
            return null;
        }
    }

    static String commandLine(CommandLine cli) {
        java.util.List<String> words = new java.util.ArrayList<>(java.util.List.of("prism"));
        CommandLine.ParseResult root = rootOf(cli).getParseResult(); // the root's holds every argument
        java.util.List<String> args = root == null ? java.util.List.of() : root.originalArgs();
        for (String arg : args) {
            // each argument redacted whole: a password may hold white space and quotes, which split the joined line
            words.add(dev.prism.spi.Credentials.redactUrl(arg.matches("[A-Za-z0-9_./:=,@%+-]+") ? arg
                    : "'" + arg.replace("'", "'\\''") + "'"));
        }
        return String.join(" ", words);
    }

    private static CommandLine rootOf(CommandLine cli) {
        CommandLine c = cli;
        while (c.getParent() != null) {
            c = c.getParent();
        }
        return c;
    }

    private static boolean refused(RunResult run) {
        return run.failure() != null && run.failure().kind() == dev.prism.Failure.Kind.REFUSED;
    }

    /** @return one line saying what was measured where: the numbers mean nothing without it */
    static String context(RunResult run) {
        TargetInfo t = run.target();
        HostInfo h = run.host();
        String line = String.format("target %s: %s on %s (%s), %s free; host %s, %d CPUs, kernel %s", t.path(),
                t.filesystemType(), t.mountSource(), t.mountOptions(), Formats.bytes(t.freeBytes()),
                h.hostname(), h.cpus(), h.kernel());
        java.util.Map<String, java.util.SortedSet<Integer>> nodes = run.nodes();
        if (nodes.size() > 1 || (nodes.size() == 1 && !nodes.containsKey(h.hostname()))) {
            // the I/O ran elsewhere than the driver (or on several nodes): say where
            line += "; ranks on " + nodes.entrySet().stream().map(e -> e.getKey() + " (" + Formats.ranks(e.getValue()) + ")")
                    .collect(Collectors.joining(", "));
        }
        return TerminalText.escape(line); // names from the mount table, the host, the target: one line, shown as they are
    }

    /**
     * Runs the scenario a command composed — its benchmarks, task counts and repetitions in {@code builder} — with what
     * every command shares: the options of the run, progress, tables or JSON, the verdicts and the exit code. The
     * scenario is built once, its run id chosen first, so that everything named after it (the output directory, the
     * run directory a supervisor removes) is known and checked before it is built.
     *
     * @param target        the directory the scenario measures (as given to {@code builder})
     * @param tasksGiven    whether the user chose the task counts; under SLURM those not chosen are the step's
     * @param qualification the scorecard of the results, or null where no qualification judges them
     */
    static int run(CommandLine cli, Scenario.Builder builder, Path target, boolean tasksGiven, ScenarioOptions options,
                   ComparisonOptions judging, java.util.function.Function<java.util.List<RunResult>, dev.prism.report.Scorecard> qualification) {
        builder.timeout(options.timeout).resultMode(options.resultMode).stallThreshold(options.stallThreshold).seed(options.seed)
                .continueOnError(options.continueOnError).pacing(options.pacing());
        if (options.cleanupGrace != null) {
            builder.cleanupGrace(options.cleanupGrace);
        }
        if (options.silenceLimit != null) {
            builder.silenceLimit(options.silenceLimit);
        }
        java.nio.file.Path meeting = options.coordinationDirectory();
        if (meeting != null && options.launcher == ScenarioOptions.LauncherKind.THREADS) {
            throw new IllegalArgumentException("--coordinator applies to --launcher processes or slurm; threads meet in this JVM");
        }
        switch (options.launcher) {
            case PROCESSES -> builder.launcher(meeting == null ? Launcher.processes() : Launcher.processes(meeting));
            case SLURM -> {
                SlurmEnvironment slurm = SlurmEnvironment.current().orElseThrow(() -> new IllegalArgumentException(
                        "--launcher slurm runs under srun (srun -n N prism run … --launcher slurm): SLURM_PROCID is not set"));
                Duration grace = options.cleanupGrace != null ? options.cleanupGrace
                        : cleanupGraceWithin(SlurmEnvironment.killWait(System.getenv()));
                if (slurm.rank() != 0) {
                    return SlurmWorker.of(slurm).target(target).meeting(meeting).timeout(options.timeout).cleanupGrace(grace)
                            .silenceLimit(options.silenceLimit).errors(cli.getErr()).serve();
                }
                builder.cleanupGrace(grace).launcher(meeting == null ? Launcher.slurm(slurm) : Launcher.slurm(slurm, meeting));
                if (!tasksGiven) {
                    builder.tasks(slurm.worldSize()); // given, they must be the step's: Scenario.build() says so
                }
            }
            default -> builder.launcher(Launcher.threads());
        }
        String runId = options.runId != null ? options.runId : Scenario.newRunId();
        builder.runId(runId);
        options.labels.forEach(builder::label);
        builder.command(commandLine(cli));
        Verdicts verdicts = Verdicts.of(options, judging, qualification);
        Path out = options.outputDirectory(runId);
        PrintWriter stdout = cli.getOut();
        PrintWriter stderr = cli.getErr();
        ScenarioResult result;
        Interruption interruption = Interruption.create();
        Signals signals = !PrismCommand.ownsProcess() ? Signals.none() : Signals.install(signal -> {
            interruption.interrupt(signal);
            stderr.println();
            stderr.println("prism: " + signal + ": stopping the ranks, keeping what they measured and cleaning up"
                    + " (send it again to exit at once)");
            stderr.flush();
        });
        if (PrismCommand.supervised()) {
            listenToSupervisor(signals, interruption);
        }
        StageTimes stages;
        OtherRunsFooter footer = new OtherRunsFooter();
        // the API's console progress: a bar on a terminal, and outside one only the events (stalls, slow ranks,
        // warnings), so that a log holds no \r frames and no line per execution; nothing with --quiet
        ConsoleProgress.Style style = options.quiet ? ConsoleProgress.Style.SILENT
                : Supervisor.stderrIsTerminal() ? ConsoleProgress.Style.BAR : ConsoleProgress.Style.EVENTS;
        try (ConsoleProgress progress = ConsoleProgress.to(stderr, style);
             IntervalPusher live = verdicts.metrics().live(progress, target, options.pacing().interval(), stderr)) {
            stages = new StageTimes(announcingRunDirectory(footer.around(live == null ? progress : live), target, runId));
            Scenario scenario = builder.output(out).listener(stages).interruption(interruption).build();
            verdicts.check(scenario);
            options.requireLaunchable(scenario.tasks());
            result = scenario.execute();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.prism.PrismException("interrupted while the last interval was pushed", e);
        }
        if (!result.runs().isEmpty() && result.runs().stream().allMatch(ScenarioExecution::refused)) {
            // nothing ran: the parameters do not fit the target or this machine — a usage error, one line each
            result.runs().forEach(r -> stderr.println(TerminalText.escape("prism: " + r.benchmark() + " with " + r.tasks()
                    + " task(s) refused to start: " + r.failure().message().replaceFirst("^repetition 1: ", ""))));
            stderr.flush();
            return PrismCommand.EXIT_USAGE;
        }
        if (!options.json && !result.runs().isEmpty()) {
            stdout.println(context(result.runs().get(0)));
            stdout.println();
        }
        if (options.json) {
            stdout.println(result.runs().stream().map(RunResult::toJson).map(String::strip)
                    .collect(Collectors.joining(",\n", "[\n", "\n]")));
        } else {
            stdout.print(result.table());
            // another run on the same target while this one ran: said under the figures it touched
            footer.seen().ifPresent(seen -> stdout.println(TerminalText.escape("note: " + seen)));
        }
        stdout.flush();
        Path kept = out;
        if (!result.written()) {
            kept = keepElsewhere(result, options.json, stdout, stderr);
        }
        if (!options.quiet) {
            stderr.println(TerminalText.escape("results: " + (kept == null ? "on stdout (neither " + out
                    + " nor the temporary directory took them)" : kept)));
            stderr.println(TimedShare.line(result.runs(), PrismCommand.nanosSinceStart(), stages));
        }
        for (String failure : result.failures()) {
            // with --verbose a failure ends in Java's stack trace, lines and tabs of its own
            stderr.println(dev.prism.spi.Verbose.enabled() ? TerminalText.escapeKeepingLayout("FAIL " + failure)
                    : TerminalText.escape("FAIL " + failure));
        }
        if (result.cleanup() != null) {
            stderr.println(TerminalText.escape("prism: clean-up left files in the target: " + result.cleanup()));
        }
        boolean verdictsPassed = verdicts.judge(result.runs(), options.json, stdout, stderr);
        if (signals.received() != null) {
            return signals.exitCode();
        }
        if (!result.passed() || !verdictsPassed || !result.written()) {
            return PrismCommand.EXIT_FAILED;
        }
        return result.cleanedUp() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_LEFT_FILES;
    }
}
