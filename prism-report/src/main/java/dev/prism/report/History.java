package dev.prism.report;

import dev.prism.HostConditions;
import dev.prism.Measurement;
import dev.prism.Provenance;
import dev.prism.RankSpread;
import dev.prism.RepetitionResult;
import dev.prism.Results;
import dev.prism.RunResult;
import dev.prism.Stat;
import dev.prism.spi.AtomicFiles;
import dev.prism.spi.Formats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Results of many runs over time — nightly qualifications, runs after every upgrade — as series, one per benchmark ×
 * parameters × task count × operation × statistic. Each run of a series is judged against the trailing window of runs
 * before it, with the statistics {@link Comparison} uses (over repetitions, tails included; the window's repetitions
 * pooled); where a run moved beyond the threshold and every run after it stayed moved against the same window, the
 * series <em>shifted</em>, and the first such run is named, with what changed there: the labels the runs were given
 * ({@code --label firmware=4.3}), the programs' versions, PRISM's commit, and the host's conditions.
 *
 * <p>A run is one result directory (the documents of one {@code prism run} or {@code suite}); its time is the earliest
 * start of its documents. {@link #load} reads result directories as they are; nothing else is kept.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.RunResult;
 * import dev.prism.Scenario;
 * import dev.prism.report.History;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 * import java.util.LinkedHashMap;
 * import java.util.List;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var tmp = Path.of(System.getProperty("java.io.tmpdir"));
 * var runs = new LinkedHashMap<String, List<RunResult>>();
 * for (int night = 1; night <= 4; night++) {
 *     runs.put("night-" + night, Scenario.builder().target(tmp).benchmark(touch).repetitions(3)
 *             .build().execute().runs());
 * }
 * var history = History.of(runs).window(3);
 * System.out.print(history.table());
 * }</pre>
 */
public final class History {
    /** Runs in a window below which a run is not judged: a window of one or two runs does not know the noise. */
    public static final int MIN_WINDOW = 3;

    private final List<Run> runs;
    private final int window;
    private final Comparison.Options options;

    private History(List<Run> runs, int window, Comparison.Options options) {
        this.runs = List.copyOf(runs);
        this.window = window;
        this.options = options;
    }

    /**
     * One run: the results of one result directory.
     *
     * @param name      the directory's name (or the name given), such as the run id
     * @param startedAt the earliest start among its results
     * @param results   its results
     */
    public record Run(String name, Instant startedAt, List<RunResult> results) {
        /** Copies. */
        public Run {
            results = List.copyOf(results);
        }

        /** @return the provenance of its first result */
        public Provenance provenance() {
            return results.get(0).provenance();
        }
    }

    /**
     * One run of a series.
     *
     * @param run       the run's name
     * @param startedAt when it started
     * @param value     the statistic over all its repetitions (ns for a latency, per second for a rate)
     * @param windowLow the lowest value of the trailing window it was judged against (NaN when not judged)
     * @param windowHigh the highest
     * @param verdict   the run against its window, as compare says it; {@code NOT_APPLICABLE} while the window is short
     * @param moved     whether it moved beyond the threshold, significantly: a regression, or faster by more than the
     *                  threshold (a significant speed-up within it is not a move)
     */
    public record Point(String run, Instant startedAt, double value, double windowLow, double windowHigh,
                        Comparison.Verdict verdict, boolean moved) {
    }

    /**
     * Where a series moved and stayed moved.
     *
     * @param run      the first run that moved
     * @param startedAt when it started
     * @param before   the statistic over the window before it
     * @param after    the statistic over the runs since
     * @param verdict  {@code REGRESSION} or {@code FASTER}
     * @param changes  what changed between the run before and this one (labels, programs, PRISM's commit, the
     *                 host's conditions); empty when nothing recorded changed
     * @param runsSince the runs after the first that moved, every one of them still moved: 0 when the move is the
     *                 latest run's, which no later run has confirmed yet (a blip and a shift look alike until one does)
     */
    public record Shift(String run, Instant startedAt, double before, double after, Comparison.Verdict verdict,
                        List<String> changes, int runsSince) {
        /** Copies. */
        public Shift {
            changes = List.copyOf(changes);
        }

        /** @return whether a later run stayed moved too; false for a move at the latest run only */
        public boolean confirmed() {
            return runsSince > 0;
        }

        /** @return after / before */
        public double ratio() {
            return after / before;
        }
    }

