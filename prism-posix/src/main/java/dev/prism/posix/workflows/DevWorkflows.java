package dev.prism.posix.workflows;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.SyscallTracing;
import dev.prism.posix.workflows.internal.EnvWorkloads;
import dev.prism.posix.workflows.internal.GitWorkloads;
import dev.prism.posix.workflows.internal.ToolWorkloads;

import java.util.List;
import java.util.Locale;

/**
 * The researcher development workflows (§3.1.1 and §4.5 of the paper): the small-I/O, latency-bound
 * operations that stall a researcher directly, run with the real programs. Each external program can
 * be given explicitly ({@code -p git=/opt/git/bin/git}); a missing one is a clear error; its version is
 * recorded in the result's notes; a non-zero exit fails the run with the end of its stderr.
 *
 * <pre>{@code
 * import dev.prism.posix.workflows.DevWorkflows;
 *
 * var status = DevWorkflows.gitStatus().with(DevWorkflows.SCANS, 10);
 * }</pre>
 */
public final class DevWorkflows {
    /** The git executable; empty: git on PATH. */
    public static final Parameter<String> GIT = Parameter.ofString("git", "", "the git executable (empty: git on PATH)");
    /** A repository to clone; empty: one generated in setup. */
    public static final Parameter<String> SOURCE = Parameter.ofString("source", "",
            "repository URL or path to clone (empty: a repository PRISM generates in setup, no network needed)");
    /** Files in the generated repository. */
    public static final Parameter<Integer> REPO_FILES = Parameter.ofInt("files", 200, 1, 1_000_000, "files",
            "files in the generated repository's tree");
    /** Commits in the generated repository. */
    public static final Parameter<Integer> COMMITS = Parameter.ofInt("commits", 20, 1, 100_000, "commits",
            "commits in the generated repository");
    /** Clones per rank. */
    public static final Parameter<Integer> CLONES = Parameter.ofInt("clones", 3, 1, 10_000, "clones", "clones each rank makes");
    /** Warm status scans. */
    public static final Parameter<Integer> SCANS = Parameter.ofInt("scans", 5, 0, 100_000, "scans",
            "warm git status scans after the cold one");
    /** Drop the tree from the page cache before the cold scan. */
    public static final Parameter<Boolean> DROP_COLD = Parameter.ofBoolean("drop_cold", true,
            "drop the working tree's files from the page cache before the cold scan");

    /** How environments are made. */
    public enum EnvTool {
        /** uv when installed, else python -m venv with pip. */
        AUTO,
        /** python -m venv, then pip install --no-index from the staged wheels. */
        VENV,
        /** uv venv, then uv pip install --no-index (hard-links from its cache). */
        UV
    }

    /** The environment tool. */
    public static final Parameter<EnvTool> TOOL = Parameter.ofEnum("tool", EnvTool.class, EnvTool.AUTO,
            "auto (uv when installed, else venv), venv or uv; conda is not driven yet");
    /** The Python interpreter. */
    public static final Parameter<String> PYTHON = Parameter.ofString("python", "", "the Python interpreter (empty: python3 on PATH)");
    /** The uv executable. */
    public static final Parameter<String> UV = Parameter.ofString("uv", "", "the uv executable (empty: uv on PATH)");
    /** Packages installed into each environment. */
    public static final Parameter<Integer> PACKAGES = Parameter.ofInt("packages", 10, 1, 10_000, "packages",
            "packages (wheels PRISM stages in setup) installed into each environment");
    /** Modules per package. */
    public static final Parameter<Integer> MODULES = Parameter.ofInt("modules", 50, 1, 100_000, "files", "Python modules in each package");
    /** Environments per rank. */
    public static final Parameter<Integer> ENVIRONMENTS = Parameter.ofInt("environments", 1, 1, 1_000, "environments",
            "environments each rank creates");
    /** Activations per rank. */
    public static final Parameter<Integer> ACTIVATIONS = Parameter.ofInt("activations", 20, 1, 1_000_000, "activations",
            "times each rank activates its environment and imports a package");

