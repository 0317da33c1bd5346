package dev.prism.cli;

import dev.prism.spi.TerminalText;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code prism} process of {@code run} and {@code suite}: it makes no call on the target itself. It starts the
 * run in a child JVM (the same command line), relays the child's stdout and stderr, passes SIGINT and SIGTERM on
 * through the child's stdin, and exits with the child's code. A thread waiting in a request the storage never answers
 * (a FUSE daemon that has the request and hangs) cannot be killed: it keeps its process from exiting however the
 * process ends. When the child has ended its work — its main thread has exited — but such a thread holds it, the
 * supervisor says which threads are stuck in which calls, leaves the child to the kernel, and exits with the child's
 * code: {@code --timeout} bounds the {@code prism} process on every filesystem, and a pipe or a CI job waiting on
 * it is released.
 *
 * <p>The child knows it is supervised from {@code PRISM_SUPERVISED=1}: its stdin is then the control channel (a
 * line {@code SIGINT} or {@code SIGTERM} is a signal the supervisor received; end of input, the supervisor's death,
 * interrupts the run too, so a killed {@code prism} still has its child stop, keep what was measured and clean up).
 */
final class Supervisor {
    /**
     * @return whether this process's stderr is a terminal: as the supervisor saw it, for a supervised run (which writes
     *         through the supervisor's stderr), else as descriptor 2 says ({@link dev.prism.ConsoleProgress#stderrIsTerminal()})
     */
    static boolean stderrIsTerminal() {
        String supervisor = System.getenv(STDERR_TERMINAL);
        if (supervisor != null) {
            return supervisor.equals("1");
        }
        return dev.prism.ConsoleProgress.stderrIsTerminal();
    }

    /** The child's environment variable that says it is supervised. */
    static final String SUPERVISED = "PRISM_SUPERVISED";
    /** Tells a supervised child whether the terminal the supervisor writes to is one (for the progress bar). */
    static final String STDERR_TERMINAL = "PRISM_STDERR_TERMINAL";
    /** The supervisor's JVM start, in epoch milliseconds, for the child's account of the command's time. */
    static final String STARTED_MILLIS = "PRISM_STARTED_MILLIS";
    /**
     * The child's environment variable naming a file in a directory only this user may enter, where the child writes
     * the run directory it made in the target: a child killed outright (the OOM killer's SIGKILL) cannot clean it up,
     * so the supervisor does.
     */
    static final String RUN_DIRECTORY_FILE = "PRISM_SUPERVISOR_RUN_FILE";
    /** How the directory a supervisor makes for its run (in the temporary directory) is named. */
    private static final String SCRATCH_PREFIX = "prism-supervisor-";
    /** How long the supervisor spends removing what a killed child left in the target before it says what is left. */
    private static final long CLEANUP_MILLIS = 60_000;
    /** How long the child may take from its main thread's exit to its end before it counts as held by a stuck thread. */
    private static final long EXIT_GRACE_MILLIS = 1_000;
    /** How long the relays get, once the child is abandoned, to pass on what it wrote before it ended its work. */
    private static final long DRAIN_MILLIS = 2_000;

    private final Process child;
    private final Path scratch;
    private final Thread stdoutRelay;
    private final Thread stderrRelay;
    private final AtomicLong lastRelayed = new AtomicLong(System.nanoTime());
    private volatile int signals;
    /** The code a second signal exits with, set before the child is killed; 0 until then. */
    private volatile int secondSignalExit;

    private Supervisor(Process child, Path scratch) {
        this.child = child;
        this.scratch = scratch;
        this.stdoutRelay = relay(child.getInputStream(), new java.io.FileOutputStream(java.io.FileDescriptor.out), "stdout");
        this.stderrRelay = relay(child.getErrorStream(), new java.io.FileOutputStream(java.io.FileDescriptor.err), "stderr");
    }

    /** @return whether this JVM, the {@code prism} command, should supervise a child for {@code args}, or run them itself */
    static boolean wanted(String[] args) {
        if (System.getenv(SUPERVISED) != null) {
            return false; // this is the child
        }
        try {
            picocli.CommandLine.ParseResult parsed = PrismCommand.commandLine(args).parseArgs(args);
            picocli.CommandLine.ParseResult sub = parsed.subcommand();
            if (parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested() || sub == null
                    || sub.isUsageHelpRequested() || sub.isVersionHelpRequested()) {
                return false;
            }
            String name = sub.commandSpec().name();
            if (!name.equals("run") && !name.equals("suite") && !name.equals("qualify")) {
                return false; // no call on a target to bound
            }
            if (sub.hasMatchedOption("--plan") || sub.hasMatchedOption("--print-profile") || sub.hasMatchedOption("--results")) {
                return false;
            }
            // under srun the step's processes are SLURM's to end (it waits for every one): a supervisor would not help
            return sub.matchedOptionValue("--launcher", ScenarioOptions.LauncherKind.THREADS) != ScenarioOptions.LauncherKind.SLURM;
        } catch (picocli.CommandLine.ParameterException e) {
            return false; // the command itself reports the usage error
        }
    }

