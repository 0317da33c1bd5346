package dev.prism.posix.internal;

import dev.prism.DataSize;
import dev.prism.Benchmark;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.workflows.DevWorkflows;
import dev.prism.posix.workflows.WorkflowBenchmark;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.posix.data.CreateSyntheticWorkload;
import dev.prism.posix.data.DatasetLayout;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.FileOrder;
import dev.prism.posix.data.Md5Check;
import dev.prism.posix.PageCache;
import dev.prism.posix.metadata.DeleteFiles;
import dev.prism.posix.metadata.DirectoryLayout;
import dev.prism.posix.metadata.FolderBench;
import dev.prism.posix.workflows.LinkLock;
import dev.prism.posix.metadata.ListFiles;
import dev.prism.posix.metadata.MoveFiles;
import dev.prism.posix.metadata.OpenContention;
import dev.prism.posix.PosixBenchmarks;

import java.util.List;

/** The POSIX benchmarks' providers, listed in META-INF/services/dev.prism.BenchmarkProvider. */
public final class Providers {
    private Providers() {
    }

    /** create_files */
    public static final class CreateFilesProvider extends PosixProvider {
        public CreateFilesProvider() {
            super(PosixBenchmarks.createFiles(), CreateFiles.PARAMETERS, CreateFiles::of, () -> {
                CreateFiles small = PosixBenchmarks.createFiles().files(300).fileSize(DataSize.ofKiB(4));
                return List.of(small, small.directory(DirectoryLayout.SHARED));
            });
        }
    }

    /** list_files */
    public static final class ListFilesProvider extends PosixProvider {
        public ListFilesProvider() {
            super(PosixBenchmarks.listFiles(), ListFiles.PARAMETERS, ListFiles::of,
                    () -> List.of(PosixBenchmarks.listFiles().files(300)));
        }
    }

    /** move_files */
    public static final class MoveFilesProvider extends PosixProvider {
        public MoveFilesProvider() {
            super(PosixBenchmarks.moveFiles(), MoveFiles.PARAMETERS, MoveFiles::of,
                    () -> List.of(PosixBenchmarks.moveFiles().files(300)));
        }
    }

    /** delete_files */
    public static final class DeleteFilesProvider extends PosixProvider {
        public DeleteFilesProvider() {
            super(PosixBenchmarks.deleteFiles(), DeleteFiles.PARAMETERS, DeleteFiles::of,
                    () -> List.of(PosixBenchmarks.deleteFiles().files(300)));
        }
    }

    /** folder_bench */
    public static final class FolderBenchProvider extends PosixProvider {
        public FolderBenchProvider() {
            super(PosixBenchmarks.folderBench(), FolderBench.PARAMETERS, FolderBench::of,
                    () -> List.of(PosixBenchmarks.folderBench().depth(3).breadth(4).filesPerLeaf(2)));
        }
    }

    /** open_contention */
    public static final class OpenContentionProvider extends PosixProvider {
        public OpenContentionProvider() {
            super(PosixBenchmarks.openContention(), OpenContention.PARAMETERS, OpenContention::of,
                    () -> List.of(PosixBenchmarks.openContention().opens(500)));
        }
    }

    /** link_lock */
    public static final class LinkLockProvider extends PosixProvider {
        public LinkLockProvider() {
            super(PosixBenchmarks.linkLock(), LinkLock.PARAMETERS, LinkLock::of,
                    () -> List.of(PosixBenchmarks.linkLock().packages(10).filesPerPackage(20)));
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
            super(PosixBenchmarks.createDataset(), CreateDataset.PARAMETERS, CreateDataset::of, () -> {
                DatasetSpec quick = quickDataset();
                return List.of(PosixBenchmarks.createDataset().sizeClasses(quick.sizeClasses())
                        .filesPerClass(quick.filesPerClass()).totalSize(quick.totalSize()).shards(quick.shards()));
            });
        }
    }