    /** The tar executable. */
    public static final Parameter<String> TAR = Parameter.ofString("tar", "", "the tar executable (empty: tar on PATH)");
    /** Files in the archive. */
    public static final Parameter<Integer> TAR_FILES = Parameter.ofInt("files", 500, 1, 10_000_000, "files",
            "small files in the configuration archive");
    /** Extractions or creations per rank. */
    public static final Parameter<Integer> REPEATS = Parameter.ofInt("repeats", 3, 1, 100_000, "archives",
            "archives each rank extracts or creates");

    /** fio's access pattern. */
    public enum FioPattern {
        /** Sequential read. */ READ,
        /** Sequential write. */ WRITE,
        /** Random read. */ RANDREAD,
        /** Random write. */ RANDWRITE,
        /** Sequential mixed. */ RW,
        /** Random mixed. */ RANDRW
    }

    /** The fio executable. */
    public static final Parameter<String> FIO = Parameter.ofString("fio", "", "the fio executable (empty: fio on PATH)");
    /** fio --rw. */
    public static final Parameter<FioPattern> RW = Parameter.ofEnum("rw", FioPattern.class, FioPattern.RANDREAD, "fio --rw");
    /** fio --bs. */
    public static final Parameter<DataSize> BS = Parameter.ofSize("bs", DataSize.ofKiB(4), DataSize.ofBytes(512),
            DataSize.ofGiB(1), "fio --bs");
    /** fio --size. */
    public static final Parameter<DataSize> SIZE = Parameter.ofSize("size", DataSize.ofMiB(64), DataSize.ofKiB(4),
            DataSize.ofGiB(1L << 20), "fio --size (per job)");
    /** fio --iodepth. */
    public static final Parameter<Integer> IODEPTH = Parameter.ofInt("iodepth", 1, 1, 4096, null, "fio --iodepth");
    /** fio --direct. */
    public static final Parameter<Boolean> DIRECT = Parameter.ofBoolean("direct", false, "fio --direct (O_DIRECT)");
    /** fio --numjobs. */
    public static final Parameter<Integer> NUMJOBS = Parameter.ofInt("numjobs", 1, 1, 1024, "jobs", "fio --numjobs");
    /** fio --ioengine. */
    public static final Parameter<String> IOENGINE = Parameter.ofString("ioengine", "psync", "fio --ioengine");

    /** Attribution of the programs' file system calls ({@link SyscallTracing}): off, auto or kernel */
    public static final Parameter<SyscallTracing> SYSCALLS = SyscallTracing.KERNEL_PARAMETER;

    /** git_clone's parameters. */
    public static final List<Parameter<?>> GIT_CLONE_PARAMETERS = List.of(GIT, SOURCE, REPO_FILES, COMMITS, CLONES, SYSCALLS);
    /** git_status's parameters. */
    public static final List<Parameter<?>> GIT_STATUS_PARAMETERS = List.of(GIT, SOURCE, REPO_FILES, COMMITS, SCANS, DROP_COLD, SYSCALLS);
    /** env_create's parameters. */
    public static final List<Parameter<?>> ENV_CREATE_PARAMETERS = List.of(TOOL, PYTHON, UV, PACKAGES, MODULES, ENVIRONMENTS, SYSCALLS);
    /** env_activate's parameters. */
    public static final List<Parameter<?>> ENV_ACTIVATE_PARAMETERS = List.of(TOOL, PYTHON, UV, ACTIVATIONS, SYSCALLS);
    /** tar_extract's and tar_create's parameters. */
    public static final List<Parameter<?>> TAR_PARAMETERS = List.of(TAR, TAR_FILES, REPEATS, SYSCALLS);
    /** fio's parameters. */
    public static final List<Parameter<?>> FIO_PARAMETERS = List.of(FIO, RW, BS, SIZE, IODEPTH, DIRECT, NUMJOBS, IOENGINE, SYSCALLS);