    /** Runs {@code args} in a supervised child and returns the exit code the {@code prism} command exits with. */
    static int run(String[] args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PrismCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(SUPERVISED, "1");
        builder.environment().put(STDERR_TERMINAL, stderrIsTerminal() ? "1" : "0");
        builder.environment().put(STARTED_MILLIS, String.valueOf(ManagementFactory.getRuntimeMXBean().getStartTime()));
        Path scratch = null;
        Process child;
        try {
            scratch = Files.createTempDirectory(SCRATCH_PREFIX); // 0700: only this user may read what is said there
            builder.environment().put(RUN_DIRECTORY_FILE, scratch.resolve("run-directory").toString());
            child = builder.start();
        } catch (IOException e) {
            System.err.println(TerminalText.escape("prism: cannot start the run's process (" + command.get(0) + "): " + e.getMessage()));
            removeQuietly(scratch);
            return PrismCommand.EXIT_FAILED;
        }
        Supervisor supervisor = new Supervisor(child, scratch);
        try {
            int code = supervisor.supervise();
            if (supervisor.secondSignalExit != 0) {
                // the child ended because the second signal's handler killed it: this thread can see it die before that
                // handler halts the JVM, and must exit with the signal's code, not the SIGKILL the child died of
                return supervisor.secondSignalExit;
            }
            if (code > 128 && supervisor.signals == 0) {
                supervisor.reportKilled(code - 128);
            }
            return code;
        } finally {
            removeQuietly(scratch);
        }
    }

