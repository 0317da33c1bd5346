package dev.prism;

import dev.prism.internal.output.Durations;
import dev.prism.internal.launch.ScenarioRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A target directory × benchmarks × task counts × repetitions (after warm-ups), with a launcher,
 * a timeout per repetition and a stall threshold. {@link #execute()} runs it and returns a
 * {@link ScenarioResult}. Every file lives under {@code <target>/prism-<runId>/}, which is removed
 * afterwards, after failures too.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import dev.prism.Scenario;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var touch = Benchmark.builder("touch").run(ctx -> {
 *     for (int i = 0; i < 100; i++) {
 *         var f = ctx.workDirectory().resolve("f" + i);
 *         try (var t = ctx.time("create", f)) { Files.createFile(f); }
 *     }
 * }).build();
 * var result = (Scenario.builder()
 *         .target(Path.of(System.getProperty("java.io.tmpdir")))
 *         .benchmark(touch).tasks(1, 2).repetitions(3)
 *         .build().execute());
 * System.out.println(result.table());
 * }</pre>
 */
public final class Scenario {
    private final Path target;
    private final List<Benchmark> benchmarks;
    private final List<Integer> tasks;
    private final int repetitions;
    private final int warmups;
    private final Duration timeout;
    private final Duration stallThreshold;
    private final Launcher launcher;
    private final long seed;
    private final String runId;
    private final int resultMode;
    private final Path output;
    private final ScenarioListener listener;
    private final Interruption interruption;
    private final Duration cleanupGrace;
    private final Duration silenceLimit;
    private final boolean continueOnError;
    private final Pacing pacing;
    private final Provenance provenance;

