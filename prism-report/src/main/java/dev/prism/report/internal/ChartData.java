package dev.prism.report.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.DataSize;
import dev.prism.Measurement;
import dev.prism.Pacing;
import dev.prism.RepetitionResult;
import dev.prism.RepetitionStats;
import dev.prism.RunResult;
import dev.prism.report.Comparison;
import dev.prism.spi.Formats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The report's chart data: per configuration × operation, latency (mean and p99 with their intervals) against the x
 * axis, the percentile distribution of the stored histograms, throughput, and a timeline when runs kept intervals.
 */
public final class ChartData {
    private final Map<String, List<RunResult>> sets;
    private final Comparison.Options comparing;
    private final String xParameter;

    /** @param xParameter the parameter on the x axis, or null for the task count */
    public ChartData(Map<String, List<RunResult>> sets, Comparison.Options comparing, String xParameter) {
        this.sets = sets;
        this.comparing = comparing;
        this.xParameter = xParameter;
    }

    /** @return the run's configuration without the parameters ignored when pairing (and without empty values) */
    private String key(RunResult run) {
        Map<String, String> shared = new LinkedHashMap<>(comparing.withoutIgnored(run.parameters()));
        if (xParameter != null) {
            shared.remove(xParameter);
        }
        String params = Formats.parameters(shared);
        return run.benchmark() + (params.isEmpty() ? "" : " " + params);
    }

    /** @return per configuration, the operations of any set, in the order first seen */
    private Map<String, List<String>> operations() {
        Map<String, List<String>> operations = new LinkedHashMap<>();
        for (List<RunResult> runs : sets.values()) {
            for (RunResult run : runs) {
                List<String> ops = operations.computeIfAbsent(key(run), k -> new ArrayList<>());
                run.measurements().keySet().stream().filter(op -> !ops.contains(op)).forEach(ops::add);
            }
        }
        return operations;
    }

    /** A point on the x axis: a task count, or a value of the parameter on the x axis at a task count. */
    private record Point(String label, int tasks, String value) {
    }

    private RunResult find(List<RunResult> runs, String key, Point point) {
        return runs.stream().filter(r -> key(r).equals(key) && r.tasks() == point.tasks()
                && (xParameter == null || point.value().equals(r.parameters().get(xParameter)))).findFirst().orElse(null);
    }

    /** @return the x axis labels of a configuration: its task counts, or the swept parameter's values (numbers in order) */
    private List<String> labels(String key) {
        List<RunResult> runs = sets.values().stream().flatMap(List::stream).filter(r -> key(r).equals(key)).toList();
        if (xParameter == null) {
            return runs.stream().map(RunResult::tasks).distinct().sorted().map(String::valueOf).toList();
        }
        return runs.stream().map(r -> r.parameters().getOrDefault(xParameter, "")).distinct()
                .sorted(java.util.Comparator.comparingDouble(ChartData::magnitude).thenComparing(java.util.Comparator.naturalOrder()))
                .toList();
    }