    /**
     * The child died by a signal this supervisor did not send (the OOM killer's SIGKILL, an administrator's kill): says
     * so, and removes the run directory it made in the target, never following a link, naming what it could not remove.
     */
    private void reportKilled(int signal) {
        PrintStream err = System.err;
        err.println(TerminalText.escape("prism: the run's process " + child.pid() + " was killed by signal " + signal + " (" + signalName(signal)
                + (signal == 9 ? ": out of memory? the kernel's log says whom the OOM killer ended: dmesg | grep -i oom" : "")
                + "); results it had not yet written are lost"));
        Path announced = scratch.resolve("run-directory");
        String runDirectory = null;
        try {
            if (Files.isRegularFile(announced, java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.size(announced) < 8192) {
                runDirectory = Files.readString(announced, StandardCharsets.UTF_8).strip();
            }
        } catch (IOException e) {
            // nothing announced: nothing to remove
        }
        if (runDirectory == null || runDirectory.isEmpty()) {
            err.println(TerminalText.escape("prism: it had made no run directory in the target yet: nothing to remove"));
            err.flush();
            return;
        }
        Path directory = Path.of(runDirectory);
        if (!directory.getFileName().toString().startsWith("prism-")) {
            err.flush();
            return; // not a run directory: never removed on this word
        }
        dev.prism.DirectoryRemoval[] removal = new dev.prism.DirectoryRemoval[1];
        // only the directory marked as this run's (its name says which run: prism-<run id>), never another put there
        String runId = directory.getFileName().toString().substring("prism-".length());
        Thread remover = new Thread(() -> removal[0] = dev.prism.DirectoryRemoval.ofRun(directory, runId),
                "prism-supervisor-cleanup");
        remover.setDaemon(true);
        remover.start();
        try {
            remover.join(CLEANUP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (removal[0] == null) {
            err.println(TerminalText.escape("prism: removing what it made in the target, " + directory + ", did not finish within "
                    + CLEANUP_MILLIS / 1000 + " s (the storage is slow or hung): what is left is there"));
        } else if (removal[0].complete()) {
            err.println(TerminalText.escape("prism: removed what it made in the target: " + directory + " (" + removal[0].removed() + " entries)"));
        } else {
            err.println(TerminalText.escape("prism: could not remove all it made in the target: " + removal[0].summary()));
        }
        err.flush();
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 9 -> "SIGKILL";
            case 15 -> "SIGTERM";
            case 6 -> "SIGABRT";
            case 11 -> "SIGSEGV";
            case 2 -> "SIGINT";
            case 1 -> "SIGHUP";
            default -> "signal " + signal;
        };
    }

    /**
     * Removes, from the run's process, the directory its supervisor made for it ({@link #RUN_DIRECTORY_FILE} names the
     * file in it): the supervisor, dead, cannot. By descriptor, never following a link, as the supervisor removes it.
     */
    static void removeScratchOfDeadSupervisor() {
        String file = System.getenv(RUN_DIRECTORY_FILE);
        Path scratch = file == null ? null : Path.of(file).getParent();
        if (scratch != null && scratch.getFileName().toString().startsWith(SCRATCH_PREFIX)) {
            removeQuietly(scratch);
        }
    }

    private static void removeQuietly(Path scratch) {
        if (scratch != null) {
            dev.prism.DirectoryRemoval.of(scratch);
        }
    }

    private int supervise() {
        installSignalForwarding();
        long leaderGoneSince = 0;
        while (true) {
            try {
                if (child.waitFor(50, TimeUnit.MILLISECONDS)) {
                    join(stdoutRelay);
                    join(stderrRelay);
                    return child.exitValue();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return PrismCommand.EXIT_FAILED;
            }
            ChildState state = ChildState.of(child.pid());
            if (state.mainThreadExited()) {
                if (leaderGoneSince == 0) {
                    leaderGoneSince = System.nanoTime();
                } else if (System.nanoTime() - leaderGoneSince > TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MILLIS)) {
                    return abandon(state);
                }
            }
        }
    }

    /** The child ended its work but a thread stuck on the storage holds it: say so, leave it, exit with its code. */
    private int abandon(ChildState state) {
        drain();
        PrintStream err = System.err;
        List<String> stuck = StuckThreads.of(child.pid());
        err.println(TerminalText.escape("prism: the run's process " + child.pid() + " has ended its work but cannot exit: "
                + (stuck.isEmpty() ? "a thread is stuck in a call the storage has not answered"
                : stuck.size() == 1 ? "a thread is stuck in a call the storage has not answered: " + stuck.get(0)
                : stuck.size() + " threads are stuck in calls the storage has not answered: " + String.join("; ", stuck))
                + ". prism exits now and leaves that process to the kernel, which ends it when the storage answers"
                + " (or the mount is aborted)"));
        err.flush();
        child.destroyForcibly(); // ends whatever else still runs in it; the stuck thread waits for the storage
        return state.exitCode();
    }

    /** Lets the relays pass on what the child wrote, until they have been quiet a moment (bounded). */
    private void drain() {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        while (System.nanoTime() < end && System.nanoTime() - lastRelayed.get() < TimeUnit.MILLISECONDS.toNanos(200)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * SIGINT and SIGTERM go to the child as a line on its stdin (it handles them as the run's own signals); a second
     * one ends the child at once, as a second signal ends an unsupervised prism, and this process with it.
     */
    private void installSignalForwarding() {
        OutputStream control = child.getOutputStream();
        for (String name : new String[]{"INT", "TERM"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    synchronized (this) {
                        if (signals++ > 0) {
                            secondSignalExit = 128 + signal.getNumber();
                            child.destroyForcibly();
                            removeQuietly(scratch); // halting skips the finally that would remove it
                            Runtime.getRuntime().halt(secondSignalExit);
                        }
                    }
                    try {
                        control.write(("SIG" + signal.getName() + "\n").getBytes(StandardCharsets.US_ASCII));
                        control.flush();
                    } catch (IOException e) {
                        // the child has gone: its exit ends this process too
                    }
                });
            } catch (IllegalArgumentException e) {
                // the JVM reserves it (-Xrs): the default action stays
            }
        }
    }

    private Thread relay(InputStream from, OutputStream to, String name) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = from.read(buffer)) >= 0; ) {
                    to.write(buffer, 0, n);
                    to.flush();
                    lastRelayed.set(System.nanoTime());
                }
            } catch (IOException e) {
                // the child's end closed, or ours: nothing more to pass on
            }
        }, "prism-relay-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void join(Thread relay) {
        try {
            relay.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What /proc says of the child's main thread (the thread group's leader). */
    private record ChildState(boolean mainThreadExited, int exitCode) {
        static ChildState of(long pid) {
            try {
                String[] fields = StuckThreads.statFields(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
                // field 3 is the state; field 52, exit_code, the status as waitpid reports it (Linux 3.5 and later)
                boolean exited = fields[0].equals("Z") || fields[0].equals("X");
                int status = fields.length > 49 ? Integer.parseInt(fields[49]) : 0;
                int code = (status & 0x7f) != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
                return new ChildState(exited, code);
            } catch (IOException | RuntimeException e) {
                return new ChildState(false, 0); // gone while we looked: waitFor says so next
            }
        }
    }
}
