package dev.prism.cli;

import dev.prism.PrismException;
import dev.prism.TargetException;
import dev.prism.UnknownBenchmarkException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;

/**
 * The {@code prism} command: {@code list}, {@code describe}, {@code run} and {@code suite}.
 * Exit codes: 0 all passed, 1 a run failed, 2 usage error (bad flag or value, refused target; one
 * line, before any work), 3 every run passed but clean-up left files in the target, 130 or 143
 * interrupted by SIGINT or SIGTERM (results so far kept).
 *
 * <pre>{@code
 * import dev.prism.cli.PrismCommand;
 *
 * int exit = PrismCommand.execute("list");
 * }</pre>
 */
@Command(name = "prism", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, versionProvider = PrismCommand.Version.class,
        description = "Qualifies POSIX storage for AI research by executing real workloads and reporting"
                + " latency percentiles per operation and per rank.")
public final class PrismCommand implements Runnable {
    /** Exit code when every run passed. */
    public static final int EXIT_PASSED = 0;
    /** Exit code when a run failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit code for a usage error: bad flag, bad value, refused target. */
    public static final int EXIT_USAGE = 2;
    /** Exit code when every run passed but removing the run directory left something in the target. */
    public static final int EXIT_LEFT_FILES = 3;
    /**
     * Exit code of {@code compare} when nothing regressed but the repetitions could not judge every statistic
     * (inconclusive or n/a): not a pass, since the evidence does not show one.
     */
    public static final int EXIT_INCONCLUSIVE = 4;

