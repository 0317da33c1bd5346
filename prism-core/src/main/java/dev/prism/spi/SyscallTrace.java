package dev.prism.spi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Times, in the kernel, the file system calls of one program and everything it starts: the program is placed in a
 * cgroup of its own (cgroup v2) and a {@code bpftrace} script, attached before the program starts, stamps the entry
 * and exit of each call made there ({@link #CALLS}) with the monotonic clock {@link System#nanoTime} reads. Needs root, {@code bpftrace} and a
 * kernel with syscall tracepoints; {@link #unavailable()} says why not where it cannot serve. Nothing is written to
 * disk: the script is an argument, the calls come back on bpftrace's output, the cgroup is removed on close. Start
 * and stop a trace on one thread: bpftrace is told to end when the thread that started it does (util-linux's
 * {@code setpriv --pdeathsig}), so that a JVM killed outright leaves no tracer behind.
 *
 * <pre>{@code
 * if (dev.prism.spi.SyscallTrace.unavailable() == null) {
 *     try (var trace = dev.prism.spi.SyscallTrace.start(c -> {})) {
 *         dev.prism.spi.ChildProcess.of(trace.wrap(java.util.List.of("cat", "/etc/hostname"))).run();
 *         trace.stop().calls().stream().filter(c -> c.name().equals("openat")).forEach(System.out::println);
 *     }
 * }
 * }</pre>
 */
public final class SyscallTrace implements AutoCloseable {
    /** The system calls traced, by their names in strace's spelling, with the argument that names their file. */
    public static final List<String> CALLS = List.of("open", "openat", "read", "pread64", "readv", "write", "pwrite64",
            "writev", "fsync", "fdatasync", "close", "stat", "lstat", "fstat", "newfstatat", "statx", "rename",
            "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "getdents64");
    /** The calls that name their file by path */
    private static final List<String> PATH_CALLS = List.of("open", "openat", "stat", "lstat", "newfstatat", "statx",
            "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat");
    /** The calls whose result is a count of bytes moved */
    private static final List<String> MOVING_BYTES = List.of("read", "pread64", "readv", "write", "pwrite64", "writev");
    private static final Path TRACEFS = Path.of("/sys/kernel/tracing");
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final Duration ATTACH_LIMIT = Duration.ofSeconds(120);

    /**
     * One traced call.
     *
     * @param pid        the process (thread group) that made it
     * @param tid        the thread
     * @param name       the call, in strace's spelling ({@code openat}, {@code stat}, {@code fstat}…)
     * @param startNanos when it entered the kernel, on {@link System#nanoTime}'s clock
     * @param nanos      how long it took in the kernel
     * @param result     what it returned: negative is an errno
     * @param path       the file it named or worked on ({@code fd} calls: the path the traced process opened it by),
     *                   empty when unknown (a pipe, a socket, a descriptor opened before the trace)
     */
    public record Call(int pid, int tid, String name, long startNanos, long nanos, long result, String path) {
        /** @return whether the call failed (returned an errno) */
        public boolean failed() {
            return result < 0;
        }

        /**
         * @return whether the call worked on a file: a call that names a path, or a descriptor call on a descriptor a
         *         traced open made (false for pipes, sockets and descriptors from before the trace)
         */
        public boolean onFile() {
            return !path.isEmpty() || PATH_CALLS.contains(name);
        }

        /** @return the bytes a read or write moved, else 0 */
        public long bytes() {
            return result > 0 && MOVING_BYTES.contains(name) ? result : 0;
        }
    }

    /**
     * What a finished trace saw.
     *
     * @param calls    every call, in the order they started
     * @param parentOf each traced process started by another traced process: child pid → parent pid
     * @param lost     calls bpftrace could not deliver (its buffer was full): the counts are then lower bounds
     * @param undrained the CPUs whose trace buffer was not seen read to its end before the trace stopped (see
     *                  {@link #stop}): empty when every call made before the stop was delivered; else the counts are
     *                  lower bounds
     */
    public record Result(List<Call> calls, Map<Integer, Integer> parentOf, long lost, List<Integer> undrained) {
        /** Copies. */
        public Result {
            undrained = List.copyOf(undrained);
        }

        /** @return whether every count is exact: nothing lost, every CPU's buffer read to its end */
        public boolean complete() {
            return lost == 0 && undrained.isEmpty();
        }
    }

    private final Path cgroup;
    private final Process tracer;
    private final List<Raw> raws = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String> paths = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Integer, Integer> parentOf = Collections.synchronizedMap(new HashMap<>());
    private final List<long[]> forks = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong lost = new AtomicLong();
    /** The processes that mark the end of each CPU's buffer (see {@link #drain}): their calls are not the programs' */
    private final java.util.Set<Integer> markerPids = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The CPUs whose marker call the reader has seen */
    private final java.util.Set<Integer> drained = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final String markerName = "prism-trace-marker-" + Long.toHexString(new java.security.SecureRandom().nextLong());
    private final Thread reader;
    private final OutputTail errors;
    private Result result;

    private SyscallTrace(Path cgroup, Process tracer, Consumer<Call> live) throws IOException {
        this.cgroup = cgroup;
        this.tracer = tracer;
        this.errors = new OutputTail(tracer.getErrorStream(), 4096, "prism-trace-stderr");
        BufferedReader out = new BufferedReader(new InputStreamReader(tracer.getInputStream(), StandardCharsets.UTF_8));
        Object attached = new Object();
        boolean[] ready = {false};
        this.reader = new Thread(() -> read(out, live, attached, ready), "prism-trace-reader");
        reader.setDaemon(true);
        reader.start();
        long end = System.nanoTime() + ATTACH_LIMIT.toNanos();
        synchronized (attached) {
            while (!ready[0] && tracer.isAlive() && System.nanoTime() < end) {
                try {
                    attached.wait(50);
                } catch (InterruptedException e) {
                    close();
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while bpftrace attached its probes");
                }
            }
        }
        if (!ready[0]) {
            boolean died = !tracer.isAlive();
            close();
            try {
                errors.await(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException((died ? "bpftrace failed before attaching its probes: "
                    : "bpftrace did not attach its probes within " + ATTACH_LIMIT.toSeconds() + " s: ")
                    + meaningful(errors.text()));
        }
    }

    private void read(BufferedReader out, Consumer<Call> live, Object attached, boolean[] ready) {
        try {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals("PRISM_ATTACHED")) {
                    synchronized (attached) {
                        ready[0] = true;
                        attached.notifyAll();
                    }
                } else if (line.startsWith("P ")) {
                    String[] f = line.split(" ", 4);
                    if (f.length == 4) {
                        paths.put(f[1] + " " + f[2], f[3]);
                    }
                } else if (line.startsWith("C ")) {
                    Raw raw = Raw.parse(line);
                    if (raw != null) {
                        String path = raw.fd < 0 ? paths.getOrDefault(raw.tid + " " + (-raw.fd), "") : "";
                        if (path.contains(markerName)) {
                            synchronized (drained) {
                                drained.add(Integer.parseInt(path.substring(path.lastIndexOf('-') + 1)));
                                drained.notifyAll();
                            }
                            continue;
                        }
                        raws.add(raw);
                        if (!markerPids.contains(raw.pid)) {
                            live.accept(new Call(raw.pid, raw.tid, raw.name, raw.start, raw.nanos, raw.result, path));
                        }
                    }
                } else if (line.startsWith("F ")) {
                    String[] f = line.split(" ");
                    parentOf.put(Integer.parseInt(f[2]), Integer.parseInt(f[1]));
                    forks.add(new long[]{Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseUnsignedLong(f[3])});
                } else if (line.startsWith("Lost ")) {
                    String[] f = line.split(" ");
                    lost.addAndGet(Long.parseLong(f[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the tracer ended; what it delivered stays
        }
    }

    /**
     * A call as bpftrace printed it: a descriptor call names its fd; a path call's path comes on a line of its own,
     * keyed by thread and the key given here as {@code -fd}.
     */
    record Raw(int pid, int tid, String name, long start, long nanos, long result, long fd) {
        static Raw parse(String line) {
            String[] f = line.split(" ");
            if (f.length != 8) {
                return null;
            }
            try {
                return new Raw(Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3], Long.parseUnsignedLong(f[4]),
                        Long.parseUnsignedLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * @param forks each {@code {parent, child, when}}: a child starts with its parent's descriptors
     * @return the calls in the order they started, each with its path: a path call's from its entry, a descriptor
     *         call's from the open that made the descriptor in the same process or a parent before it forked (empty
     *         where none was traced: a pipe, a socket, a descriptor from before the trace or made by dup)
     */
    static List<Call> joined(List<Raw> raws, List<long[]> forks, Map<String, String> paths) {
        List<Raw> ordered = new ArrayList<>(raws);
        ordered.sort(java.util.Comparator.comparingLong(Raw::start));
        List<long[]> forked = new ArrayList<>(forks);
        forked.sort(java.util.Comparator.comparingLong(f -> f[2]));
        Map<Integer, Map<Long, String>> open = new HashMap<>();
        List<Call> calls = new ArrayList<>(ordered.size());
        int f = 0;
        for (Raw r : ordered) {
            for (; f < forked.size() && forked.get(f)[2] <= r.start; f++) {
                Map<Long, String> parent = open.get((int) forked.get(f)[0]);
                if (parent != null) {
                    open.put((int) forked.get(f)[1], new HashMap<>(parent));
                }
            }
            Map<Long, String> table = open.computeIfAbsent(r.pid, k -> new HashMap<>());
            String path = r.fd < 0 ? paths.getOrDefault(r.tid + " " + (-r.fd), "") : table.getOrDefault(r.fd, "");
            if ((r.name.equals("open") || r.name.equals("openat")) && r.result >= 0) {
                table.put(r.result, path);
            } else if (r.name.equals("close") && r.result == 0) {
                table.remove(r.fd);
            }
            calls.add(new Call(r.pid, r.tid, r.name, r.start, r.nanos, r.result, path));
        }
        return calls;
    }

    /** @return bpftrace's complaints without its warning about the locked-memory limit, which it survives */
    private static String meaningful(String stderr) {
        return stderr.lines().filter(l -> !l.contains("RLIMIT_MEMLOCK")).collect(java.util.stream.Collectors.joining("; "))
                .strip();
    }

    /**
     * @return null when this process can trace system calls in the kernel, else why not (and what to do about it);
     *         mounts tracefs where it is missing (one rank at a time: ranks that ask together mount it once)
     */
    public static synchronized String unavailable() {
        if (!root()) {
            return "tracing system calls in the kernel needs root";
        }
        if (onPath("bpftrace") == null) {
            return "bpftrace is not installed (apt-get install bpftrace)";
        }
        if (cgroup2() == null) {
            return "no cgroup v2 hierarchy is mounted (it places the traced programs in a cgroup of their own)";
        }
        if (!Files.isDirectory(TRACEFS.resolve("events/syscalls"))) {
            try {
                ChildProcess.Result r = ChildProcess.of(List.of("mount", "-t", "tracefs", "nodev", TRACEFS.toString()))
                        .timeout(Duration.ofSeconds(10)).run();
                if (r.exitCode() != 0 || !Files.isDirectory(TRACEFS.resolve("events/syscalls"))) {
                    return "tracefs is not mounted at " + TRACEFS + " and mounting it failed: " + r.stderr().strip();
                }
            } catch (IOException e) {
                return "tracefs is not mounted at " + TRACEFS + " and mount could not run: " + e.getMessage();
            }
        }
        return null;
    }

    /** @return {@code name}'s executable on PATH, or null */
    static String onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** @return the cgroup v2 directory this process is in, or null */
    static Path cgroup2() {
        try {
            String mount = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] halves = line.split(" - ", 2);
                if (halves.length == 2 && halves[1].startsWith("cgroup2 ")) {
                    mount = halves[0].split(" ")[4];
                    break;
                }
            }
            if (mount == null) {
                return null;
            }
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                if (line.startsWith("0::")) {
                    Path own = Path.of(mount, line.substring(3));
                    return Files.isDirectory(own) ? own : Path.of(mount);
                }
            }
            return Path.of(mount);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Makes a cgroup, starts bpftrace on it and returns once its probes are attached (untimed: seconds, bpftrace
     * compiles its script first).
     *
     * @param live told of each call as soon as it has returned, on the tracer's reading thread (a stall detector)
     * @throws IOException when the cgroup cannot be made or bpftrace fails to attach, naming why
     */
    public static SyscallTrace start(Consumer<Call> live) throws IOException {
        String why = unavailable();
        if (why != null) {
            throw new IOException(why);
        }
        Path cgroup = cgroup2().resolve("prism-trace-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
        Files.createDirectory(cgroup);
        long id = (Long) Files.getAttribute(cgroup, "unix:ino");
        List<String> command = new ArrayList<>();
        String setpriv = onPath("setpriv");
        if (setpriv != null) {
            // a JVM killed outright leaves no tracer behind: bpftrace gets SIGTERM when its parent thread ends
            command.addAll(List.of(setpriv, "--pdeathsig", "TERM"));
        }
        command.addAll(List.of(onPath("bpftrace"), "-B", "line", "-e", script(id)));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("PRISM_RUN_SECRET");
        pb.environment().put("BPFTRACE_PERF_RB_PAGES", "4096");
        pb.environment().put("BPFTRACE_STRLEN", "200");
        try {
            return new SyscallTrace(cgroup, pb.start(), live);
        } catch (IOException | RuntimeException e) {
            removeQuietly(cgroup);
            throw e;
        }
    }

    /** @return the traced process that started {@code pid}, as far as the trace has seen so far, or null */
    public Integer parentOf(int pid) {
        return parentOf.get(pid);
    }

    /** @return {@code command} run from a shell that first moves itself into this trace's cgroup */
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c",
                "echo $$ > '" + cgroup.resolve("cgroup.procs") + "' && exec \"$@\"", "prism-traced"));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Stops tracing (the calls already returned are all delivered) and gives what was seen; later calls return the
     * same result.
     */
    public synchronized Result stop() {
        if (result == null) {
            List<Integer> undrained = drain();
            stopTracer();
            List<Raw> seen;
            synchronized (raws) {
                seen = new ArrayList<>(raws);
            }
            seen.removeIf(r -> markerPids.contains(r.pid));
            List<long[]> started;
            synchronized (forks) {
                started = new ArrayList<>(forks);
            }
            started.removeIf(f -> markerPids.contains((int) f[1]));
            Map<Integer, Integer> parents = new HashMap<>(parentOf);
            parents.keySet().removeAll(markerPids);
            result = new Result(joined(seen, started, paths), Map.copyOf(parents), lost.get(), undrained);
        }
        return result;
    }

    /** How long {@link #drain} waits for the markers: bpftrace prints what it reads at once, within milliseconds. */
    private static final long DRAIN_LIMIT_MILLIS = 10_000;

    /**
     * Reads the trace to its end before it stops. bpftrace keeps a buffer per CPU and reads each in order; a call a
     * program made is printed once bpftrace has read that CPU's buffer past it, which it may not have done when it is
     * told to stop (short programs lost up to half of their calls that way). So one marker process per CPU the rank
     * may run on, pinned there ({@code taskset}) and inside the trace's cgroup, opens a file named for the trace and
     * the CPU: once the reader has seen every marker's call, every call made before it on every CPU was delivered.
     * The markers' own calls are left out of the result.
     *
     * @return the CPUs whose marker was not seen within {@link #DRAIN_LIMIT_MILLIS} (their calls may be missing)
     */
    private List<Integer> drain() {
        List<Integer> cpus = allowedCpus();
        String taskset = onPath("taskset");
        if (taskset == null || cpus.isEmpty() || !tracer.isAlive()) {
            return cpus.isEmpty() ? List.of(-1) : cpus;
        }
        List<Process> markers = new ArrayList<>();
        for (int cpu : cpus) {
            List<String> command = new ArrayList<>(List.of(taskset, "-c", String.valueOf(cpu)));
            command.addAll(wrap(List.of("/bin/cat", "/proc/self/" + markerName + "-" + cpu)));
            try {
                Process marker = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                markerPids.add((int) marker.pid());
                markers.add(marker);
            } catch (IOException e) {
                // its CPU stays undrained: said in the result
            }
        }
        long end = System.currentTimeMillis() + DRAIN_LIMIT_MILLIS;
        synchronized (drained) {
            while (!drained.containsAll(cpus) && tracer.isAlive() && System.currentTimeMillis() < end) {
                try {
                    drained.wait(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        for (Process marker : markers) {
            try {
                marker.waitFor(1, TimeUnit.SECONDS); // cat of a file that is not there ends at once
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            marker.destroyForcibly();
        }
        List<Integer> missing = new ArrayList<>(cpus);
        missing.removeAll(drained);
        return missing;
    }

    /** @return the CPUs this process may run on ({@code Cpus_allowed_list}), where its programs ran; empty if unknown */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return cpuList(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return List.of();
    }

    /** @return the CPUs of a kernel CPU list such as {@code 0-3,8,10-11} */
    static List<Integer> cpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] range = part.strip().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    private void stopTracer() {
        if (tracer.isAlive()) {
            try {
                // SIGINT: bpftrace drains its buffers, runs END and exits
                new ProcessBuilder("kill", "-INT", String.valueOf(tracer.pid())).start().waitFor(5, TimeUnit.SECONDS);
                if (!tracer.waitFor(30, TimeUnit.SECONDS)) {
                    tracer.destroyForcibly();
                }
                reader.join(10_000);
            } catch (IOException e) {
                tracer.destroyForcibly();
            } catch (InterruptedException e) {
                tracer.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the tracer and removes the cgroup (once the processes left in it have gone). */
    @Override
    public void close() {
        stop();
        removeQuietly(cgroup);
    }

    private static void removeQuietly(Path cgroup) {
        try {
            // a cgroup is removed with rmdir, and only once empty: the traced tree was waited for by its runner
            Files.deleteIfExists(cgroup);
        } catch (IOException e) {
            // a process left behind keeps it; it is empty and harmless, and goes with the next reboot
        }
    }

    /**
     * @return the bpftrace program, filtered to cgroup {@code id}: an entry probe per call stamps the start (and prints
     *         the path a path call names, keyed by thread and start); an exit probe prints the call. Descriptors become
     *         paths in Java ({@link #joined}), so the kernel side copies no strings between probes.
     */
    static String script(long id) {
        String inside = "/cgroup == " + id + "/";
        StringBuilder s = new StringBuilder("BEGIN { printf(\"PRISM_ATTACHED\\n\"); }\n");
        s.append("tracepoint:sched:sched_process_fork ").append(inside)
                .append(" { printf(\"F %d %d %llu\\n\", pid, args->child_pid, nsecs); }\n");
        for (String call : CALLS) {
            String kernel = switch (call) {
                case "stat" -> "newstat";
                case "lstat" -> "newlstat";
                case "fstat" -> "newfstat";
                default -> call;
            };
            String naming = switch (call) {
                case "open", "openat", "stat", "lstat", "newfstatat", "statx" -> "args->filename";
                case "rename", "renameat", "renameat2" -> "args->oldname";
                case "unlink", "unlinkat", "mkdir", "mkdirat" -> "args->pathname";
                default -> null;
            };
            // the path is printed before the clock starts, under a key of its own; the exit prints the key (as a
            // negative number) or the descriptor in the last field
            s.append("tracepoint:syscalls:sys_enter_").append(kernel).append(' ').append(inside).append(" {");
            s.append(naming != null ? " $k = nsecs; printf(\"P %d %llu %s\\n\", tid, $k, str(" + naming + "));"
                    + " @fd[tid] = - (int64) $k;" : " @fd[tid] = (int64) args->fd;");
            s.append(" @t[tid] = nsecs; }\n");
            s.append("tracepoint:syscalls:sys_exit_").append(kernel).append(" /@t[tid]/ { $d = nsecs - @t[tid];")
                    .append(" printf(\"C %d %d ").append(call)
                    .append(" %llu %llu %lld %lld\\n\", pid, tid, @t[tid], $d, args->ret, @fd[tid]);")
                    .append(" delete(@t[tid]); delete(@fd[tid]); }\n");
        }
        s.append("END { clear(@t); clear(@fd); }\n");
        return s.toString();
    }
}
