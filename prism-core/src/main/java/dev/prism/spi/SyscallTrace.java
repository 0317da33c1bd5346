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
 * and exit of each call made there ({@link #CALLS}) with the monotonic clock {@link System#nanoTime} reads. Either
 * every call comes back ({@link #start}: to pick calls out by process and time afterwards), or the kernel counts them
 * ({@link #counting}: per call name, with only the slow calls coming back one by one — a fraction of the cost). Needs root, {@code bpftrace} and a
 * kernel with syscall tracepoints; {@link #unavailable()} says why not where it cannot serve. Nothing is written to
 * disk: the script is an argument, the calls come back on bpftrace's output, the cgroup is removed on close. Start
 * and stop a trace on one thread: bpftrace is told to end when the thread that started it does (util-linux's
 * {@code setpriv --pdeathsig}), so that a JVM killed outright leaves no tracer behind.
 *
 * <pre>{@code
 * import dev.prism.spi.ChildProcess;
 * import dev.prism.spi.SyscallTrace;
 * import java.util.List;
 *
 * if (SyscallTrace.unavailable() == null) {
 *     try (var trace = SyscallTrace.start(c -> {})) {
 *         ChildProcess.of(trace.wrap(List.of("cat", "/etc/hostname"))).run();
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
     * @param calls        every call in the order they started ({@link #start}); or, when the kernel counted
     *                     ({@link #counting}), only the calls that took {@link #SLOW_CALL} or longer
     * @param parentOf     each traced process started by another traced process: child pid → parent pid (every call
     *                     only; empty when the kernel counted)
     * @param lost         calls bpftrace could not deliver (its buffer was full): when every call was delivered the
     *                     counts are then lower bounds; when the kernel counted only the list of slow calls is short
     * @param undrained    the CPUs whose trace buffer was not seen read to its end before the trace stopped (see
     *                     {@link #stop}): empty when every call made before the stop was delivered
     * @param totals       per call name on files ({@link Call#onFile}), what the calls came to: from every call, or
     *                     counted in the kernel
     * @param notOnFiles   calls on pipes, sockets and descriptors that are not files, left out of the totals
     * @param countsExact  whether {@code totals} and {@code notOnFiles} are exact: when every call was delivered,
     *                     nothing lost and every CPU drained; when the kernel counted, its counts arrived whole
     */
    public record Result(List<Call> calls, Map<Integer, Integer> parentOf, long lost, List<Integer> undrained,
                         Map<String, Totals> totals, long notOnFiles, boolean countsExact) {
        /** Copies. */
        public Result {
            calls = List.copyOf(calls);
            parentOf = Map.copyOf(parentOf);
            undrained = List.copyOf(undrained);
            totals = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(totals));
        }

        /** A result of every call: the totals are worked out from the calls. */
        public Result(List<Call> calls, Map<Integer, Integer> parentOf, long lost, List<Integer> undrained) {
            this(calls, parentOf, lost, undrained, Totals.of(calls),
                    calls.size() - SyscallAttribution.onFiles(calls).size(), lost == 0 && undrained.isEmpty());
        }

        /** @return whether every count is exact (see {@code countsExact}) and, for every call, none was lost */
        public boolean complete() {
            return countsExact && lost == 0 && undrained.isEmpty();
        }
    }

    /**
     * What the calls of one name on files came to.
     *
     * @param count     the calls that returned without an error
     * @param errors    the calls that returned an errno
     * @param bytes     the bytes reads and writes moved
     * @param sumNanos  the time the returned calls took, in all
     * @param minNanos  the quickest returned call (0 when none)
     * @param maxNanos  the slowest returned call (0 when none)
     * @param latencies latency → how many returned calls took it: exact latencies when every call was delivered; in
     *                  the kernel, each call counted in a bucket a sixteenth of a power of two wide (so within 3.2 % of
     *                  the middle this gives), adding up to {@code count}
     *
     * <pre>{@code
     * import dev.prism.spi.SyscallTrace;
     * import java.util.Map;
     * import java.util.TreeMap;
     *
     * var reads = new SyscallTrace.Totals(3, 1, 12_288, 30_000, 8_000, 12_000,
     *         new TreeMap<>(Map.of(8_000L, 1L, 10_000L, 1L, 12_000L, 1L)));
     * var m = reads.measurement("syscall:read", 1_000_000);
     * System.out.println(m.count() + " reads, " + m.errors() + " failed, p50 " + m.p50Nanos() + " ns, " + m.bytes() + " B");
     * }</pre>
     */
    public record Totals(long count, long errors, long bytes, long sumNanos, long minNanos, long maxNanos,
                         java.util.SortedMap<Long, Long> latencies) {
        /** Copies. */
        public Totals {
            latencies = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(latencies));
        }

        /** @return per call name, the totals of {@code calls} on files */
        static Map<String, Totals> of(List<Call> calls) {
            Map<String, List<Call>> byName = new java.util.TreeMap<>();
            calls.stream().filter(Call::onFile).forEach(c -> byName.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c));
            Map<String, Totals> totals = new java.util.TreeMap<>();
            byName.forEach((name, list) -> {
                java.util.TreeMap<Long, Long> latencies = new java.util.TreeMap<>();
                long count = 0, errors = 0, bytes = 0, sum = 0, min = Long.MAX_VALUE, max = 0;
                for (Call c : list) {
                    if (c.failed()) {
                        errors++;
                        continue;
                    }
                    count++;
                    bytes += c.bytes();
                    sum += c.nanos();
                    min = Math.min(min, c.nanos());
                    max = Math.max(max, c.nanos());
                    latencies.merge(c.nanos(), 1L, Long::sum);
                }
                totals.put(name, new Totals(count, errors, bytes, sum, count == 0 ? 0 : min, max, latencies));
            });
            return totals;
        }

        /** @return these calls as the measurement {@code operation} over {@code elapsedNanos} */
        public dev.prism.Measurement measurement(String operation, long elapsedNanos) {
            dev.prism.LatencyRecorder recorder = new dev.prism.LatencyRecorder(operation);
            recorder.recordAll(count, sumNanos, minNanos, maxNanos, latencies);
            for (long i = 0; i < errors; i++) {
                recorder.recordError();
            }
            recorder.addBytes(bytes);
            return recorder.snapshot(elapsedNanos);
        }
    }

    /**
     * The kernel-counted trace ({@link #counting}) delivers a call with its path only when it took this long or
     * longer: at most a few microseconds of printing and reading per millisecond of call, and every stall (the
     * threshold is at least 1 ms) among them
     */
    public static final Duration SLOW_CALL = Duration.ofMillis(1);

    /** @return the middle of the kernel's latency bucket {@code bucket} (see {@link #countingScript}) */
    static long bucketMiddle(long bucket) {
        if (bucket < 16) {
            return bucket;
        }
        long exponent = bucket >> 4;
        long low = (16 + (bucket & 15)) << (exponent - 4);
        return low + ((1L << (exponent - 4)) >> 1);
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
    /** The kernel counts ({@link #counting}); else every call is delivered */
    private final boolean counting;
    /** Where the markers run when the kernel counts, so that their calls are never counted; null otherwise */
    private final Path markerCgroup;
    /** The kernel's counts as its maps printed them: map name → key → value */
    private final Map<String, Map<String, Long>> maps = new java.util.concurrent.ConcurrentHashMap<>();
    /** Whether the kernel's counts arrived whole (its END block's last line was read) */
    private volatile boolean totalsArrived;
    /** A slow call on a descriptor waiting for the names of its file and the two directories above it: tid start → */
    private final Map<String, SlowCall> naming = new java.util.concurrent.ConcurrentHashMap<>();
    private Result result;

    private SyscallTrace(Path cgroup, Path markerCgroup, Process tracer, Consumer<Call> live) throws IOException {
        this.cgroup = cgroup;
        this.markerCgroup = markerCgroup;
        this.counting = markerCgroup != null;
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
                } else if (counting && readCounted(line, live)) {
                    continue;
                } else if (line.startsWith("Lost ")) {
                    String[] f = line.split(" ");
                    lost.addAndGet(Long.parseLong(f[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the tracer ended; what it delivered stays
        }
    }

    /** A slow call on a descriptor as the counting script printed it, and the names of its file as they come */
    private record SlowCall(Call call, List<String> names) {
    }

    /** The kernel's count lines: {@code @map[key]: value} */
    private static final java.util.regex.Pattern MAP_LINE = java.util.regex.Pattern.compile("^@(\\w+)(?:\\[([^\\]]*)\\])?: (-?\\d+)$");

    /**
     * Reads one line of the counting script ({@link #countingScript}): a marker, a slow call or a name of its file, a
     * count, or the end of the counts.
     *
     * @return whether the line was one of those
     */
    private boolean readCounted(String line, Consumer<Call> live) {
        if (line.equals("PRISM_END")) {
            totalsArrived = true;
            return true;
        }
        if (totalsArrived) {
            return true;   // bpftrace prints its maps once more as it exits, emptied
        }
        if (line.startsWith("M ")) {
            synchronized (drained) {
                drained.add(Integer.parseInt(line.substring(2).strip()));
                drained.notifyAll();
            }
            return true;
        }
        if (line.startsWith("S ")) {
            String[] f = line.split(" ", 8);
            if (f.length < 7) {
                return true;
            }
            try {
                Call call = new Call(Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[1], Long.parseUnsignedLong(f[4]),
                        Long.parseUnsignedLong(f[5]), Long.parseLong(f[6]), f.length == 8 ? f[7] : "");
                if (PATH_CALLS.contains(call.name())) {
                    slow(call, live);
                } else {
                    naming.put(call.tid() + " " + call.startNanos(), new SlowCall(call, new ArrayList<>()));
                }
            } catch (NumberFormatException e) {
                // not a call
            }
            return true;
        }
        if (line.startsWith("N ")) {
            String[] f = line.split(" ", 4);
            SlowCall pending = f.length < 3 ? null : naming.get(f[1] + " " + f[2]);
            if (pending != null) {
                pending.names().add(f.length == 4 ? f[3] : "");
                if (pending.names().size() == 3) {
                    naming.remove(f[1] + " " + f[2]);
                    Call c = pending.call();
                    slow(new Call(c.pid(), c.tid(), c.name(), c.startNanos(), c.nanos(), c.result(),
                            lastComponents(pending.names())), live);
                }
            }
            return true;
        }
        java.util.regex.Matcher m = MAP_LINE.matcher(line);
        if (m.matches()) {
            maps.computeIfAbsent(m.group(1), k -> new java.util.concurrent.ConcurrentHashMap<>())
                    .merge(m.group(2) == null ? "" : m.group(2).replace(" ", ""), Long.parseLong(m.group(3)), Long::sum);
            return true;
        }
        return false;
    }

    private void slow(Call call, Consumer<Call> live) {
        slowCalls.add(call);
        live.accept(call);
    }

    /** The slow calls the counting script printed */
    private final List<Call> slowCalls = Collections.synchronizedList(new ArrayList<>());

    /**
     * @return a descriptor's file named by what the kernel keeps of it: the last three components of its path
     *         ({@code …/objects/pack/pack-1.pack}); the root of a file system ends the walk ({@code …/etc/hostname})
     */
    static String lastComponents(List<String> names) {
        List<String> kept = new ArrayList<>();
        for (String name : names) {
            if (!name.isEmpty() && !name.equals("/")) {
                kept.add(name);
            }
        }
        return kept.isEmpty() ? "" : "…/" + String.join("/", kept);
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
    /** @return {@code name} from the fixed, owner-checked {@link TrustedPrograms#PATH}, never from {@code $PATH}; null when not there */
    static String onPath(String name) {
        return TrustedPrograms.find(name).map(Path::toString).orElse(null);
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
        return start(live, false);
    }

    /**
     * Makes a cgroup, starts bpftrace on it counting in the kernel, and returns once its probes are attached
     * (untimed). The kernel keeps, per call name, the count, errors, bytes, time and a latency histogram of the calls
     * on files — a regular file, a directory or a device, never a pipe or a socket, as the kernel's descriptor says at
     * the call — so a traced program pays for its calls only the probes, not one line of output each (an eighth of
     * the cost on a tar extraction to tmpfs); only the calls that took {@link #SLOW_CALL} or longer come out one by
     * one, with their paths: a path call's as the program named it, a descriptor call's as the last three components
     * the kernel keeps of its file.
     *
     * @param slow told of each call that took {@link #SLOW_CALL} or longer as soon as it has returned, on the
     *             tracer's reading thread (a stall detector)
     * @throws IOException when a cgroup cannot be made or bpftrace fails to attach, naming why
     */
    public static SyscallTrace counting(Consumer<Call> slow) throws IOException {
        return counting(slow, KERNEL_TYPES);
    }

    /** As {@link #counting(Consumer)}, with the kernel's type information looked for at {@code kernelTypes} */
    static SyscallTrace counting(Consumer<Call> slow, Path kernelTypes) throws IOException {
        if (!Files.isReadable(kernelTypes)) {
            // the counting script reads the kernel's descriptor table, which bpftrace finds through BTF
            return start(c -> {
                if (c.nanos() >= SLOW_CALL.toNanos()) {
                    slow.accept(c);
                }
            }, false);
        }
        return start(slow, true);
    }

    /** The kernel's type information (BTF), which the counting script needs to read a descriptor's file */
    private static final Path KERNEL_TYPES = Path.of("/sys/kernel/btf/vmlinux");

    /**
     * @return whether the kernel counts this trace's calls ({@link #counting} where the kernel has BTF); else every
     *         call is delivered
     */
    public boolean countedInKernel() {
        return counting;
    }

    private static SyscallTrace start(Consumer<Call> live, boolean counting) throws IOException {
        String why = unavailable();
        if (why != null) {
            throw new IOException(why);
        }
        Path cgroup = cgroup2().resolve("prism-trace-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
        Files.createDirectory(cgroup);
        long id = (Long) Files.getAttribute(cgroup, "unix:ino");
        Path markers = null;
        if (counting) {
            try {
                markers = Files.createDirectory(Path.of(cgroup + "-markers"));
            } catch (IOException e) {
                removeQuietly(cgroup);
                throw e;
            }
        }
        List<String> command = new ArrayList<>();
        String setpriv = onPath("setpriv");
        if (setpriv != null) {
            // a JVM killed outright leaves no tracer behind: bpftrace gets SIGTERM when its parent thread ends
            command.addAll(List.of(setpriv, "--pdeathsig", "TERM"));
        }
        command.addAll(List.of(onPath("bpftrace"), "-B", "line", "-e", counting
                ? countingScript(id, (Long) Files.getAttribute(markers, "unix:ino")) : script(id)));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(TrustedPrograms.environment());
        pb.environment().put("BPFTRACE_PERF_RB_PAGES", "4096");
        pb.environment().put("BPFTRACE_STRLEN", "200");
        try {
            return new SyscallTrace(cgroup, markers, pb.start(), live);
        } catch (IOException | RuntimeException e) {
            removeQuietly(cgroup);
            if (markers != null) {
                removeQuietly(markers);
            }
            throw e;
        }
    }

    /** @return the traced process that started {@code pid}, as far as the trace has seen so far, or null */
    public Integer parentOf(int pid) {
        return parentOf.get(pid);
    }

    /** @return {@code command} run from a shell that first moves itself into this trace's cgroup */
    public List<String> wrap(List<String> command) {
        return wrap(cgroup, command);
    }

    private static List<String> wrap(Path cgroup, List<String> command) {
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
            if (counting) {
                result = new Result(new ArrayList<>(slowCalls), Map.of(), lost.get(), undrained, countedTotals(),
                        maps.getOrDefault("off", Map.of()).getOrDefault("", 0L), totalsArrived);
                return result;
            }
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

    /** @return the kernel's counts ({@link #countingScript}'s maps, keyed by the call's index in {@link #CALLS}) */
    private Map<String, Totals> countedTotals() {
        Map<String, Totals> totals = new java.util.TreeMap<>();
        for (int i = 0; i < CALLS.size(); i++) {
            String key = String.valueOf(i);
            long count = counted("n", key);
            long errors = counted("e", key);
            if (count == 0 && errors == 0) {
                continue;
            }
            java.util.TreeMap<Long, Long> latencies = new java.util.TreeMap<>();
            String prefix = i + ",";
            maps.getOrDefault("h", Map.of()).forEach((k, v) -> {
                if (k.startsWith(prefix)) {
                    latencies.merge(bucketMiddle(Long.parseLong(k.substring(prefix.length()))), v, Long::sum);
                }
            });
            totals.put(CALLS.get(i), new Totals(count, errors, counted("b", key), counted("s", key), counted("lo", key),
                    counted("hi", key), latencies));
        }
        return totals;
    }

    private long counted(String map, String key) {
        return maps.getOrDefault(map, Map.of()).getOrDefault(key, 0L);
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
            command.addAll(wrap(counting ? markerCgroup : cgroup, List.of("/bin/cat", "/proc/self/" + markerName + "-" + cpu)));
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
        if (markerCgroup != null) {
            removeQuietly(markerCgroup);
        }
    }

    private static void removeQuietly(Path cgroup) {
        try {
            // a cgroup is removed with rmdir, and only once empty: the traced tree was waited for by its runner
            Files.deleteIfExists(cgroup);
        } catch (IOException e) {
            // a process left behind keeps it; it is empty and harmless, and goes with the next reboot
        }
    }

    /** The kernel's names of the calls strace spells otherwise */
    private static String kernelName(String call) {
        return switch (call) {
            case "stat" -> "newstat";
            case "lstat" -> "newlstat";
            case "fstat" -> "newfstat";
            default -> call;
        };
    }

    /** @return the argument that names a path call's file, or null for a descriptor call */
    private static String naming(String call) {
        return switch (call) {
            case "open", "openat", "stat", "lstat", "newfstatat", "statx" -> "args->filename";
            case "rename", "renameat", "renameat2" -> "args->oldname";
            case "unlink", "unlinkat", "mkdir", "mkdirat" -> "args->pathname";
            default -> null;
        };
    }

    /**
     * @return the counting bpftrace program ({@link #counting}), filtered to cgroup {@code id}. An entry probe per call
     *         stamps the start — a descriptor call only when its descriptor is a file (its inode neither a FIFO, a
     *         socket nor anonymous; else it counts it in {@code @off}) — and keeps a pointer to what names the file;
     *         the exit probe counts the call under its index in {@link #CALLS}: {@code @n} returned, {@code @e}
     *         failed, {@code @s} nanoseconds, {@code @lo}/{@code @hi} extremes, {@code @b} bytes, {@code @h} a
     *         histogram of sixteen buckets per power of two (bucket {@code 16·e + m} for a latency whose highest bit is
     *         {@code e} and next four bits are {@code m}; latencies under 16 ns are their own bucket). A call of
     *         {@link #SLOW_CALL} or longer is printed: {@code S name pid tid start nanos result path} for a path
     *         call; a descriptor call without a path, then {@code N tid start name} for its file and the two
     *         directories above it (three lines: one string each keeps the probe within BPF's 512-byte stack). A
     *         marker's open in cgroup {@code markerId} prints {@code M cpu}; END prints the maps, then {@code PRISM_END}.
     */
    static String countingScript(long id, long markerId) {
        StringBuilder s = new StringBuilder("BEGIN { printf(\"PRISM_ATTACHED\\n\"); }\n");
        s.append("tracepoint:syscalls:sys_enter_openat /cgroup == ").append(markerId)
                .append("/ { printf(\"M %d\\n\", cpu); }\n");
        long slow = SLOW_CALL.toNanos();
        for (int i = 0; i < CALLS.size(); i++) {
            String call = CALLS.get(i);
            String kernel = kernelName(call);
            String naming = naming(call);
            s.append("tracepoint:syscalls:sys_enter_").append(kernel).append(" /cgroup == ").append(id).append("/ { ");
            if (naming != null) {
                s.append("@p[tid] = (uint64) ").append(naming).append("; @t[tid] = nsecs;");
            } else {
                s.append("$fd = (int64) args->fd; $on = (uint64) 0;"
                        + " if ($fd >= 0 && $fd < (int64) curtask->files->fdt->max_fds) {"
                        + " $f = *(curtask->files->fdt->fd + $fd); if ($f != 0) { $type = $f->f_inode->i_mode & 0xf000;"
                        + " if ($type != 0 && $type != 0x1000 && $type != 0xc000) { $on = (uint64) $f; } } }"
                        + " if ($on != 0) { @p[tid] = $on; @t[tid] = nsecs; } else { @off = count(); }");
            }
            s.append(" }\n");
            s.append("tracepoint:syscalls:sys_exit_").append(kernel).append(" /@t[tid]/ {")
                    .append(" $d = nsecs - @t[tid]; $v = $d; $e = (uint64) 0;")
                    .append(" if ($v >= 4294967296) { $e += 32; $v = $v >> 32; } if ($v >= 65536) { $e += 16; $v = $v >> 16; }")
                    .append(" if ($v >= 256) { $e += 8; $v = $v >> 8; } if ($v >= 16) { $e += 4; $v = $v >> 4; }")
                    .append(" if ($v >= 4) { $e += 2; $v = $v >> 2; } if ($v >= 2) { $e += 1; }")
                    .append(" $b = $e >= 4 ? ($e << 4) | (($d >> ($e - 4)) & 15) : $d;")
                    .append(" if (args->ret < 0) { @e[").append(i).append("] = count(); } else { @n[").append(i)
                    .append("] = count(); @s[").append(i).append("] = sum($d); @lo[").append(i).append("] = min($d); @hi[")
                    .append(i).append("] = max($d); @h[").append(i).append(", $b] = count();");
            if (MOVING_BYTES.contains(call)) {
                s.append(" @b[").append(i).append("] = sum(args->ret);");
            }
            s.append(" }");
            s.append(" if ($d >= ").append(slow).append(") {");
            if (naming != null) {
                s.append(" printf(\"S ").append(call)
                        .append(" %d %d %llu %llu %lld %s\\n\", pid, tid, @t[tid], $d, args->ret, str(uptr(@p[tid])));");
            } else {
                s.append(" $de = ((struct file *) kptr(@p[tid]))->f_path.dentry; printf(\"S ").append(call)
                        .append(" %d %d %llu %llu %lld\\n\", pid, tid, @t[tid], $d, args->ret);")
                        .append(" printf(\"N %d %llu %s\\n\", tid, @t[tid], str($de->d_parent->d_parent->d_name.name));")
                        .append(" printf(\"N %d %llu %s\\n\", tid, @t[tid], str($de->d_parent->d_name.name));")
                        .append(" printf(\"N %d %llu %s\\n\", tid, @t[tid], str($de->d_name.name));");
            }
            s.append(" } delete(@t[tid]); delete(@p[tid]); }\n");
        }
        s.append("END { clear(@t); clear(@p); print(@n); print(@e); print(@s); print(@lo); print(@hi); print(@b);"
                + " print(@h); print(@off); printf(\"PRISM_END\\n\"); clear(@n); clear(@e); clear(@s); clear(@lo);"
                + " clear(@hi); clear(@b); clear(@h); clear(@off); }\n");
        return s.toString();
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
            String kernel = kernelName(call);
            String naming = naming(call);
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
