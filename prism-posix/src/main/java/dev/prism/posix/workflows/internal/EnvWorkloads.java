package dev.prism.posix.workflows.internal;

import dev.prism.PrismException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.internal.ChildPaths;
import dev.prism.posix.internal.Programs;
import dev.prism.posix.internal.TracedPrograms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * env_create and env_activate: a Python environment made and used the way researchers do. Every path the tools are
 * given reaches the run directory through the descriptor the rank holds ({@link ChildPaths}: {@code /proc/<pid>/fd/N/…}),
 * and an environment records that path in its scripts and configuration: valid for the repetition, which is the
 * environment's whole life, and nothing is made, installed or activated elsewhere when the run directory is renamed.
 */
public final class EnvWorkloads {
    private static final Duration LIMIT = Duration.ofHours(1);

    private EnvWorkloads() {
    }

    /** The tool that makes environments: uv when asked for or installed (auto), else python -m venv with pip. */
    static final class Tool {
        final String name;
        final String python;
        final String uv;
        final Map<String, String> env = new HashMap<>();

        Tool(WorkloadContext ctx, String tool, String pythonGiven, String uvGiven, Path cache) {
            this.python = Programs.resolve("python3", pythonGiven, "apt-get install python3 python3-venv");
            String chosen = tool;
            String uvPath = null;
            if (tool.equals("uv") || tool.equals("auto")) {
                try {
                    uvPath = Programs.resolve("uv", uvGiven, "install uv");
                    chosen = "uv";
                } catch (IllegalArgumentException e) {
                    if (tool.equals("uv")) {
                        throw e;
                    }
                    chosen = "venv";
                }
            }
            this.name = chosen;
            this.uv = uvPath;
            env.put("PIP_DISABLE_PIP_VERSION_CHECK", "1");
            env.put("PIP_NO_INPUT", "1");
            env.put("PIP_CONFIG_FILE", "/dev/null");
            env.put("UV_CACHE_DIR", cache.toString());
            env.put("UV_OFFLINE", "1");
            ctx.note("env_tool", name);
            Programs.noteVersion(ctx, "python", List.of(python, "--version"));
            if (uv != null) {
                Programs.noteVersion(ctx, "uv", List.of(uv, "--version"));
            }
        }

        void create(Path environment) {
            create(null, environment);
        }

        /** Creates {@code environment}, its programs traced by {@code programs} when given. */
        void create(TracedPrograms programs, Path environment) {
            List<String> c = uv != null ? List.of(uv, "venv", "-q", "--python", python, environment.toString())
                    : List.of(python, "-I", "-m", "venv", environment.toString());
            if (programs != null) {
                programs.check(c, null, env, LIMIT);
            } else {
                Programs.check(c, null, env, LIMIT);
            }
        }

        void install(Path environment, Path wheels, List<String> packages) {
            install(null, environment, wheels, packages);
        }

        /** Installs {@code packages} into {@code environment}, traced by {@code programs} when given. */
        void install(TracedPrograms programs, Path environment, Path wheels, List<String> packages) {
            List<String> c = new ArrayList<>(uv != null
                    ? List.of(uv, "pip", "install", "-q", "--python", environment.resolve("bin/python").toString())
                    : List.of(environment.resolve("bin/python").toString(), "-I", "-m", "pip", "install", "-q"));
            c.addAll(List.of("--no-index", "--find-links", wheels.toString()));
            c.addAll(packages);
            if (programs != null) {
                programs.check(c, null, env, LIMIT);
            } else {
                Programs.check(c, null, env, LIMIT);
            }
        }
    }

    /** Rank 0 stages the wheels in setup; everyone meets before using them. */
    static List<String> stageWheels(WorkloadContext ctx, int packages, int modules) throws IOException {
        Path wheels = ChildPaths.of(ctx, ctx.sharedDirectory().resolve("wheels"));
        List<String> names = new ArrayList<>();
        for (int p = 0; p < packages; p++) {
            names.add("prism_pkg_" + p);
        }
        if (ctx.rank() == 0) {
            Wheels.stage(wheels, packages, modules, new Random(7));
        }
        ctx.barrier();
        return names;
    }

    /** {@code env_create}: create {@code environments} environments and install the staged packages into each. */
    public static final class Create implements Workload {
        private final String toolName;
        private final String python;
        private final String uv;
        private final int packages;
        private final int modules;
        private final int environments;
        private Tool tool;
        private List<String> names;
        private TracedPrograms programs;

        public Create(String tool, String python, String uv, int packages, int modules, int environments) {
            this.toolName = tool;
            this.python = python;
            this.uv = uv;
            this.packages = packages;
            this.modules = modules;
            this.environments = environments;
        }

        @Override
        public void setup(WorkloadContext ctx) throws IOException {
            tool = new Tool(ctx, toolName, python, uv, ChildPaths.of(ctx, ctx.sharedDirectory().resolve("uv-cache")));
            names = stageWheels(ctx, packages, modules);
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void run(WorkloadContext ctx) {
            Path wheels = ChildPaths.of(ctx, ctx.sharedDirectory().resolve("wheels"));
            for (int i = 0; i < environments; i++) {
                Path named = ctx.workDirectory().resolve("env-" + i);
                Path environment = ChildPaths.of(ctx, named);
                ctx.measure("create", named, () -> tool.create(programs, environment));
                ctx.measure("install", named, () -> tool.install(programs, environment, wheels, names));
            }
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }

        @Override
        public void validate(WorkloadContext ctx) {
            Path environment = ChildPaths.of(ctx, ctx.workDirectory().resolve("env-0"));
            Programs.check(List.of(environment.resolve("bin/python").toString(), "-I", "-c",
                    "import " + String.join(", ", names)), null, Map.of(), LIMIT);
        }
    }

    /** {@code env_activate}: a shell that activates an environment and imports a package, many times. */
    public static final class Activate implements Workload {
        private final String toolName;
        private final String python;
        private final String uv;
        private final int activations;
        /** The environment by its name, for what the results say, and as its tools reach it */
        private Path named;
        private Path environment;
        private TracedPrograms programs;

        public Activate(String tool, String python, String uv, int activations) {
            this.toolName = tool;
            this.python = python;
            this.uv = uv;
            this.activations = activations;
        }

        @Override
        public void setup(WorkloadContext ctx) throws IOException {
            Tool tool = new Tool(ctx, toolName, python, uv, ChildPaths.of(ctx, ctx.sharedDirectory().resolve("uv-cache")));
            List<String> names = stageWheels(ctx, 3, 20);
            named = ctx.workDirectory().resolve("env");
            environment = ChildPaths.of(ctx, named);
            tool.create(environment);
            tool.install(environment, ChildPaths.of(ctx, ctx.sharedDirectory().resolve("wheels")), names);
            if (!Files.isRegularFile(environment.resolve("bin/activate"))) {
                throw new PrismException(named + " has no bin/activate");
            }
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void run(WorkloadContext ctx) {
            String script = ". " + environment.resolve("bin/activate") + " && python -c 'import prism_pkg_0, prism_pkg_1'";
            for (int i = 0; i < activations; i++) {
                ctx.measure("activate", named,
                        () -> programs.check(List.of("/bin/sh", "-c", script), null, Map.of(), LIMIT));
            }
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }
    }
}