    private Scenario(Builder b) {
        this.target = b.target;
        this.benchmarks = List.copyOf(b.benchmarks);
        this.tasks = List.copyOf(b.tasks);
        this.repetitions = b.repetitions;
        this.warmups = b.warmups;
        this.timeout = b.timeout;
        this.stallThreshold = b.stallThreshold;
        this.launcher = b.launcher;
        this.seed = b.seed;
        this.runId = b.runId != null ? b.runId : newRunId();
        this.output = b.output;
        this.resultMode = b.resultMode;
        this.listener = b.listener;
        this.interruption = b.interruption;
        this.cleanupGrace = b.cleanupGrace;
        this.silenceLimit = b.silenceLimit;
        this.continueOnError = b.continueOnError;
        this.pacing = b.pacing;
        this.provenance = Provenance.of(b.command != null ? b.command : describe(b), b.labels);
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A run id chosen before the scenario is built, for a caller that names things after it first (an output directory
     * it checks, a listener that says where the run directory will be), then gives it to {@link Builder#runId}.
     *
     * <pre>{@code
     * import dev.prism.Scenario;
     *
     * String id = Scenario.newRunId();
     * System.out.println(id + " names prism-" + id + " in the target");
     * }</pre>
     *
     * @return a run id such as {@code 20261129-234501-3fa2}: sortable, and unique enough for one target
     */
    public static String newRunId() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + String.format("-%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }

    /**
     * Runs every benchmark at every task count, warm-ups first, and removes the run directory.
     *
     * @throws TargetException when the target is refused; nothing is written then
     */
    public ScenarioResult execute() {
        return new ScenarioRunner(this).execute();
    }

    /** @return the directory under test */
    public Path target() {
        return target;
    }

    /** @return the benchmarks, in order */
    public List<Benchmark> benchmarks() {
        return benchmarks;
    }

    /** @return the task counts, in order */
    public List<Integer> tasks() {
        return tasks;
    }

    /** @return measured repetitions per benchmark × task count */
    public int repetitions() {
        return repetitions;
    }

    /** @return unmeasured repetitions run first */
    public int warmups() {
        return warmups;
    }

    /** @return the deadline of each repetition */
    public Duration timeout() {
        return timeout;
    }

    /**
     * @return what every result of this scenario records about its making: this build's version and commit, the
     *         command ({@link Builder#command}, or a description of the scenario as built in Java) and the labels
     */
    public Provenance provenance() {
        return provenance;
    }

    /**
     * @return what the scenario runs, in a line: {@code create_files files=300 (+1 more) at tasks 1,2, 3 rep(s) after 1
     *         warm-up(s), threads, seed 42, on /mnt/nfs/prism}
     */
    @Override
    public String toString() {
        return String.join(", ", benchmarks.stream().map(Benchmark::toString).toList()) + " at tasks "
                + tasks.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + ", " + repetitions
                + " rep(s) after " + warmups + " warm-up(s), " + launcher.name().toLowerCase(java.util.Locale.ROOT) + ", seed "
                + seed + (pacing.timeBased() ? ", for " + Durations.format(pacing.duration()) : "") + ", on " + target;
    }

    /** @return the scenario as built in Java, in one line, for results of a scenario given no command */
    private static String describe(Builder b) {
        return "Scenario.builder(): " + String.join(", ", b.benchmarks.stream().map(Benchmark::name).toList()) + " at tasks "
                + b.tasks.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + ", "
                + b.repetitions + " rep(s) after " + b.warmups + " warm-up(s), " + b.launcher.name() + ", seed " + b.seed
                + (b.pacing.timeBased() ? ", for " + Durations.format(b.pacing.duration()) : "");
    }

    /** @return operations slower than this are recorded as stalls */
    public Duration stallThreshold() {
        return stallThreshold;
    }

    /** @return how ranks are started */
    public Launcher launcher() {
        return launcher;
    }

    /** @return the seed ranks derive their random sources from */
    public long seed() {
        return seed;
    }

    /** @return this scenario's run id */
    public String runId() {
        return runId;
    }

    /** @return where each run's JSON is written as soon as it finishes, or null */
    public Path output() {
        return output;
    }

    /**
     * @return the permission bits of the documents written into {@link #output()}: {@code 0644} (readable by everyone
     *         who may enter the directory) unless {@link Builder#resultMode} said otherwise
     */
    public int resultMode() {
        return resultMode;
    }

    /** @return who hears progress */
    public ScenarioListener listener() {
        return listener;
    }

    /** @return what stops the scenario early when interrupted */
    public Interruption interruption() {
        return interruption;
    }

    /** @return how long clean-up of the run directory may take at the end before the scenario returns without it */
    public Duration cleanupGrace() {
        return cleanupGrace;
    }

    /** @return how each repetition is paced: by work, or by time with a ramp; with or without intervals */
    public Pacing pacing() {
        return pacing;
    }

    /**
     * @return the silence limit given ({@link Builder#silenceLimit}); empty: each run's default, a tenth of the timeout
     *         from 15 s to 60 s
     */
    public java.util.Optional<Duration> silenceLimit() {
        return java.util.Optional.ofNullable(silenceLimit);
    }

    /** @return whether failed items are counted and passed over instead of failing the run (see {@link Builder#continueOnError}) */
    public boolean continueOnError() {
        return continueOnError;
    }

    /**
     * Builds a {@link Scenario}; each setter checks its argument at once and {@link #build()} checks
     * that a target and at least one benchmark were given.
     */
    public static final class Builder {
        static final int MAX_TASKS = 100_000;

        private Path target;
        private final List<Benchmark> benchmarks = new ArrayList<>();
        private List<Integer> tasks = List.of(1);
        private int repetitions = 1;
        private int warmups;
        private Duration timeout = Duration.ofMinutes(10);
        private Duration stallThreshold = Duration.ofSeconds(1);
        private Launcher launcher = Launcher.threads();
        private long seed = 42;
        private String runId;
        private int resultMode = dev.prism.spi.AtomicFiles.DEFAULT_MODE;
        private Path output;
        private ScenarioListener listener = ScenarioListener.NONE;
        private Interruption interruption = Interruption.create();
        private Duration cleanupGrace = Duration.ofSeconds(10);
        private Duration silenceLimit;
        private boolean continueOnError;
        private Pacing pacing = Pacing.NONE;
        private String command;
        private final java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();

        private Builder() {
        }

        /** @param target the directory on the filesystem to qualify; checked when the scenario executes */
        public Builder target(Path target) {
            Objects.requireNonNull(target, "target");
            if (target.toString().isEmpty()) {
                throw new IllegalArgumentException("target must name a directory, was '' (an empty path would be the"
                        + " current directory)");
            }
            this.target = target;
            return this;
        }

        /** @param benchmark adds one benchmark */
        public Builder benchmark(Benchmark benchmark) {
            benchmarks.add(Objects.requireNonNull(benchmark, "benchmark"));
            return this;
        }

        /** @param benchmarks adds these benchmarks, in order */
        public Builder benchmarks(List<? extends Benchmark> benchmarks) {
            benchmarks.forEach(this::benchmark);
            return this;
        }

        /** @param counts the task counts to sweep, each in 1..100000, e.g. {@code 1, 2, 4} */
        public Builder tasks(int... counts) {
            if (counts.length == 0) {
                throw new IllegalArgumentException("tasks must name at least one task count, e.g. 1,2,4");
            }
            for (int n : counts) {
                if (n < 1 || n > MAX_TASKS) {
                    throw new IllegalArgumentException("tasks must each be in 1.." + MAX_TASKS + ", was " + n);
                }
            }
            if (Arrays.stream(counts).distinct().count() != counts.length) {
                throw new IllegalArgumentException("tasks must be distinct task counts, was " + Arrays.toString(counts)
                        + ": each count runs once with every repetition, so a repeated one would run twice");
            }
            this.tasks = Arrays.stream(counts).boxed().toList();
            return this;
        }

        /** @param repetitions measured repetitions, in 1..100000 */
        public Builder repetitions(int repetitions) {
            if (repetitions < 1 || repetitions > 100_000) {
                throw new IllegalArgumentException("repetitions must be in 1..100000, was " + repetitions);
            }
            this.repetitions = repetitions;
            return this;
        }

        /** @param warmups unmeasured repetitions run first, in 0..1000 */
        public Builder warmups(int warmups) {
            if (warmups < 0 || warmups > 1000) {
                throw new IllegalArgumentException("warmups must be in 0..1000, was " + warmups);
            }
            this.warmups = warmups;
            return this;
        }

        /** @param timeout the deadline of each repetition, from 1ms to 7 days */
        public Builder timeout(Duration timeout) {
            this.timeout = checkDuration("timeout", timeout, Duration.ofMillis(1), Duration.ofDays(7));
            return this;
        }

        /** @param stallThreshold operations that go this long without progress ({@link WorkloadContext#progress}) are stalls, from 1ms to 1 day */
        public Builder stallThreshold(Duration stallThreshold) {
            this.stallThreshold = checkDuration("stallThreshold", stallThreshold, Duration.ofMillis(1), Duration.ofDays(1));
            return this;
        }

        /** @param launcher how ranks are started; {@link Launcher#threads()} by default */
        public Builder launcher(Launcher launcher) {
            this.launcher = Objects.requireNonNull(launcher, "launcher");
            return this;
        }

        /** @param seed the seed ranks derive their random sources from; 42 by default */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @param runId names the run directory {@code prism-<runId>}: 1 to 64 of {@code A-Z a-z 0-9 . _ -} */
        public Builder runId(String runId) {
            if (runId == null || !runId.matches("[A-Za-z0-9._-]{1,64}") || runId.matches("\\.+")) {
                throw new IllegalArgumentException("runId must be 1 to 64 of A-Z a-z 0-9 . _ - (not only dots), was "
                        + (runId == null ? "null" : "'" + runId + "'"));
            }
            this.runId = runId;
            return this;
        }

        /** @param output a directory to write each run's JSON into as soon as it finishes */
        public Builder output(Path output) {
            this.output = Objects.requireNonNull(output, "output");
            return this;
        }

        /**
         * @param mode the permission bits of the documents written into {@link #output}, 0 to 0777 (e.g. {@code 0600}:
         *             only their owner may read them); set exactly, whatever the umask; default {@code 0644}
         */
        public Builder resultMode(int mode) {
            if (mode < 0 || mode > 0777) {
                throw new IllegalArgumentException("resultMode must be in 0..0777 (permission bits, octal), was 0"
                        + Integer.toOctalString(mode));
            }
            this.resultMode = mode;
            return this;
        }

        /** @param listener hears progress and stalls */
        public Builder listener(ScenarioListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** @param interruption stops the scenario early when interrupted (see {@link Interruption}) */
        public Builder interruption(Interruption interruption) {
            this.interruption = Objects.requireNonNull(interruption, "interruption");
            return this;
        }

        /**
         * @param cleanupGrace how long removing the run directory may go without progress at the end (after a
         *                     timeout too: a loaded machine removes slowly, it is not stuck), from 1ms to 1 hour
         *                     (default 10s); after an {@link Interruption} how long from the interruption (a SLURM job's SIGKILL follows
         *                     its SIGTERM by KillWait). On storage that hangs, the scenario returns after it
         *                     and its result says what was left
         */
        public Builder cleanupGrace(Duration cleanupGrace) {
            this.cleanupGrace = checkDuration("cleanupGrace", cleanupGrace, Duration.ofMillis(1), Duration.ofHours(1));
            return this;
        }

        /**
         * @param silenceLimit how long a rank in another process, or the coordinator, may go unheard (no message, no
         *                     ping) before the other end asks whether it is still there, from 5s to 1 day (default: a
         *                     tenth of the timeout, from 15 s to 60 s). A rank whose process or node still answers is
         *                     slow, not lost: the run waits for it up to its deadline and its result says how long it
         *                     was silent; one whose node does not answer is given up on and the run stops
         */
        public Builder silenceLimit(Duration silenceLimit) {
            this.silenceLimit = checkDuration("silenceLimit", silenceLimit, Duration.ofSeconds(5), Duration.ofDays(1));
            return this;
        }

        /**
         * @param continueOnError as fio's {@code continue_on_error}: an item (a file, a directory) whose operation
         *                        fails is counted — the operation's {@code errors}, and a counter
         *                        {@code errors:<op>:<ERRNO>} per repetition — and the benchmark goes on with the next
         *                        item, so flaky storage can be qualified by its error rate; validation passes over
         *                        the failed items. Benchmarks whose work is a loop of items support it (the metadata
         *                        family, md5_check, create_dataset, create_synthetic_workload); others still fail.
         *                        Default false: the first error fails the run.
         */
        public Builder continueOnError(boolean continueOnError) {
            this.continueOnError = continueOnError;
            return this;
        }

        /**
         * @param pacing a time-based run ({@link Pacing#of}: duration, ramp, interval), or {@link Pacing#NONE} (the
         *               default: each benchmark does its amount of work); with a duration every benchmark must
         *               {@linkplain Benchmark#runsByTime run by time}, and the timeout must leave room for it
         */
        public Builder pacing(Pacing pacing) {
            this.pacing = Objects.requireNonNull(pacing, "pacing");
            return this;
        }

        /**
         * @param command the command line that made this scenario, recorded in every result's
         *                {@link Provenance#command()} (default: a description of the scenario as built); 1 to 4096
         *                characters
         */
        public Builder command(String command) {
            if (command == null || command.isBlank() || command.length() > 4096) {
                throw new IllegalArgumentException("command must be 1 to 4096 characters, was "
                        + (command == null ? "null" : command.length() + " characters"));
            }
            this.command = command;
            return this;
        }

        /**
         * @param key   a label's name, 1 to 64 of {@code A-Z a-z 0-9 _ . -} starting with a letter or {@code _}, such as
         *              {@code firmware}
         * @param value its value, at most 256 characters without control characters, such as {@code 4.3}; recorded in
         *              every result ({@link Provenance#labels()}) so history can say what changed when a series shifted
         */
        public Builder label(String key, String value) {
            Provenance.checkLabel(key, value);
            labels.put(key, value);
            return this;
        }

        /**
         * @return the scenario
         * @throws IllegalStateException when no target or no benchmark was given
         */
        public Scenario build() {
            if (target == null) {
                throw new IllegalStateException("a scenario needs a target directory: call target(Path)");
            }
            if (benchmarks.isEmpty()) {
                throw new IllegalStateException("a scenario needs at least one benchmark: call benchmark(...)");
            }
            // each benchmark's own rules (parameters that do not fit together, a dataset that is not there, a layout
            // no task count can hold) fail here, naming the parameter, not as a run after the benchmarks before it
            for (Benchmark b : benchmarks) {
                for (int t : tasks) {
                    dev.prism.internal.launch.ScenarioRunner.footprint(b, t);
                }
            }
            if (launcher instanceof dev.prism.internal.launch.SlurmLauncher slurm
                    && benchmarks.stream().anyMatch(b -> b.launcher().isEmpty())) {
                // a SLURM step has its task count; one the step does not have would fail as a run, after those before it
                for (int t : tasks) {
                    String refusal = slurm.refusal(t);
                    if (refusal != null) {
                        throw new IllegalArgumentException("tasks " + tasks + ": " + refusal);
                    }
                }
            }
            if (!(launcher instanceof dev.prism.internal.launch.ThreadLauncher)) {
                // known now, not after the benchmarks before it ran: ranks in other processes must make each benchmark
                // again (those that bring their own ranks, torchrun's, excepted)
                for (Benchmark b : benchmarks) {
                    if (b.launcher().isEmpty()) {
                        dev.prism.internal.coordination.PlanCodec.requireRecreatable(b);
                    }
                }
            }
            if (pacing.timeBased()) {
                List<String> byWork = benchmarks.stream().filter(b -> !b.runsByTime()).map(Benchmark::name).distinct().toList();
                if (!byWork.isEmpty()) {
                    throw new IllegalArgumentException("a duration of " + Durations.format(pacing.duration()) + " needs benchmarks whose work is a"
                            + " loop; " + String.join(", ", byWork) + " run" + (byWork.size() == 1 ? "s" : "")
                            + " a fixed amount of work (time-based: " + String.join(", ", Benchmarks.runningByTime()) + ")");
                }
                if (pacing.duration().plus(pacing.ramp()).compareTo(timeout) >= 0) {
                    throw new IllegalArgumentException("timeout " + Durations.format(timeout) + " must leave room for the ramp and duration ("
                            + Durations.format(pacing.ramp().plus(pacing.duration())) + ") and the set-up");
                }
            }
            return new Scenario(this);
        }

        private static Duration checkDuration(String name, Duration value, Duration min, Duration max) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be in " + Durations.format(min) + ".." + Durations.format(max) + ", was " + Durations.format(value));
            }
            return value;
        }
    }
}