    private DevWorkflows() {
    }

    /** @return {@code git_clone}: clone a generated repository (200 files, 20 commits) 3 times per rank */
    public static WorkflowBenchmark gitClone() {
        return new WorkflowBenchmark("git_clone", "clone a repository N times per rank (generated in setup unless"
                + " a source is given)", Parameters.defaults(GIT_CLONE_PARAMETERS), p -> new GitWorkloads.Clone(
                p.get(GIT), p.get(SOURCE), p.get(REPO_FILES), p.get(COMMITS), p.get(CLONES)));
    }

    /** @return {@code git_status}: a cold status after dropping the tree from the page cache, then 5 warm ones */
    public static WorkflowBenchmark gitStatus() {
        return new WorkflowBenchmark("git_status", "git status of a cloned working tree: the cold scan after a page-cache"
                + " drop, then warm scans", Parameters.defaults(GIT_STATUS_PARAMETERS),
                p -> new GitWorkloads.Status(p.get(GIT), p.get(SOURCE), p.get(REPO_FILES), p.get(COMMITS), p.get(SCANS),
                        p.get(DROP_COLD)));
    }

    /** @return {@code env_create}: a venv (or uv) environment with 10 staged packages per rank */
    public static WorkflowBenchmark envCreate() {
        return new WorkflowBenchmark("env_create", "create a Python environment and install packages offline"
                + " (uv when installed, else venv + pip)", Parameters.defaults(ENV_CREATE_PARAMETERS),
                p -> new EnvWorkloads.Create(p.get(TOOL).name().toLowerCase(Locale.ROOT), p.get(PYTHON), p.get(UV),
                        p.get(PACKAGES), p.get(MODULES), p.get(ENVIRONMENTS)));
    }

    /** @return {@code env_activate}: activate an environment and import a package, 20 times per rank */
    public static WorkflowBenchmark envActivate() {
        return new WorkflowBenchmark("env_activate", "a shell activates an environment and imports a package, timed"
                + " end to end, many times", Parameters.defaults(ENV_ACTIVATE_PARAMETERS),
                p -> new EnvWorkloads.Activate(p.get(TOOL).name().toLowerCase(Locale.ROOT), p.get(PYTHON), p.get(UV),
                        p.get(ACTIVATIONS)));
    }

    /** @return {@code tar_extract}: extract an archive of 500 small files 3 times per rank */
    public static WorkflowBenchmark tarExtract() {
        return new WorkflowBenchmark("tar_extract", "extract a configuration archive of many small files into the target",
                Parameters.defaults(TAR_PARAMETERS), p -> new ToolWorkloads.Tar(true, p.get(TAR), p.get(TAR_FILES), p.get(REPEATS)));
    }

    /** @return {@code tar_create}: archive a tree of 500 small files 3 times per rank */
    public static WorkflowBenchmark tarCreate() {
        return new WorkflowBenchmark("tar_create", "create an archive from a tree of many small files on the target",
                Parameters.defaults(TAR_PARAMETERS), p -> new ToolWorkloads.Tar(false, p.get(TAR), p.get(TAR_FILES), p.get(REPEATS)));
    }

    /** @return {@code fio}: 64MiB of 4KiB random reads per rank with psync */
    public static WorkflowBenchmark fio() {
        return new WorkflowBenchmark("fio", "run fio on the target and map its latency percentiles, bandwidth and IOPS",
                Parameters.defaults(FIO_PARAMETERS), p -> new ToolWorkloads.Fio(p.get(FIO), List.of(
                "--rw=" + p.get(RW).name().toLowerCase(Locale.ROOT), "--bs=" + p.get(BS).bytes(),
                "--size=" + p.get(SIZE).bytes(), "--iodepth=" + p.get(IODEPTH), "--direct=" + (p.get(DIRECT) ? 1 : 0),
                "--numjobs=" + p.get(NUMJOBS), "--ioengine=" + p.get(IOENGINE), "--group_reporting=0")));
    }
}
