package dev.prism.posix.internal;

import dev.prism.Benchmark;
import dev.prism.DataSize;
import dev.prism.Suite;
import dev.prism.posix.Access;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmarks;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.CreateSyntheticWorkload;
import dev.prism.posix.data.DatasetLayout;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.FileOrder;
import dev.prism.posix.data.Md5Check;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.posix.metadata.DeleteFiles;
import dev.prism.posix.metadata.DirectoryLayout;
import dev.prism.posix.metadata.FolderBench;
import dev.prism.posix.metadata.ListFiles;
import dev.prism.posix.metadata.MoveFiles;
import dev.prism.posix.metadata.OpenContention;
import dev.prism.posix.workflows.DevWorkflows;
import dev.prism.posix.workflows.LinkLock;
import dev.prism.posix.workflows.WorkflowBenchmark;

import java.util.List;
import java.util.function.Function;

/** The POSIX benchmarks' providers, listed in META-INF/services/dev.prism.BenchmarkProvider. */
public final class Providers {
    private Providers() {
    }

    /** create_files */
    public static final class CreateFilesProvider extends PosixProvider {
        public CreateFilesProvider() {
            super(PosixBenchmarks.createFiles(), CreateFiles.PARAMETERS, CreateFiles::of, suite -> {
                CreateFiles sized = PosixBenchmarks.createFiles().files(files(suite, 300, 5_000, 10_000)).fileSize(DataSize.ofKiB(4));
                return withInterfaces(suite, List.of(sized, sized.directory(DirectoryLayout.SHARED)),
                        a -> PosixBenchmarks.createFiles().files(5_000).fileSize(DataSize.ofKiB(4)).access(a));
            });
        }
    }

    /** list_files */
    public static final class ListFilesProvider extends PosixProvider {
        public ListFilesProvider() {
            super(PosixBenchmarks.listFiles(), ListFiles.PARAMETERS, ListFiles::of,
                    suite -> withInterfaces(suite, List.of(PosixBenchmarks.listFiles().files(files(suite, 300, 5_000, 10_000))),
                            a -> PosixBenchmarks.listFiles().files(5_000).access(a)));
        }
    }

    /** move_files */
    public static final class MoveFilesProvider extends PosixProvider {
        public MoveFilesProvider() {
            super(PosixBenchmarks.moveFiles(), MoveFiles.PARAMETERS, MoveFiles::of,
                    suite -> withInterfaces(suite, List.of(PosixBenchmarks.moveFiles().files(files(suite, 300, 5_000, 10_000))),
                            a -> PosixBenchmarks.moveFiles().files(5_000).access(a)));
        }
    }

    /** delete_files */
    public static final class DeleteFilesProvider extends PosixProvider {
        public DeleteFilesProvider() {
            super(PosixBenchmarks.deleteFiles(), DeleteFiles.PARAMETERS, DeleteFiles::of,
                    suite -> withInterfaces(suite, List.of(PosixBenchmarks.deleteFiles().files(files(suite, 300, 5_000, 10_000))),
                            a -> PosixBenchmarks.deleteFiles().files(5_000).access(a)));
        }
    }

    /**
     * @return {@code configurations}, and in the paper suite its §4.4 comparison of interfaces (Figure 9): the benchmark
     *         at 5,000 files through libc, Python's os and fsspec, for {@code compare --pair-ignoring access}
     */
    static List<Benchmark> withInterfaces(Suite suite, List<? extends Benchmark> configurations,
                                          Function<Access, Benchmark> atFiveThousand) {
        List<Benchmark> all = new java.util.ArrayList<>(configurations);
        if (suite == Suite.PAPER) {
            for (Access access : List.of(Access.NATIVE, Access.PYTHON, Access.FSSPEC)) {
                all.add(atFiveThousand.apply(access));
            }
        }
        return all;
    }

    /** folder_bench */
    public static final class FolderBenchProvider extends PosixProvider {
        public FolderBenchProvider() {
            super(PosixBenchmarks.folderBench(), FolderBench.PARAMETERS, FolderBench::of,
                    suite -> List.of(suite == Suite.QUICK ? PosixBenchmarks.folderBench().depth(3).breadth(4).filesPerLeaf(2)
                            : PosixBenchmarks.folderBench().depth(4).breadth(6).filesPerLeaf(4)));
        }
    }

    /** open_contention */
    public static final class OpenContentionProvider extends PosixProvider {
        public OpenContentionProvider() {
            super(PosixBenchmarks.openContention(), OpenContention.PARAMETERS, OpenContention::of,
                    suite -> switch (suite) {
                        case QUICK -> List.of(PosixBenchmarks.openContention().opens(500));
                        case STANDARD -> List.of(PosixBenchmarks.openContention().opens(10_000));
                        case PAPER, FRONTIER -> List.of();   // not in the paper's Table 3
                    });
        }
    }

