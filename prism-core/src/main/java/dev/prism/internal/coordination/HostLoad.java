package dev.prism.internal.coordination;

import dev.prism.HostConditions;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads how busy the host is from {@code /proc}: {@link #start()} before a run, {@link Start#finish()} after it gives
 * the {@link HostConditions} between the two. Nothing here runs inside a timed phase. Where {@code /proc} lacks a
 * file (not Linux, no PSI), that figure is NaN.
 */
public final class HostLoad {
    /** A process below this share of one CPU over the run is not named among the busiest. */
    private static final double NAMED_SHARE = 0.05;
    private static final int NAMED = 3;

    private HostLoad() {
    }

    /** What was read when the run started. */
    public static final class Start {
        private final double load;
        private final double memoryPressure;
        private final long[] cpu;
        private final long own;
        private final long parent;
        private final Map<Long, Task> tasks;

        private Start() {
            load = loadAverage();
            memoryPressure = memoryPressure();
            cpu = cpuTimes();
            own = ownTicks();
            tasks = processes();
            parent = parentTicks(tasks);
        }

        /** @return the conditions from the start until now */
        public HostConditions finish() {
            long[] now = cpuTimes();
            long ownNow = ownTicks();
            Map<Long, Task> after = processes();
            long parentNow = parentTicks(after);
            if (ownNow >= 0 && parent >= 0 && parentNow >= parent) {
                ownNow += parentNow - parent; // a supervising prism process is PRISM too, not another process
            }
            double steal = Double.NaN;
            double others = Double.NaN;
            String busiest = "";
            if (cpu != null && now != null) {
                long total = now[0] - cpu[0];
                if (total > 0) {
                    steal = (now[2] - cpu[2]) / (double) total;
                    if (own >= 0 && ownNow >= 0) {
                        long busy = now[1] - cpu[1];
                        others = Math.max(0, busy - (ownNow - own)) / (double) total;
                    }
                    busiest = busiest(tasks, after, total / (double) now[3]);
                }
            }
            return new HostConditions(now == null ? Runtime.getRuntime().availableProcessors() : (int) now[3], load, loadAverage(), steal, others,
                    memoryPressure, memoryPressure(), busiest);
        }
    }

    /** @return the host as it is now, to be finished when the run ends */
    public static Start start() {
        return new Start();
    }

    /** A process as {@code /proc/<pid>/stat} describes it: its name, its start (to tell a reused pid) and CPU ticks. */
    private record Task(String name, long started, long ticks) {
    }

    /** @return the CPU ticks of this process's parent in {@code tasks}, or -1 */
    private static long parentTicks(Map<Long, Task> tasks) {
        Task parent = ProcessHandle.current().parent().map(p -> tasks.get(p.pid())).orElse(null);
        return parent == null ? -1 : parent.ticks;
    }

    /** @return the processes both snapshots hold (a pid reused in between is another process), busiest first */
    static String busiest(Map<Long, Task> before, Map<Long, Task> after, double ticksPerCpu) {
        long self = ProcessHandle.current().pid();
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        List<Map.Entry<Long, Double>> shares = new ArrayList<>();
        after.forEach((pid, task) -> {
            Task was = before.get(pid);
            if (pid != self && pid != parent && was != null && was.started == task.started && ticksPerCpu > 0) {
                double share = (task.ticks - was.ticks) / ticksPerCpu;
                if (share >= NAMED_SHARE) {
                    shares.add(Map.entry(pid, share));
                }
            }
        });
        return shares.stream().sorted(Map.Entry.<Long, Double>comparingByValue(Comparator.reverseOrder())).limit(NAMED)
                .map(e -> String.format(Locale.ROOT, "%s (pid %d) %.0f%% of a CPU", after.get(e.getKey()).name, e.getKey(),
                        Math.min(e.getValue(), 99.0) * 100))
                .collect(Collectors.joining(", "));
    }

    /** @return every process's name, start time and CPU ticks; empty where {@code /proc} cannot be listed */
    private static Map<Long, Task> processes() {
        Map<Long, Task> tasks = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path dir : dirs) {
                Task task = task(dir.resolve("stat"));
                if (task != null) {
                    tasks.put(Long.parseLong(dir.getFileName().toString()), task);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: no process is named
        }
        return tasks;
    }

    private static Task task(Path stat) {
        try {
            String line = Files.readString(stat);
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String[] f = line.substring(close + 2).trim().split(" ");
            // after the name: state is field 3; utime 14, stime 15, starttime 22
            return new Task(line.substring(open + 1, close), Long.parseLong(f[19]), Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException | RuntimeException e) {
            return null; // the process ended while it was read
        }
    }

    /** @return this process's CPU ticks and those of its children it has waited for; -1 when unknown */
    private static long ownTicks() {
        try {
            String line = Files.readString(Path.of("/proc/self/stat"));
            String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * @return {total, busy, steal} ticks of all CPUs from {@code /proc/stat}'s first line and the number of CPUs it
     *         counts (all the host's, not only those this process may run on), or null
     */
    static long[] cpuTimes() {
        try {
            List<String> all = Files.readAllLines(Path.of("/proc/stat"));
            String line = all.isEmpty() ? "" : all.get(0);
            long cpus = all.stream().filter(l -> l.matches("cpu[0-9]+ .*")).count();
            if (!line.startsWith("cpu ")) {
                return null;
            }
            String[] f = line.substring(4).trim().split("\\s+");
            long user = Long.parseLong(f[0]);
            long nice = Long.parseLong(f[1]);
            long system = Long.parseLong(f[2]);
            long idle = Long.parseLong(f[3]);
            long iowait = Long.parseLong(f[4]);
            long irq = Long.parseLong(f[5]);
            long softirq = Long.parseLong(f[6]);
            long steal = f.length > 7 ? Long.parseLong(f[7]) : 0;
            return new long[]{user + nice + system + idle + iowait + irq + softirq + steal,
                    user + nice + system + irq + softirq, steal, Math.max(1, cpus)};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** @return {@code some avg10} of {@code /proc/pressure/memory}: percent of the last 10 s some task waited for memory */
    private static double memoryPressure() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/pressure/memory"))) {
                if (line.startsWith("some ")) {
                    for (String field : line.split("\\s+")) {
                        if (field.startsWith("avg10=")) {
                            return Double.parseDouble(field.substring(6));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // a kernel without pressure stall information
        }
        return Double.NaN;
    }
}
