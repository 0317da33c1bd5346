package dev.prism;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How busy the host was while a run ran, recorded in every result: two runs of the same benchmark are only comparable
 * when the machine around them was alike. The load average and memory pressure are read when the run starts and
 * when it ends; the shares are of all the host's CPU time between the two: what other processes (neither PRISM nor
 * anything it started) used, and what the hypervisor took (steal). {@link #differences} names the figures where two
 * runs' conditions differ enough to move a comparison, so compare, gates and history can warn instead of blaming
 * the storage.
 *
 * <pre>{@code
 * import dev.prism.HostConditions;
 *
 * var quiet = new HostConditions(2, 0.1, 0.2, 0.0, 0.02, 0.0, 0.0, "");
 * var busy = new HostConditions(2, 1.9, 2.1, 0.0, 0.61, 0.0, 0.0, "yes (pid 4242) 98% of a CPU");
 * System.out.println(quiet.differences(busy));   // [other processes' CPU 2% vs 61% of the host …]
 * }</pre>
 *
 * @param cpus                the host's CPUs
 * @param loadStart           the 1-minute load average when the run started ({@code /proc/loadavg}); NaN when unknown
 * @param loadEnd             the same when it ended
 * @param stealShare          the share of the host's CPU time the hypervisor took (steal) during the run, 0..1; NaN
 *                            when unknown
 * @param othersBusyShare     the share of the host's CPU time that processes other than this one, its parent (a
 *                            supervising {@code prism}) and its children used during the run, 0..1; NaN when unknown
 * @param memoryPressureStart memory pressure when the run started: the percentage of the last 10 s in which some task
 *                            waited for memory ({@code /proc/pressure/memory}, some avg10); NaN when unknown
 * @param memoryPressureEnd   the same when it ended
 * @param busiestOthers       the other processes that used the most CPU during the run, as {@code yes (pid 4242) 98%
 *                            of a CPU}, joined with {@code ", "}; empty when none used 5% of a CPU
 */
public record HostConditions(int cpus, double loadStart, double loadEnd, double stealShare, double othersBusyShare,
                             double memoryPressureStart, double memoryPressureEnd, String busiestOthers) {
    /** Conditions of a result written before PRISM recorded them. */
    public static final HostConditions UNKNOWN = new HostConditions(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, "");

    /** An idle host: what a run's conditions are held to where there is no other run to compare with. */
    public static final HostConditions IDLE = new HostConditions(0, 0, 0, 0, 0, 0, 0, "");

    /** Other processes' CPU shares further apart than this are a difference (0.10: ten percent of the host). */
    public static final double OTHERS_DIFFERENCE = 0.10;
    /** Steal shares further apart than this are a difference. */
    public static final double STEAL_DIFFERENCE = 0.05;
    /** Memory pressures (the larger of start and end) further apart than this, in percent, are a difference. */
    public static final double MEMORY_PRESSURE_DIFFERENCE = 10;

    /** Checks. */
    public HostConditions {
        Objects.requireNonNull(busiestOthers, "busiestOthers");
    }

    /** @return whether anything was recorded */
    public boolean known() {
        return !Double.isNaN(othersBusyShare) || !Double.isNaN(loadStart);
    }

    /**
     * @return each figure in which {@code other} differs from these conditions enough to move a comparison, naming both
     *         values ({@code other processes' CPU 2% vs 61% of the host (yes (pid 4242) 98% of a CPU)}); empty when
     *         they are alike or either side is unknown
     */
    public List<String> differences(HostConditions other) {
        List<String> found = new ArrayList<>();
        if (apart(othersBusyShare, other.othersBusyShare, OTHERS_DIFFERENCE)) {
            String busiest = othersBusyShare > other.othersBusyShare ? busiestOthers : other.busiestOthers;
            found.add(String.format(Locale.ROOT, "other processes' CPU %s vs %s of the host%s", percent(othersBusyShare),
                    percent(other.othersBusyShare), busiest.isEmpty() ? "" : " (" + busiest + ")"));
        }
        if (apart(stealShare, other.stealShare, STEAL_DIFFERENCE)) {
            found.add("CPU steal " + percent(stealShare) + " vs " + percent(other.stealShare));
        }
        double pressure = Math.max(memoryPressureStart, memoryPressureEnd);
        double otherPressure = Math.max(other.memoryPressureStart, other.memoryPressureEnd);
        if (apart(pressure, otherPressure, MEMORY_PRESSURE_DIFFERENCE)) {
            found.add(String.format(Locale.ROOT, "memory pressure %.1f%% vs %.1f%%", pressure, otherPressure));
        }
        return found;
    }

    private static boolean apart(double a, double b, double by) {
        return !Double.isNaN(a) && !Double.isNaN(b) && Math.abs(a - b) >= by;
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    /** @return the conditions in one line: {@code load 0.12→1.85 (2 CPUs), other processes 3% of the host, …} */
    @Override
    public String toString() {
        if (!known()) {
            return "not recorded";
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "load %.2f→%.2f (%d CPUs)", loadStart, loadEnd, cpus));
        if (!Double.isNaN(othersBusyShare)) {
            s.append(", other processes ").append(percent(othersBusyShare)).append(" of the host's CPU");
        }
        if (!Double.isNaN(stealShare)) {
            s.append(", steal ").append(percent(stealShare));
        }
        if (!Double.isNaN(memoryPressureStart)) {
            s.append(String.format(Locale.ROOT, ", memory pressure %.1f%%→%.1f%%", memoryPressureStart, memoryPressureEnd));
        }
        if (!busiestOthers.isEmpty()) {
            s.append("; busiest: ").append(busiestOthers);
        }
        return s.toString();
    }
}