    /** link_lock */
    public static final class LinkLockProvider extends PosixProvider {
        public LinkLockProvider() {
            super(PosixBenchmarks.linkLock(), LinkLock.PARAMETERS, LinkLock::of,
                    suite -> switch (suite) {
                        case QUICK -> List.of(PosixBenchmarks.linkLock().packages(10).filesPerPackage(20));
                        case STANDARD -> List.of(PosixBenchmarks.linkLock().packages(50).filesPerPackage(100));
                        case PAPER, FRONTIER -> List.of();
                    });
        }
    }

    /** The small dataset the quick suite writes and reads: 8KiB, 64KiB and 1MiB files, 8MiB at most. */
    public static DatasetSpec quickDataset() {
        return new DatasetSpec(List.of(DataSize.ofKiB(8), DataSize.ofKiB(64), DataSize.ofMiB(1)), 6, DataSize.ofMiB(8),
                DatasetLayout.SHARDED, 4, 42);
    }

    /** create_dataset */
    public static final class CreateDatasetProvider extends PosixProvider {
        public CreateDatasetProvider() {
            super(PosixBenchmarks.createDataset(), CreateDataset.PARAMETERS, CreateDataset::of, suite -> {
                if (suite != Suite.QUICK) {
                    // the paper's 8 KB to 1 GB files, 2 GiB in all
                    return List.of(PosixBenchmarks.createDataset());
                }
                DatasetSpec quick = quickDataset();
                return List.of(PosixBenchmarks.createDataset().sizeClasses(quick.sizeClasses())
                        .filesPerClass(quick.filesPerClass()).totalSize(quick.totalSize()).shards(quick.shards()));
            });
        }
    }

    /** md5_check */
    public static final class Md5CheckProvider extends PosixProvider {
        public Md5CheckProvider() {
            super(PosixBenchmarks.md5Check(), Md5Check.PARAMETERS, Md5Check::of, suite -> switch (suite) {
                case QUICK -> {
                    Md5Check quick = PosixBenchmarks.md5Check().generate(quickDataset()).chunkSize(DataSize.ofKiB(32));
                    yield List.of(quick, quick.order(FileOrder.RANDOM).cache(PageCache.DROP));
                }
                case STANDARD -> {
                    Md5Check standard = PosixBenchmarks.md5Check();   // 8 KiB to 1 GiB files, 2 GiB
                    yield List.of(standard, standard.order(FileOrder.RANDOM).cache(PageCache.DROP));
                }
                case PAPER -> {
                    // §4.1.2's four variants over the paper's dataset (8 KB to 1 GB files): cached sequential reads in
                    // 8 KB chunks, uncached, uncached in random order, and that with 32 KB chunks
                    Md5Check cached = PosixBenchmarks.md5Check().chunkSize(DataSize.ofKiB(8)).order(FileOrder.SEQUENTIAL)
                            .cache(PageCache.KEEP);
                    Md5Check uncached = cached.cache(PageCache.DROP);
                    // §4.2.2: random reads over 800K files of 32 KiB, in one flat directory and sharded
                    Md5Check paper = PosixBenchmarks.md5Check().generate(paperDataset(DatasetLayout.FLAT))
                            .chunkSize(DataSize.ofKiB(32)).order(FileOrder.RANDOM).cache(PageCache.DROP);
                    // §4.4: the cached pass through Python's open and through fsspec beside libc's
                    yield List.of(cached, uncached, uncached.order(FileOrder.RANDOM),
                            uncached.order(FileOrder.RANDOM).chunkSize(DataSize.ofKiB(32)),
                            paper, paper.generate(paperDataset(DatasetLayout.SHARDED)),
                            cached.access(Access.PYTHON), cached.access(Access.FSSPEC));
                }
                case FRONTIER -> List.of();
            });
        }
    }

    /** The paper's data-loading dataset: 800K files of 32 KiB (24.4 GiB), flat or in 1,000 shards. */
    public static DatasetSpec paperDataset(DatasetLayout layout) {
        return new DatasetSpec(List.of(DataSize.ofKiB(32)), 800_000, DataSize.ofKiB(32L * 800_000), layout, 1_000, 42);
    }

    /** @return the file count of a metadata benchmark in {@code suite} */
    static int files(Suite suite, int quick, int standard, int paper) {
        return switch (suite) {
            case QUICK -> quick;
            case STANDARD -> standard;
            case PAPER, FRONTIER -> paper;
        };
    }

    /** create_synthetic_workload */
    public static final class CreateSyntheticWorkloadProvider extends PosixProvider {
        public CreateSyntheticWorkloadProvider() {
            super(PosixBenchmarks.createSyntheticWorkload(), CreateSyntheticWorkload.PARAMETERS, CreateSyntheticWorkload::of,
                    suite -> List.of(PosixBenchmarks.createSyntheticWorkload().files(files(suite, 100, 2_000, 2_000)).rate(1000)
                            .fileSize(DataSize.ofKiB(16)).sizeBounds(DataSize.ofBytes(1), DataSize.ofMiB(1))));
        }
    }

