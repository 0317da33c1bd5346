package dev.prism.posix;

import dev.prism.Parameters;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.CreateSyntheticWorkload;
import dev.prism.posix.data.Md5Check;
import dev.prism.posix.metadata.CreateFiles;
import dev.prism.posix.metadata.DeleteFiles;
import dev.prism.posix.metadata.FolderBench;
import dev.prism.posix.metadata.ListFiles;
import dev.prism.posix.metadata.MoveFiles;
import dev.prism.posix.metadata.OpenContention;
import dev.prism.posix.workflows.LinkLock;

/**
 * Typed factories for the POSIX benchmarks, each starting from its defaults (NATIVE access).
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.createFiles().files(5000).fileSize(DataSize.ofKiB(4));
 * }</pre>
 */
public final class PosixBenchmarks {
    private PosixBenchmarks() {
    }

    /** @return {@code create_files}: 1000 files of 4KiB per rank, per-rank directories */
    public static CreateFiles createFiles() {
        return CreateFiles.of(Parameters.none());
    }

    /** @return {@code list_files}: readdir + stat of 1000 files per rank */
    public static ListFiles listFiles() {
        return ListFiles.of(Parameters.none());
    }

    /** @return {@code move_files}: rename 1000 files per rank */
    public static MoveFiles moveFiles() {
        return MoveFiles.of(Parameters.none());
    }

    /** @return {@code delete_files}: unlink 1000 files per rank */
    public static DeleteFiles deleteFiles() {
        return DeleteFiles.of(Parameters.none());
    }

    /** @return {@code folder_bench}: a tree of depth 3 × breadth 4 per rank */
    public static FolderBench folderBench() {
        return FolderBench.of(Parameters.none());
    }

    /** @return {@code open_contention}: 1000 opens per rank of one shared 4KiB file */
    public static OpenContention openContention() {
        return OpenContention.of(Parameters.none());
    }

    /** @return {@code link_lock}: 20 packages × 50 files linked per rank under a shared lock */
    public static LinkLock linkLock() {
        return LinkLock.of(Parameters.none());
    }

    /** @return {@code create_dataset}: classes 8KiB…1GiB, 4 files each, up to 1GiB, 16 shards */
    public static CreateDataset createDataset() {
        return CreateDataset.of(Parameters.none());
    }

    /** @return {@code md5_check}: generates the default dataset, reads it sequentially in 1MiB chunks, page cache kept */
    public static Md5Check md5Check() {
        return new Md5Check(Parameters.defaults(Md5Check.PARAMETERS));
    }

    /** @return {@code create_synthetic_workload}: 200 files per rank, Poisson at 200/s, lognormal sizes around 64KiB */
    public static CreateSyntheticWorkload createSyntheticWorkload() {
        return CreateSyntheticWorkload.of(Parameters.none());
    }
}
