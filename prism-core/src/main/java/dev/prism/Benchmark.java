package dev.prism;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * An immutable benchmark: a name, documented parameter values and a {@link Workload} made fresh
 * for each rank. Built-in benchmarks come from typed factories (such as
 * {@code PosixBenchmarks.createFiles()}); custom ones from {@link #builder(String)}.
 *
 * <pre>{@code
 * import dev.prism.Benchmark;
 * import java.nio.file.Files;
 *
 * var touch = (Benchmark.builder("touch")
 *         .description("create one empty file per rank")
 *         .run(ctx -> {
 *             try (var t = ctx.time("create")) {
 *                 Files.createFile(ctx.workDirectory().resolve("f"));
 *             }
 *         })
 *         .build());
 * }</pre>
 */
public interface Benchmark {
    /** @return the benchmark's name, e.g. {@code create_files} */
    String name();

    /** @return one line saying what the benchmark executes */
    String description();

    /** @return the parameter values this benchmark runs with */
    Parameters parameters();

    /** @return a new workload for one rank */
    Workload newWorkload();

    /**
     * @return whether this benchmark can run by time ({@link Pacing#timeBased()}): its workload loops while
     *         {@link WorkloadContext#keepGoing} says so. False by default: it does a fixed amount of work.
     */
    default boolean runsByTime() {
        return false;
    }

    /**
     * @return the operations this benchmark may measure, as names or patterns with {@code *} ({@code file_*}), when
     *         they are known before it runs; empty (the default) when they are not — a benchmark whose operations come
     *         from a program (fio, torch) or from its parameters. A gate (prism-report's {@code Gate}) is checked against them before any
     *         work, so a typo in a gate file ({@code crate}) is a usage error, not a verdict after the run
     */
    default java.util.Set<String> operations() {
        return java.util.Set.of();
    }

    /**
     * @return what this benchmark passes over when the scenario continues on errors ({@link
     *         Scenario.Builder#continueOnError}), e.g. {@code a file it cannot read}, each failure counted per errno;
     *         empty (the default) for one that stops at its first error whatever the scenario says — a program it
     *         runs (git, tar, torch) either works or fails as a whole
     */
    default java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.empty();
    }

    /**
     * @return the parameter values a result records: all of them, except those that do not apply to this
     *         configuration (md5_check reading a kept dataset records where it read, not the generator's defaults)
     */
    default java.util.Map<String, String> recordedParameters() {
        return parameters().asText();
    }

    /**
     * @param tasks the ranks it would run with
     * @return what it needs on the target and in memory at that task count, where it is known before it runs; empty
     *         (the default) when it is not
     * @throws IllegalArgumentException when it cannot run at that task count at all, saying why
     */
    default java.util.Optional<Footprint> footprint(int tasks) {
        return java.util.Optional.empty();
    }

    /**
     * @return the launcher this benchmark's ranks must be started by, for benchmarks that bring their
     * own ranks (torchrun); empty to use the scenario's
     */
    default java.util.Optional<Launcher> launcher() {
        return java.util.Optional.empty();
    }

    /** @return a builder for a custom benchmark named {@code name} */
    static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Builds a custom {@link Benchmark}; each setter checks its argument at once.
     */
    final class Builder {
        private final String name;
        private String description = "";
        private Parameters parameters = Parameters.none();
        private Supplier<? extends Workload> workloads;
        private boolean runsByTime;

        /**
         * Says the workload loops while {@link WorkloadContext#keepGoing} says so, so it can run by time
         * ({@link Pacing}): {@code for (long i = 0; ctx.keepGoing(i, 1000); i++) { … }}.
         *
         * @return this builder
         */
        public Builder runsByTime() {
            this.runsByTime = true;
            return this;
        }

        private Builder(String name) {
            if (name == null || !name.matches("[a-z][a-z0-9_.-]*")) {
                throw new IllegalArgumentException("name must be lower-case letters, digits, '_', '.' or '-'"
                        + " starting with a letter, was " + (name == null ? "null" : "'" + name + "'"));
            }
            this.name = name;
        }

        /** @param description one line saying what the benchmark executes */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /** @param parameters values the workload reads through {@link WorkloadContext#parameters()} */
        public Builder parameters(Parameters parameters) {
            this.parameters = Objects.requireNonNull(parameters, "parameters");
            return this;
        }

        /** @param workloads makes one {@link Workload} per rank (stateful workloads) */
        public Builder workload(Supplier<? extends Workload> workloads) {
            this.workloads = Objects.requireNonNull(workloads, "workloads");
            return this;
        }

        /** @param run the timed phase of a stateless workload, shared by all ranks */
        public Builder run(Workload run) {
            Objects.requireNonNull(run, "run");
            this.workloads = () -> run;
            return this;
        }

        /**
         * @return the benchmark
         * @throws IllegalStateException when no workload was given
         */
        public Benchmark build() {
            if (workloads == null) {
                throw new IllegalStateException("benchmark '" + name + "' needs a workload: call run(...) or workload(...)");
            }
            return new CustomBenchmark(name, description, parameters, workloads, runsByTime);
        }
    }
}