    /** @return a parameter value as a number to sort by (sizes and durations by their magnitude); NaN when it is none */
    private static double magnitude(String value) {
        try {
            return DataSize.parse(value).bytes();
        } catch (RuntimeException notASize) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException notANumber) {
                return Double.NaN;
            }
        }
    }

    /** @return the charts' data, one group per configuration × operation, as the page's script reads it */
    public ObjectNode json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode groups = root.putArray("groups");
        operations().forEach((key, operationsOfKey) -> {
            List<String> labels = labels(key);
            TreeSet<Integer> taskCounts = new TreeSet<>();
            sets.values().forEach(runs -> runs.stream().filter(r -> key(r).equals(key)).forEach(r -> taskCounts.add(r.tasks())));
            // lines: one per set, or per set × task count when a parameter is on the x axis and tasks vary
            List<Integer> lineTasks = xParameter == null || taskCounts.size() == 1 ? List.of(-1) : List.copyOf(taskCounts);
            RunResult any = sets.values().stream().flatMap(List::stream).filter(r -> key(r).equals(key)).findFirst().orElseThrow();
            for (String op : operationsOfKey) {
                ObjectNode group = groups.addObject();
                group.put("title", any.benchmark() + " — " + op);
                group.put("params", key.substring(any.benchmark().length()).strip()
                        + (comparing.pairIgnoring().isEmpty() ? "" : "  (paired ignoring "
                        + String.join(", ", new TreeSet<>(comparing.pairIgnoring())) + ")"));
                group.put("axis", xParameter == null ? "tasks" : xParameter);
                labels.forEach(group.putArray("labels")::add);
                ArrayNode latencySeries = group.putObject("latency").putArray("series");
                ObjectNode throughput = group.putObject("throughput");
                ArrayNode throughputSeries = throughput.putArray("series");
                ArrayNode percentiles = group.putArray("percentiles");
                boolean bytes = false;
                int line = 0;
                for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
                    for (int lineTask : lineTasks) {
                        String name = set.getKey() + (lineTask < 0 ? "" : ", " + lineTask + " task" + (lineTask == 1 ? "" : "s"));
                        ObjectNode s = latencySeries.addObject().put("set", name);
                        ObjectNode t = throughputSeries.addObject().put("set", name);
                        ArrayNode mean = s.putArray("mean");
                        ArrayNode ci = s.putArray("ci");
                        ArrayNode p99 = s.putArray("p99");
                        ArrayNode p99ci = s.putArray("p99ci");
                        ArrayNode opsPerSecond = t.putArray("ops");
                        ArrayNode bytesPerSecond = t.putArray("bytes");
                        int labelIndex = 0;
                        for (String label : labels) {
                            Point point = xParameter == null ? new Point(label, Integer.parseInt(label), null)
                                    : new Point(label, lineTask < 0 ? taskCounts.first() : lineTask, label);
                            RunResult run = find(set.getValue(), key, point);
                            Measurement m = run == null ? null : run.measurements().get(op);
                            if (m == null || m.count() == 0) {
                                mean.addNull();
                                ci.addNull();
                                p99.addNull();
                                p99ci.addNull();
                                opsPerSecond.addNull();
                                bytesPerSecond.addNull();
                                labelIndex++;
                                continue;
                            }
                            RepetitionStats rs = run.acrossRepetitions().get(op);
                            mean.add(rs.meanNanos());
                            ci.add(rs.repetitions() < 2 ? null : mapper.createArrayNode().add(rs.ci95LowNanos()).add(rs.ci95HighNanos()));
                            p99.add(m.p99Nanos());
                            p99ci.add(p99Interval(run, op));
                            opsPerSecond.add(rs.meanOpsPerSecond());
                            bytesPerSecond.add(run.repetitions().stream().map(r -> r.measurements().get(op))
                                    .filter(java.util.Objects::nonNull).mapToDouble(Measurement::bytesPerSecond).average().orElse(0));
                            bytes |= m.bytes() > 0;
                            String where = xParameter == null ? (labels.size() > 1 ? label + " task" + (label.equals("1") ? "" : "s") : "")
                                    : xParameter + "=" + label;
                            ObjectNode distribution = percentiles.addObject().put("set", line).put("taskIndex", labelIndex)
                                    .put("label", name + (where.isEmpty() ? "" : ", " + where));
                            ArrayNode points = distribution.putArray("points");
                            distribution(m).forEach((nines, nanos) -> points.addObject().put("x", nines).put("y", nanos));
                            labelIndex++;
                        }
                        line++;
                    }
                }
                throughput.put("bytes", bytes);
                timeline(group.putArray("timeline"), key, op, taskCounts);
                if (op.equals(operationsOfKey.get(0))) {
                    ranks(group.putArray("ranks"), key);
                }
            }
        });
        return root;
    }

    /**
     * Adds, per set and task count whose runs kept interval histograms ({@link Pacing#interval()}), the p99 and the
     * rate of each interval, merged over the repetitions: x is the interval's middle in seconds from the end of the ramp.
     */
    private void timeline(ArrayNode timeline, String key, String op, TreeSet<Integer> taskCounts) {
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            for (RunResult run : set.getValue()) {
                if (!key(run).equals(key) || run.repetitions().stream().allMatch(r -> !r.intervals().containsKey(op))) {
                    continue;
                }
                List<List<Measurement>> byIndex = new ArrayList<>();
                for (RepetitionResult rep : run.repetitions()) {
                    List<Measurement> list = rep.intervals().getOrDefault(op, List.of());
                    for (int i = 0; i < list.size(); i++) {
                        while (byIndex.size() <= i) {
                            byIndex.add(new ArrayList<>());
                        }
                        byIndex.get(i).add(list.get(i));
                    }
                }
                ObjectNode series = timeline.addObject().put("label", set.getKey() + (taskCounts.size() > 1 ? ", " + run.tasks()
                        + " task" + (run.tasks() == 1 ? "" : "s") : "") + (xParameter == null ? "" : ", " + xParameter + "="
                        + run.parameters().get(xParameter)));
                ArrayNode p99 = series.putArray("p99");
                ArrayNode ops = series.putArray("ops");
                for (int i = 0; i < byIndex.size(); i++) {
                    Measurement merged = Measurement.combineRepetitions(byIndex.get(i));
                    double seconds = (i + 0.5) * (merged.elapsedNanos() / (double) byIndex.get(i).size()) / 1e9;
                    if (merged.count() > 0) {
                        p99.addObject().put("x", seconds).put("y", merged.p99Nanos());
                    }
                    ops.addObject().put("x", seconds).put("y", merged.opsPerSecond());
                }
            }
        }
    }

    /**
     * @return the latency at each quarter-nine of percentile (0%, 43.8%, 68.4%, 82.2%, 90%, …) that the
     *         operation count resolves, and the maximum at log10(count): x in nines, y in nanoseconds
     */
    static Map<Double, Long> distribution(Measurement m) {
        Map<Double, Long> points = new LinkedHashMap<>();
        double last = Math.log10(Math.max(1, m.count()));
        for (int quarter = 0; quarter / 4.0 < last; quarter++) {
            double nines = quarter / 4.0;
            points.put(nines, m.percentileNanos(100 - 100 / Math.pow(10, nines)));
        }
        points.put(Math.max(last, 0.25), m.maxNanos());
        return points;
    }

    /** @return the 95% CI (ns) of the repetitions' p99s; null below two */
    private static ArrayNode p99Interval(RunResult run, String op) {
        double[] p99s = run.repetitions().stream().map(r -> r.measurements().get(op)).filter(java.util.Objects::nonNull)
                .filter(m -> m.count() > 0).mapToDouble(m -> m.p99Nanos()).toArray();
        if (p99s.length < 2) {
            return null;
        }
        RepetitionStats st = RepetitionStats.of(p99s, p99s);
        return new ObjectMapper().createArrayNode().add(st.ci95LowNanos()).add(st.ci95HighNanos());
    }


    /**
     * Per set, the run of this configuration at its most tasks (above one): each rank's timed phase, the mean over the
     * repetitions in which it timed work, so the straggler shows at a glance; null for a rank that timed none.
     */
    private void ranks(ArrayNode out, String key) {
        for (Map.Entry<String, List<RunResult>> set : sets.entrySet()) {
            RunResult run = set.getValue().stream().filter(r -> key(r).equals(key) && r.tasks() > 1)
                    .max(java.util.Comparator.comparingInt(RunResult::tasks)).orElse(null);
            if (run == null) {
                continue;
            }
            ObjectNode s = out.addObject().put("label", set.getKey() + ", " + run.tasks() + " tasks");
            ArrayNode phases = s.putArray("phases");
            int slowest = -1;
            double longest = -1;
            for (int rank = 0; rank < run.tasks(); rank++) {
                final int r = rank;
                java.util.OptionalDouble mean = run.repetitions().stream().flatMap(rep -> rep.ranks().stream())
                        .filter(x -> x.rank() == r && x.phaseNanos() > 0).mapToLong(dev.prism.RankResult::phaseNanos).average();
                if (mean.isPresent()) {
                    phases.add(mean.getAsDouble());
                    if (mean.getAsDouble() > longest) {
                        longest = mean.getAsDouble();
                        slowest = rank;
                    }
                } else {
                    phases.addNull();
                }
            }
            s.put("slowest", slowest);
        }
    }
}