    /**
     * One series over time.
     *
     * @param benchmark  the benchmark
     * @param parameters the parameters that tell its series apart from the benchmark's other series, as text
     * @param tasks      the task count
     * @param operation  the operation
     * @param stat       the statistic
     * @param points     each run that measured it, in time order
     * @param shift      where it shifted and stayed shifted up to the latest run; null when it did not
     */
    public record Series(String benchmark, String parameters, int tasks, String operation, Stat stat, List<Point> points,
                         Shift shift) {
        /** Copies. */
        public Series {
            points = List.copyOf(points);
        }

        /** @return whether the series shifted to slower and stayed there */
        public boolean regressed() {
            return shift != null && shift.verdict() == Comparison.Verdict.REGRESSION;
        }

        /** @return {@code create_files files=1000 tasks=2 create p99} */
        public String title() {
            return benchmark + (parameters.isEmpty() ? "" : " " + parameters) + " tasks=" + tasks + " " + operation + " "
                    + stat.label();
        }
    }

    /**
     * @param runs each run's results by the run's name, in any order (they are ordered by start)
     * @return the history, with a window of 5 runs and compare's default statistics and threshold
     * @throws IllegalArgumentException when there are fewer than two runs, or a run has no results
     */
    public static History of(Map<String, List<RunResult>> runs) {
        List<Run> list = new ArrayList<>();
        runs.forEach((name, results) -> {
            if (results.isEmpty()) {
                throw new IllegalArgumentException("run '" + name + "' has no results");
            }
            list.add(new Run(name, results.stream().map(RunResult::startedAt).min(Comparator.naturalOrder()).orElseThrow(),
                    results));
        });
        if (list.size() < 2) {
            throw new IllegalArgumentException("a history needs at least 2 runs, was " + list.size());
        }
        list.sort(Comparator.comparing(Run::startedAt).thenComparing(Run::name));
        return new History(list, 5, Comparison.defaults());
    }

