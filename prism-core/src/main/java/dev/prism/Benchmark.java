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
     * The one way a configuration is made from another, in every module: a sweep ({@link Sweep}, the command line's
     * {@code -p a=1,2}) sets each value through it, so what the benchmark carries beside its parameters (a torch
     * benchmark's torchrun) stays. Each value is parsed and checked by this benchmark's own declaration of it; typed
     * setters ({@code files(500)}) are the same, in Java's types.
     *
     * <pre>{@code
     * import dev.prism.Benchmark;
     * import dev.prism.Parameter;
     * import dev.prism.Parameters;
     * import java.util.List;
     * import java.util.Map;
     *
     * Parameter<Integer> files = Parameter.ofInt("files", 10, 1, 1000, "files", "files per rank");
     * Benchmark b = Benchmark.builder("touch").parameters(Parameters.defaults(List.of(files))).run(ctx -> { }).build();
     * System.out.println(b.withText(Map.of("files", "500")).parameters());
     * }</pre>
     *
     * @param values parameter values as text, by name; those not named keep their values
     * @return a copy with {@code values}; by default made again by its provider (the benchmarks PRISM ships, and
     *         those of a {@link BenchmarkProvider}), with the values this one changed from its defaults
     * @throws IllegalArgumentException naming a parameter this benchmark does not declare, or a value out of range
     */
    default Benchmark withText(java.util.Map<String, String> values) {
        java.util.Map<String, String> text = new java.util.LinkedHashMap<>(parameters().changedFromDefaults());
        text.putAll(values);
        return Benchmarks.create(name(), text);
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
        private Class<? extends Workload> workloadClass;
        private Workload setup;
        private Workload teardown;
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

        /**
         * @param workloads makes one {@link Workload} per rank (stateful workloads), in this JVM: such a benchmark runs
         *                  under the threads launcher only ({@link #workload(Class)} runs under every launcher)
         */
        public Builder workload(Supplier<? extends Workload> workloads) {
            this.workloads = Objects.requireNonNull(workloads, "workloads");
            this.workloadClass = null;
            return this;
        }

        /**
         * The workload as a class, one instance per rank, made with its public no-argument constructor: in this JVM
         * and, by the class's name, in the ranks' own processes (the processes launcher's child JVMs, SLURM's tasks),
         * which find it on their class path as they find PRISM. This one line is all a benchmark written in Java
         * needs to run under every launcher: no provider class, no service file. Its parameters ({@link
         * #parameters}) reach those ranks as text, and {@code ctx.parameters().get(P)} parses each with its
         * {@link Parameter}.
         *
         * <pre>{@code
         * import dev.prism.Benchmark;
         * import dev.prism.Workload;
         * import dev.prism.WorkloadContext;
         * import java.nio.file.Files;
         *
         * public class Touch implements Workload {
         *     public void run(WorkloadContext ctx) throws Exception {
         *         try (var t = ctx.time("create")) {
         *             Files.createFile(ctx.workDirectory().resolve("f"));
         *         }
         *     }
         * }
         * var touch = Benchmark.builder("touch").workload(Touch.class).build();
         * }</pre>
         *
         * @param type a public, concrete, top-level or static nested class with a public no-argument constructor
         * @return this builder
         * @throws IllegalArgumentException when {@code type} cannot be made that way, saying why
         */
        public Builder workload(Class<? extends Workload> type) {
            if (type == null) {
                throw new IllegalArgumentException("workload must be a class implementing Workload, was null");
            }
            int modifiers = type.getModifiers();
            String why = !java.lang.reflect.Modifier.isPublic(modifiers) ? "is not public"
                    : java.lang.reflect.Modifier.isAbstract(modifiers) || type.isInterface() ? "is abstract"
                    : type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic() ? "has no name ranks elsewhere can find it by"
                    : type.getEnclosingClass() != null && !java.lang.reflect.Modifier.isStatic(modifiers) ? "is an inner class (make it static)"
                    : null;
            if (why == null) {
                try {
                    if (!java.lang.reflect.Modifier.isPublic(type.getConstructor().getModifiers())) {
                        why = "has no public no-argument constructor";
                    }
                } catch (NoSuchMethodException e) {
                    why = "has no public no-argument constructor";
                }
            }
            if (why != null) {
                throw new IllegalArgumentException("workload must be a public class with a public no-argument constructor,"
                        + " which ranks in other processes make by name; " + type.getName() + " " + why);
            }
            this.workloadClass = type;
            this.workloads = () -> newInstance(type);
            return this;
        }

        /** @return a new {@code type}, its constructor's failure as the rank's */
        static Workload newInstance(Class<? extends Workload> type) {
            try {
                return type.getConstructor().newInstance();
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                throw new PrismException("making the workload " + type.getName() + " failed: " + cause, cause);
            } catch (ReflectiveOperationException e) {
                throw new PrismException("cannot make the workload " + type.getName() + ": " + e, e);
            }
        }

        /** @param run the timed phase of a stateless workload, shared by all ranks (threads launcher only, as a lambda) */
        public Builder run(Workload run) {
            Objects.requireNonNull(run, "run");
            this.workloads = () -> run;
            this.workloadClass = null;
            return this;
        }

        /**
         * @param setup untimed work before the timed phase ({@link Workload#setup}), for a workload given by {@link
         *              #run}: e.g. making the files it reads
         * @return this builder
         */
        public Builder setup(Workload setup) {
            this.setup = Objects.requireNonNull(setup, "setup");
            return this;
        }

        /**
         * @param teardown untimed work after validation ({@link Workload#teardown}), for a workload given by {@link
         *                 #run}, run whether or not the timed phase failed
         * @return this builder
         */
        public Builder teardown(Workload teardown) {
            this.teardown = Objects.requireNonNull(teardown, "teardown");
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
            if ((setup != null || teardown != null) && workloadClass != null) {
                throw new IllegalStateException("benchmark '" + name + "': setup(...) and teardown(...) go with run(...);"
                        + " a workload class (" + workloadClass.getName() + ") has its own setup and teardown methods");
            }
            Supplier<? extends Workload> made = workloads;
            if (setup != null || teardown != null) {
                Supplier<? extends Workload> inner = workloads;
                Workload before = setup;
                Workload after = teardown;
                made = () -> new Phased(before, inner.get(), after);
            }
            return new CustomBenchmark(name, description, parameters, made, runsByTime, workloadClass);
        }

        /** A workload given by its timed phase, with the set-up and teardown given beside it. */
        private record Phased(Workload setup, Workload run, Workload teardown) implements Workload {
            @Override
            public void setup(WorkloadContext ctx) throws Exception {
                if (setup != null) {
                    setup.run(ctx);
                }
                run.setup(ctx);
            }

            @Override
            public void rehearse(WorkloadContext ctx) throws Exception {
                run.rehearse(ctx);
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                run.run(ctx);
            }

            @Override
            public void validate(WorkloadContext ctx) throws Exception {
                run.validate(ctx);
            }

            @Override
            public void teardown(WorkloadContext ctx) throws Exception {
                try {
                    run.teardown(ctx);
                } finally {
                    if (teardown != null) {
                        teardown.run(ctx);
                    }
                }
            }
        }
    }
}