    /** A provider for one development-workflow benchmark. */
    abstract static class WorkflowProvider extends PosixProvider {
        WorkflowProvider(WorkflowBenchmark defaults, List<dev.prism.Parameter<?>> parameters,
                         java.util.function.Function<Suite, List<Benchmark>> suites, String program, String install) {
            super(defaults, parameters, p -> defaults.withText(p.asText()), suites, program, install);
        }
    }

    /** @return tar's configurations in {@code suite}: 200 files twice (quick), 5,000 files three times (standard), none (paper) */
    static List<Benchmark> tar(WorkflowBenchmark tar, Suite suite) {
        return switch (suite) {
            case QUICK -> List.of(tar.with(DevWorkflows.TAR_FILES, 200).with(DevWorkflows.REPEATS, 2));
            case STANDARD -> List.of(tar.with(DevWorkflows.TAR_FILES, 5_000).with(DevWorkflows.REPEATS, 3));
            case PAPER, FRONTIER -> List.of();
        };
    }

    /** git_clone */
    public static final class GitCloneProvider extends WorkflowProvider {
        public GitCloneProvider() {
            super(DevWorkflows.gitClone(), DevWorkflows.GIT_CLONE_PARAMETERS, suite -> List.of(suite == Suite.QUICK
                    ? DevWorkflows.gitClone().with(DevWorkflows.REPO_FILES, 100).with(DevWorkflows.COMMITS, 5).with(DevWorkflows.CLONES, 2)
                    : DevWorkflows.gitClone().with(DevWorkflows.REPO_FILES, 2_000).with(DevWorkflows.COMMITS, 20)
                    .with(DevWorkflows.CLONES, 3)), "git", "apt-get install git");
        }
    }

    /** git_status */
    public static final class GitStatusProvider extends WorkflowProvider {
        public GitStatusProvider() {
            super(DevWorkflows.gitStatus(), DevWorkflows.GIT_STATUS_PARAMETERS, suite -> switch (suite) {
                case QUICK -> List.of(DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, 200).with(DevWorkflows.COMMITS, 3)
                        .with(DevWorkflows.SCANS, 3));
                case STANDARD -> List.of(DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, 5_000)
                        .with(DevWorkflows.COMMITS, 5).with(DevWorkflows.SCANS, 5));
                // §4.1's git benchmarks: a status over the repository the clone benchmark clones
                case PAPER -> List.of(DevWorkflows.gitStatus().with(DevWorkflows.REPO_FILES, 2_000)
                        .with(DevWorkflows.COMMITS, 20).with(DevWorkflows.SCANS, 5));
                case FRONTIER -> List.of();
            }, "git", "apt-get install git");
        }
    }

    /** env_create (needs Python: in the standard and paper suites) */
    public static final class EnvCreateProvider extends WorkflowProvider {
        public EnvCreateProvider() {
            super(DevWorkflows.envCreate(), DevWorkflows.ENV_CREATE_PARAMETERS,
                    suite -> suite == Suite.STANDARD || suite == Suite.PAPER ? List.of(DevWorkflows.envCreate()) : List.of(),
                    "python3", "apt-get install python3 python3-venv");
        }
    }

    /** env_activate (needs Python: in the standard and paper suites) */
    public static final class EnvActivateProvider extends WorkflowProvider {
        public EnvActivateProvider() {
            super(DevWorkflows.envActivate(), DevWorkflows.ENV_ACTIVATE_PARAMETERS,
                    suite -> suite == Suite.STANDARD || suite == Suite.PAPER ? List.of(DevWorkflows.envActivate()) : List.of(),
                    "python3", "apt-get install python3 python3-venv");
        }
    }

    /** tar_extract */
    public static final class TarExtractProvider extends WorkflowProvider {
        public TarExtractProvider() {
            super(DevWorkflows.tarExtract(), DevWorkflows.TAR_PARAMETERS, suite -> tar(DevWorkflows.tarExtract(), suite),
                    "tar", "apt-get install tar");
        }
    }

    /** tar_create */
    public static final class TarCreateProvider extends WorkflowProvider {
        public TarCreateProvider() {
            super(DevWorkflows.tarCreate(), DevWorkflows.TAR_PARAMETERS, suite -> tar(DevWorkflows.tarCreate(), suite),
                    "tar", "apt-get install tar");
        }
    }

    /** fio (needs fio: in the standard suite only) */
    public static final class FioProvider extends WorkflowProvider {
        public FioProvider() {
            super(DevWorkflows.fio(), DevWorkflows.FIO_PARAMETERS,
                    suite -> suite == Suite.STANDARD ? List.of(DevWorkflows.fio()) : List.of(), "fio", "apt-get install fio");
        }
    }
}