    @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "on failure, show Java's view too: exception classes and stack traces")
    void verbose(boolean on) {
        if (on) {
            System.setProperty(dev.prism.spi.Verbose.PROPERTY, "true");
        }
    }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // the help's own colours: PRISM's text, not a value from elsewhere
        spec.commandLine().usage(dev.prism.spi.TerminalText.raw(spec.commandLine().getOut()));
    }

    private static volatile boolean ownsProcess;

    /**
     * Runs the command line and exits with its code. {@code run} and {@code suite} run in a child JVM that this one
     * supervises ({@link Supervisor}): this process makes no call on the target, so storage that hangs cannot keep it
     * from exiting.
     */
    public static void main(String[] args) {
        ownsProcess = true;
        if (Supervisor.wanted(args)) {
            System.exit(Supervisor.run(args));
        }
        System.exit(execute(args));
    }

    /** @return true when this JVM is the {@code prism} command (main), so it may handle SIGINT and SIGTERM */
    static boolean ownsProcess() {
        return ownsProcess;
    }

    /** @return true when this JVM is the child of a supervising {@code prism} process: its stdin is the control channel */
    static boolean supervised() {
        return ownsProcess && "1".equals(System.getenv(Supervisor.SUPERVISED));
    }

    /** When the command in this JVM began, in epoch milliseconds: see {@link #nanosSinceStart()} */
    private static volatile long commandStartMillis = System.currentTimeMillis();

    /** @return the exit code of running {@code prism args…} in this JVM */
    public static int execute(String... args) {
        commandStartMillis = System.currentTimeMillis();
        return commandLine(args).execute(args);
    }

    /**
     * @return how long ago the {@code prism} command started: its supervisor's JVM start when supervised, this JVM's when
     *         it is the command, else (in a caller's JVM) when {@link #execute} began
     */
    static long nanosSinceStart() {
        long start = commandStartMillis;
        if (ownsProcess) {
            start = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
            String supervisor = System.getenv(Supervisor.STARTED_MILLIS);
            if (supervised() && supervisor != null && supervisor.matches("\\d{1,18}")) {
                start = Long.parseLong(supervisor);
            }
        }
        return Math.max(0, System.currentTimeMillis() - start) * 1_000_000;
    }

    /** Every subcommand, in the order {@code prism --help} lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(ListCommand.class, DescribeCommand.class, RunCommand.class,
            SuiteCommand.class, SbatchCommand.class, CompareCommand.class, GateCommand.class, HistoryCommand.class,
            QualifyCommand.class, ReportCommand.class, DatasetCommand.class, MergeCommand.class,
            CommandLine.HelpCommand.class);

    /** @return the command line with every subcommand, with --verbose off until this command line turns it on */
    static CommandLine commandLine() {
        System.clearProperty(dev.prism.spi.Verbose.PROPERTY);
        return configured(SUBCOMMANDS);
    }

    /**
     * @return the command line that {@code args} need: picocli reads every subcommand's annotations when it is added
     *         (a quarter of a second for all of them on a 2-core VM, most of {@code prism list}), so a command line
     *         naming one subcommand gets that one, {@code --version} alone none, and anything else (help, a name
     *         picocli should suggest a correction for) all of them
     */
    static CommandLine commandLine(String... args) {
        System.clearProperty(dev.prism.spi.Verbose.PROPERTY);
        String first = java.util.Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse(null);
        if (first == null) {
            boolean versionOnly = args.length > 0 && java.util.Arrays.stream(args)
                    .allMatch(a -> a.equals("-V") || a.equals("--version") || a.equals("--verbose"));
            return configured(versionOnly ? List.of() : SUBCOMMANDS);
        }
        for (Class<?> sub : SUBCOMMANDS) {
            if (sub != CommandLine.HelpCommand.class && sub.getAnnotation(Command.class).name().equals(first)) {
                return configured(List.of(sub));
            }
        }
        return configured(SUBCOMMANDS);
    }

    /** @return the configured picocli command line with these subcommands */
    private static CommandLine configured(List<Class<?>> subcommands) {
        CommandLine cli = new CommandLine(new PrismCommand());
        for (Class<?> sub : subcommands) {
            cli.addSubcommand(sub);
        }
        cli.setExecutionStrategy(PrismCommand::executeEscaped);
        cli.setExecutionExceptionHandler(PrismCommand::handleException);
        cli.setParameterExceptionHandler(PrismCommand::handleParameterException);
        // numbers on the command line are ASCII: Java alone would read full-width digits too
        cli.registerConverter(Integer.class, PrismCommand::asciiInt).registerConverter(Integer.TYPE, PrismCommand::asciiInt);
        cli.registerConverter(Long.class, PrismCommand::asciiLong).registerConverter(Long.TYPE, PrismCommand::asciiLong);
        return cli;
    }

    /**
     * Runs the command with its stdout and stderr escaping control characters ({@link dev.prism.spi.TerminalText}): a
     * name another user chose — a directory, a host, a label — is shown, never obeyed by root's terminal. Help, asked
     * for, is printed first as it is: its colours are PRISM's own.
     */
    private static int executeEscaped(CommandLine.ParseResult parsed) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            return help;
        }
        CommandLine root = parsed.commandSpec().commandLine();
        root.setOut(dev.prism.spi.TerminalText.escaping(root.getOut()));   // every subcommand's too
        root.setErr(dev.prism.spi.TerminalText.escaping(root.getErr()));
        return new CommandLine.RunLast().execute(parsed);
    }

    private static int handleParameterException(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = dev.prism.spi.TerminalText.escaping(e.getCommandLine().getErr());
        err.println("prism: " + oneLine(e.getMessage()) + " (see '" + e.getCommandLine().getCommandSpec().qualifiedName()
                + " --help')");
        return EXIT_USAGE;
    }

    private static int handleException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        PrintWriter err = dev.prism.spi.TerminalText.escaping(cli.getErr());
        boolean verbose = dev.prism.spi.Verbose.enabled();
        if (e instanceof IllegalArgumentException || e instanceof TargetException
                || e instanceof UnknownBenchmarkException || e instanceof IllegalStateException
                || e instanceof dev.prism.RefusedException) {
            err.println("prism: " + oneLine(e.getMessage()));
            if (verbose) {
                e.printStackTrace(err);
            }
            return EXIT_USAGE;
        }
        if (e instanceof PrismException) {
            err.println("prism: " + oneLine(e.getMessage()));
        } else if (e instanceof java.io.IOException io) {
            err.println("prism: " + oneLine(dev.prism.spi.Errno.describe(io)));
        } else {
            err.println("prism: internal error: " + oneLine(String.valueOf(e.getMessage()))
                    + (verbose ? "" : " (run with --verbose for details, and please report it)"));
        }
        if (verbose) {
            e.printStackTrace(err);
        }
        return EXIT_FAILED;
    }

    private static Integer asciiInt(String text) {
        try {
            return Integer.valueOf(ascii(text));
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is out of range (at most " + Integer.MAX_VALUE + ")");
        }
    }

    private static Long asciiLong(String text) {
        try {
            return Long.valueOf(ascii(text));
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is out of range (at most " + Long.MAX_VALUE + ")");
        }
    }

    private static String ascii(String text) {
        if (!text.matches("[+-]?[0-9]+")) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a number (ASCII digits only)");
        }
        return text;
    }

    /**
     * @return {@code message} on one line: a usage error is one line a script can log. Its line breaks ({@code \n})
     *         become "; "; any other control character, a carriage return in a name among them, is left for the
     *         escaping writer to show ({@code \r})
     */
    static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("[ \\t]*\\n[ \\t\\n]*", "; ");
    }

    /** Reports PRISM's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"prism " + dev.prism.HostInfo.current().prismVersion(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