    /**
     * Reads runs from result directories: each directory holding result documents ({@code NN-benchmark-tN.json}) is
     * one run, found at most two levels below each path given ({@code prism-results/} holds a run per run id).
     *
     * @throws IllegalArgumentException naming a path that holds no results
     */
    public static History load(List<Path> paths) throws IOException {
        Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        for (Path path : paths) {
            Map<Path, List<Path>> byDirectory = new TreeMap<>();
            if (Files.isRegularFile(path)) {
                byDirectory.put(path.toAbsolutePath().getParent(), List.of(path));
            } else if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path, 3)) {
                    walk.filter(p -> p.getFileName().toString().matches("\\d+-.+-t\\d+\\.json")).sorted()
                            .forEach(p -> byDirectory.computeIfAbsent(p.getParent(), d -> new ArrayList<>()).add(p));
                }
            }
            if (byDirectory.isEmpty()) {
                throw new IllegalArgumentException(path + " holds no prism.run/1 documents (NN-benchmark-tN.json)");
            }
            for (Map.Entry<Path, List<Path>> e : byDirectory.entrySet()) {
                List<RunResult> results = new ArrayList<>();
                for (Path file : e.getValue()) {
                    results.addAll(Results.loadWithoutRanks(file));
                }
                String name = e.getKey().getFileName() == null ? e.getKey().toString() : e.getKey().getFileName().toString();
                String unique = name;
                for (int i = 2; runs.containsKey(unique); i++) {
                    unique = name + "#" + i;
                }
                runs.put(unique, results);
            }
        }
        return of(runs);
    }

    /** @param runs how many runs before each run it is judged against, 3..100 (default 5) */
    public History window(int runs) {
        if (runs < MIN_WINDOW || runs > 100) {
            throw new IllegalArgumentException("window must be " + MIN_WINDOW + "..100 runs, was " + runs);
        }
        return new History(this.runs, runs, options);
    }

    /** @param options the statistics and thresholds to judge with, as compare's */
    public History options(Comparison.Options options) {
        return new History(runs, window, Objects.requireNonNull(options, "options"));
    }

    /** @return the runs, oldest first */
    public List<Run> runs() {
        return runs;
    }

    /** Every series, worked out once: a table, a verdict and a page all ask for them */
    private volatile List<Series> series;

    /** @return every series, in the order their first run measured them */
    public List<Series> series() {
        List<Series> known = series;
        if (known == null) {
            known = List.copyOf(computeSeries());
            series = known;
        }
        return known;
    }

    private List<Series> computeSeries() {
        Map<String, List<RunResult>> byConfiguration = new LinkedHashMap<>();
        Map<String, List<Integer>> runIndex = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (RunResult r : runs.get(i).results()) {
                String key = r.benchmark() + "\u0000" + new TreeMap<>(r.parameters()) + "\u0000" + r.tasks();
                byConfiguration.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
                runIndex.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
            }
        }
        Map<String, java.util.Set<String>> varying = varyingParameters();
        record Part(String configuration, String operation) {
        }
        List<Part> parts = new ArrayList<>();
        byConfiguration.forEach((key, results) -> {
            java.util.Set<String> operations = new java.util.LinkedHashSet<>();
            results.forEach(r -> operations.addAll(r.measurements().keySet()));
            operations.forEach(op -> parts.add(new Part(key, op)));
        });
        // each configuration × operation apart, on every core (pooling windows' histograms is most of the work), in order
        return parts.parallelStream().flatMap(part -> {
            List<RunResult> results = byConfiguration.get(part.configuration());
            Map<List<Integer>, RunResult> pools = new java.util.HashMap<>(); // a window's pool serves every statistic
            List<Series> found = new ArrayList<>();
            for (Stat stat : options.statistics()) {
                Series s = series(results, runIndex.get(part.configuration()), part.operation(), stat,
                        varying.getOrDefault(results.get(0).benchmark(), java.util.Set.of()), pools);
                if (s != null) {
                    found.add(s);
                }
            }
            return found.stream();
        }).toList();
    }

    /** @return the series that shifted and stayed shifted, regressions first */
    public List<Series> moved() {
        return series().stream().filter(s -> s.shift() != null)
                .sorted(Comparator.comparing((Series s) -> !s.regressed())).toList();
    }

    /** @return true when no series shifted to slower */
    public boolean passed() {
        return series().stream().noneMatch(Series::regressed);
    }

    /** @return per benchmark, the parameters whose values differ between its runs: those that tell its series apart */
    private Map<String, java.util.Set<String>> varyingParameters() {
        Map<String, Map<String, java.util.Set<String>>> values = new LinkedHashMap<>();
        runs.forEach(run -> run.results().forEach(r -> r.parameters().forEach((k, v) -> values
                .computeIfAbsent(r.benchmark(), b -> new TreeMap<>()).computeIfAbsent(k, x -> new TreeSet<>()).add(v))));
        Map<String, java.util.Set<String>> varying = new LinkedHashMap<>();
        values.forEach((benchmark, byKey) -> {
            java.util.Set<String> keys = new TreeSet<>();
            byKey.forEach((k, v) -> {
                if (v.size() > 1) {
                    keys.add(k);
                }
            });
            varying.put(benchmark, keys);
        });
        return varying;
    }

    /**
     * @param pools the pooled windows of {@code op} in {@code results} computed so far, by the positions in
     *              {@code results} of the runs pooled: filled and reused across the statistics of one operation
     */
    private Series series(List<RunResult> results, List<Integer> indexes, String op, Stat stat, java.util.Set<String> shown,
                          Map<List<Integer>, RunResult> pools) {
        List<RunResult> measured = new ArrayList<>();
        List<Integer> where = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Measurement m = results.get(i).measurements().get(op);
            if (results.get(i).passed() && m != null && m.count() >= Math.max(1, stat.minimumCount())) {
                measured.add(results.get(i));
                where.add(indexes.get(i));
                positions.add(i);
            }
        }
        if (measured.size() < 2) {
            return null;
        }
        double threshold = options.thresholdOf(stat);
        List<Point> points = new ArrayList<>();
        Integer shiftAt = null;
        RunResult shiftWindow = null;
        double windowLow = Double.NaN;
        double windowHigh = Double.NaN;
        for (int i = 0; i < measured.size(); i++) {
            RunResult run = measured.get(i);
            double value = stat.of(run.measurement(op));
            Comparison.Verdict verdict = Comparison.Verdict.NOT_APPLICABLE;
            if (shiftAt != null) {
                Comparison.Verdict again = Comparison.row(shiftWindow, run, op, stat, threshold, java.util.Set.of()).verdict();
                if (again == points.get(shiftAt).verdict() && beyond(again, stat, stat.of(shiftWindow.measurement(op)), value, threshold)) {
                    points.add(new Point(runs.get(where.get(i)).name(), runs.get(where.get(i)).startedAt(), value,
                            windowLow, windowHigh, again, true));
                    continue;
                }
                shiftAt = null; // back within the window: the earlier move was a blip
            }
            if (i >= MIN_WINDOW) {
                List<RunResult> trailing = measured.subList(Math.max(0, i - window), i);
                RunResult pooled = pools.computeIfAbsent(List.copyOf(positions.subList(Math.max(0, i - window), i)),
                        k -> pool(trailing, op));
                windowLow = trailing.stream().mapToDouble(r -> stat.of(r.measurement(op))).min().orElse(Double.NaN);
                windowHigh = trailing.stream().mapToDouble(r -> stat.of(r.measurement(op))).max().orElse(Double.NaN);
                verdict = Comparison.row(pooled, run, op, stat, threshold, java.util.Set.of()).verdict();
                if (beyond(verdict, stat, stat.of(pooled.measurement(op)), value, threshold)) {
                    shiftAt = points.size();
                    shiftWindow = pooled;
                }
            }
            points.add(new Point(runs.get(where.get(i)).name(), runs.get(where.get(i)).startedAt(), value,
                    i >= MIN_WINDOW ? windowLow : Double.NaN, i >= MIN_WINDOW ? windowHigh : Double.NaN, verdict,
                    shiftAt != null && shiftAt == points.size()));
        }
        Shift shift = null;
        if (shiftAt != null) {
            Point first = points.get(shiftAt);
            RunResult firstRun = measured.get(shiftAt);
            int from = shiftAt;
            RunResult since = pools.computeIfAbsent(List.copyOf(positions.subList(from, measured.size())),
                    k -> pool(measured.subList(from, measured.size()), op));
            shift = new Shift(first.run(), first.startedAt(), stat.of(shiftWindow.measurement(op)), stat.of(since.measurement(op)),
                    first.verdict(), changes(measured.get(shiftAt - 1), firstRun), measured.size() - 1 - shiftAt);
        }
        RunResult latest = measured.get(measured.size() - 1);
        Map<String, String> telling = new LinkedHashMap<>(latest.parameters());
        telling.keySet().retainAll(shown);
        return new Series(latest.benchmark(), Formats.parameters(telling), latest.tasks(), op, stat, points, shift);
    }

    /** @return whether a verdict is a move: a regression, or significantly faster by more than the threshold */
    private static boolean beyond(Comparison.Verdict verdict, Stat stat, double before, double value, double threshold) {
        return verdict == Comparison.Verdict.REGRESSION || (verdict == Comparison.Verdict.FASTER
                && stat.slowdown(before, value) < 1 / (1 + threshold / 100));
    }

    /** @return what the results record that differs between the run before a shift and the shift's first run */
    static List<String> changes(RunResult before, RunResult after) {
        List<String> changes = new ArrayList<>();
        differing(before.provenance().labels(), after.provenance().labels(), "", changes);
        differing(before.provenance().programs(), after.provenance().programs(), "", changes);
        String was = before.provenance().commit();
        String is = after.provenance().commit();
        if (!was.equals(is) && !"unknown".equals(was) && !"unknown".equals(is)) {
            changes.add("PRISM " + shortCommit(was) + " → " + shortCommit(is));
        }
        if (!before.host().kernel().equals(after.host().kernel())) {
            changes.add("kernel " + before.host().kernel() + " → " + after.host().kernel());
        }
        dev.prism.TargetInfo tb = before.target();
        dev.prism.TargetInfo ta = after.target();
        if (!tb.path().equals(ta.path()) || !tb.filesystemType().equals(ta.filesystemType())
                || !tb.mountSource().equals(ta.mountSource())) {
            changes.add("target " + tb.filesystemType() + " " + tb.path() + " → " + ta.filesystemType() + " " + ta.path());
        } else if (!tb.mountOptions().equals(ta.mountOptions()) || !tb.superOptions().equals(ta.superOptions())) {
            changes.add("mount options " + tb.mountOptions() + "," + tb.superOptions() + " → " + ta.mountOptions() + ","
                    + ta.superOptions());
        }
        HostConditions b = before.conditions();
        b.differences(after.conditions()).forEach(d -> changes.add("host: " + d));
        return changes;
    }

    private static void differing(Map<String, String> before, Map<String, String> after, String prefix, List<String> out) {
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            String b = before.getOrDefault(k, "(none)");
            String a = after.getOrDefault(k, "(none)");
            if (!a.equals(b)) {
                out.add(prefix + k + " " + b + " → " + a);
            }
        }
    }

    private static String shortCommit(String commit) {
        return commit.length() > 12 && commit.matches("[0-9a-f]{40}.*") ? commit.substring(0, 12) + commit.substring(40) : commit;
    }

    /**
     * @return the runs' repetitions as one run's, the measurements of {@code op} merged over repetitions (only the
     *         operation judged: merging every operation's histograms for each point of each series took minutes over a
     *         year of nightly results)
     */
    static RunResult pool(List<RunResult> runs, String op) {
        List<RepetitionResult> reps = runs.stream().flatMap(r -> r.repetitions().stream()).toList();
        Map<String, List<Measurement>> byOp = new LinkedHashMap<>();
        runs.forEach(r -> {
            Measurement m = r.measurements().get(op);
            if (m != null) {
                byOp.computeIfAbsent(op, k -> new ArrayList<>()).add(m);
            }
        });
        Map<String, Measurement> merged = new LinkedHashMap<>();
        // compact: a pooled window is kept for every statistic of its operation (one decoded histogram is some 270 KB)
        byOp.forEach((name, list) -> merged.put(name, Measurement.combineRepetitions(list).compact()));
        RunResult last = runs.get(runs.size() - 1);
        // the last run's, with the measurements and repetitions of all of them
        return last.toBuilder().measurements(merged).repetitions(reps).rankSpread(RankSpread.ofRepetitions(reps))
                .startedAt(runs.get(0).startedAt()).build();
    }

    /** @return a headline, then one line per series that moved (regressions first), and a summary */
    public String table() {
        List<Series> all = series();
        List<Series> moved = all.stream().filter(x -> x.shift() != null)
                .sorted(Comparator.comparing((Series x) -> !x.regressed())).toList();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%d run(s) from %s to %s, %d series; each run judged against the %d before it (%s)%n", runs.size(),
                when(runs.get(0).startedAt()), when(runs.get(runs.size() - 1).startedAt()), all.size(), window, options));
        for (Series x : moved) {
            // a series' title and the changes between runs came from result documents: one line, whatever they hold
            out.append(x.regressed() ? "SLOWER " : "FASTER ").append(dev.prism.spi.TerminalText.escape(summary(x)))
                    .append('\n');
        }
        long regressed = moved.stream().filter(Series::regressed).count();
        long unconfirmed = moved.stream().filter(x -> !x.shift().confirmed()).count();
        out.append(String.format(Locale.ROOT, "%d series moved: %d slower, %d faster%s%n", moved.size(), regressed,
                moved.size() - regressed, unconfirmed == 0 ? ""
                        : " (" + unconfirmed + " at the latest run only: the next run says whether it is a shift or a blip)"));
        return out.toString();
    }

    /**
     * @return one line: {@code create_files tasks=1 create p99 +310% (412.0 µs → 1.69 ms) since run night-6
     *         (2026-11-28T02:00:00Z): firmware 4.2 → 4.3}
     */
    public static String summary(Series s) {
        Shift sh = s.shift();
        return String.format(Locale.ROOT, "%s %+.0f%% (%s → %s) %s %s (%s)%s", s.title(), (sh.ratio() - 1) * 100,
                value(s.stat(), sh.before()), value(s.stat(), sh.after()),
                sh.confirmed() ? "since run" : "at the latest run, not yet confirmed by a later one:", sh.run(),
                when(sh.startedAt()), sh.changes().isEmpty() ? "" : ": " + String.join(", ", sh.changes()));
    }

    /** @return an instant to the second */
    static String when(Instant instant) {
        return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    private static String value(Stat stat, double v) {
        return stat.isRate() ? (stat == Stat.BYTES_PER_SECOND ? Formats.bytes(v) + "/s" : String.format(Locale.ROOT, "%.4g/s", v))
                : Formats.latency(v);
    }

    /** Writes the history as one self-contained HTML page: what moved, then every series over time with its window. */
    public void writeHtml(Path file) throws IOException {
        AtomicFiles.write(file, html().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the page {@link #writeHtml} writes */
    public String html() throws IOException {
        return dev.prism.report.internal.HistoryPage.html(this, series());
    }

    /** @return the window, in runs */
    public int window() {
        return window;
    }

    /** @return the statistics and thresholds runs are judged with */
    public Comparison.Options options() {
        return options;
    }

    @Override
    public String toString() {
        return runs.stream().map(Run::name).collect(Collectors.joining(", ", "History[", "]"));
    }
}