    /** md5_check */
    public static final class Md5CheckProvider extends PosixProvider {
        public Md5CheckProvider() {
            super(PosixBenchmarks.md5Check(), Md5Check.PARAMETERS, Md5Check::of, () -> {
                Md5Check quick = PosixBenchmarks.md5Check().generate(quickDataset()).chunkSize(DataSize.ofKiB(32));
                return List.of(quick, quick.order(FileOrder.RANDOM).cache(PageCache.DROP));
            });
        }
    }

    /** create_synthetic_workload */
    public static final class CreateSyntheticWorkloadProvider extends PosixProvider {
        public CreateSyntheticWorkloadProvider() {
            super(PosixBenchmarks.createSyntheticWorkload(), CreateSyntheticWorkload.PARAMETERS, CreateSyntheticWorkload::of,
                    () -> List.of(PosixBenchmarks.createSyntheticWorkload().files(100).rate(1000)
                            .fileSize(DataSize.ofKiB(16)).sizeBounds(DataSize.ofBytes(1), DataSize.ofMiB(1))));
        }
    }

    /** A provider for one development-workflow benchmark. */
    abstract static class WorkflowProvider extends PosixProvider {
        WorkflowProvider(WorkflowBenchmark defaults, List<dev.prism.Parameter<?>> parameters, List<Benchmark> quick) {
            super(defaults, parameters, p -> defaults.withText(p.asText()), () -> quick);
        }
    }

    /** git_clone */
    public static final class GitCloneProvider extends WorkflowProvider {
        public GitCloneProvider() {
            super(DevWorkflows.gitClone(), DevWorkflows.GIT_CLONE_PARAMETERS, List.of(DevWorkflows.gitClone()
                    .with(DevWorkflows.REPO_FILES, 100).with(DevWorkflows.COMMITS, 5).with(DevWorkflows.CLONES, 2)));
        }
    }

    /** git_status */
    public static final class GitStatusProvider extends WorkflowProvider {
        public GitStatusProvider() {
            super(DevWorkflows.gitStatus(), DevWorkflows.GIT_STATUS_PARAMETERS, List.of(DevWorkflows.gitStatus()
                    .with(DevWorkflows.REPO_FILES, 200).with(DevWorkflows.COMMITS, 3).with(DevWorkflows.SCANS, 3)));
        }
    }

    /** env_create (needs Python: not in the quick suite) */
    public static final class EnvCreateProvider extends WorkflowProvider {
        public EnvCreateProvider() {
            super(DevWorkflows.envCreate(), DevWorkflows.ENV_CREATE_PARAMETERS, List.of());
        }
    }

    /** env_activate (needs Python: not in the quick suite) */
    public static final class EnvActivateProvider extends WorkflowProvider {
        public EnvActivateProvider() {
            super(DevWorkflows.envActivate(), DevWorkflows.ENV_ACTIVATE_PARAMETERS, List.of());
        }
    }

    /** tar_extract */
    public static final class TarExtractProvider extends WorkflowProvider {
        public TarExtractProvider() {
            super(DevWorkflows.tarExtract(), DevWorkflows.TAR_PARAMETERS, List.of(DevWorkflows.tarExtract()
                    .with(DevWorkflows.TAR_FILES, 200).with(DevWorkflows.REPEATS, 2)));
        }
    }

    /** tar_create */
    public static final class TarCreateProvider extends WorkflowProvider {
        public TarCreateProvider() {
            super(DevWorkflows.tarCreate(), DevWorkflows.TAR_PARAMETERS, List.of(DevWorkflows.tarCreate()
                    .with(DevWorkflows.TAR_FILES, 200).with(DevWorkflows.REPEATS, 2)));
        }
    }

    /** fio (needs fio: not in the quick suite) */
    public static final class FioProvider extends WorkflowProvider {
        public FioProvider() {
            super(DevWorkflows.fio(), DevWorkflows.FIO_PARAMETERS, List.of());
        }
    }
}
