package dev.prism.spi;

import dev.prism.LatencyRecorder;
import dev.prism.Measurement;
import dev.prism.WorkloadContext;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns traced system calls ({@link SyscallTrace.Call}) into a rank's measurements: one {@code syscall:<call>} per call
 * name, each returned call a latency sample and each failed one an error, the bytes reads and writes moved counted.
 * Only calls on files count ({@link SyscallTrace.Call#onFile}): a read that waits on a pipe between two of git's
 * processes says nothing about the storage, and is counted apart ({@link #NOT_ON_FILES});
 * the slowest calls with their paths as a note. Which calls are a rank's: those of its process and every process it
 * started ({@link #tree}), made while it was in a timed phase ({@link #within}).
 *
 * <pre>{@code
 * import dev.prism.spi.SyscallAttribution;
 * import dev.prism.spi.SyscallTrace;
 * import java.util.List;
 *
 * var calls = List.of(new SyscallTrace.Call(7, 7, "openat", 0, 5_000_000, 3, "/ckpt/a"),
 *         new SyscallTrace.Call(7, 7, "read", 10, 40_000, 4096, "/ckpt/a"));
 * System.out.println(SyscallAttribution.measurements(calls, 10_000_000).keySet());
 * System.out.println(SyscallAttribution.slowest(calls, 1));
 * }</pre>
 */
public final class SyscallAttribution {
    /** The prefix of every attributed call's operation name */
    public static final String PREFIX = "syscall:";
    /** The counter of calls on pipes, sockets and descriptors the trace did not see opened, left out of the measurements */
    public static final String NOT_ON_FILES = "syscall_calls_not_on_files";
    /** How many of the slowest calls a rank's note names */
    public static final int SLOWEST = 5;

    private SyscallAttribution() {
    }

    /** @return {@code root} and every process it started, directly or not, by {@code parentOf} (child → parent) */
    public static Set<Integer> tree(int root, Map<Integer, Integer> parentOf) {
        Map<Integer, List<Integer>> children = new LinkedHashMap<>();
        parentOf.forEach((child, parent) -> children.computeIfAbsent(parent, k -> new ArrayList<>()).add(child));
        Set<Integer> all = new HashSet<>();
        Deque<Integer> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            int pid = todo.pop();
            if (all.add(pid)) {
                todo.addAll(children.getOrDefault(pid, List.of()));
            }
        }
        return all;
    }

    /**
     * @param windows each {@code {start, end}} on {@link System#nanoTime}'s clock
     * @return the calls of {@code pids} that started inside one of {@code windows}
     */
    public static List<SyscallTrace.Call> within(Collection<SyscallTrace.Call> calls, Set<Integer> pids,
                                                 List<long[]> windows) {
        return calls.stream().filter(c -> pids.contains(c.pid()))
                .filter(c -> windows.stream().anyMatch(w -> c.startNanos() >= w[0] && c.startNanos() < w[1]))
                .collect(Collectors.toList());
    }

    /** @return per call name (sorted), {@code syscall:<name>} → its measurement over {@code elapsedNanos} */
    public static Map<String, Measurement> measurements(Collection<SyscallTrace.Call> calls, long elapsedNanos) {
        Map<String, LatencyRecorder> recorders = new TreeMap<>();
        for (SyscallTrace.Call c : onFiles(calls)) {
            LatencyRecorder r = recorders.computeIfAbsent(PREFIX + c.name(), LatencyRecorder::new);
            if (c.failed()) {
                r.recordError();
            } else {
                r.record(Math.max(LatencyRecorder.LOWEST_DISCERNIBLE_NANOS, c.nanos()));
                r.addBytes(c.bytes());
            }
        }
        Map<String, Measurement> result = new LinkedHashMap<>();
        recorders.forEach((name, r) -> result.put(name, r.snapshot(elapsedNanos)));
        return result;
    }

    /**
     * Records what a trace saw into {@code ctx} as the rank's own measurements: per call name on files its totals
     * ({@link SyscallTrace.Result#totals}) as {@code syscall:<name>} — returned calls as samples, failed ones as errors,
     * bytes — and the calls not on files as the counter {@link #NOT_ON_FILES}.
     */
    public static void record(WorkloadContext ctx, SyscallTrace.Result seen) {
        if (seen.notOnFiles() > 0) {
            ctx.addCounter(NOT_ON_FILES, seen.notOnFiles());
        }
        seen.totals().forEach((name, totals) -> ctx.record(totals.measurement(PREFIX + name, 0)));
    }

    /** @return the calls that worked on files ({@link SyscallTrace.Call#onFile}) */
    public static List<SyscallTrace.Call> onFiles(Collection<SyscallTrace.Call> calls) {
        return calls.stream().filter(SyscallTrace.Call::onFile).collect(Collectors.toList());
    }

    /** @return the {@code n} slowest calls on files, slowest first, as {@code openat 5.002 s /ckpt/a; …} */
    public static String slowest(Collection<SyscallTrace.Call> calls, int n) {
        return onFiles(calls).stream().sorted(Comparator.comparingLong(SyscallTrace.Call::nanos).reversed()).limit(n)
                .map(c -> c.name() + " " + Formats.latency(c.nanos()) + (c.path().isEmpty() ? "" : " " + c.path())
                        + (c.failed() ? " (" + Errno.name((int) -c.result()) + ")" : ""))
                .collect(Collectors.joining("; "));
    }
}
