package dev.prism.posix.workflows.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * One rank of {@code link_lock}: what conda and uv do with a package cache. Rank 0 fills the cache
 * in setup; every rank then hard-links each package into its own environment and, under an
 * exclusive lock on the cache's lock file shared by all ranks, writes the package's record.
 */
public final class LinkLockWorkload implements Workload {
    private static final int RECORD_SIZE = 256;

    private final Access access;
    private final int packages;
    private final int filesPerPackage;
    private final long fileSize;
    private FileAccess fileAccess;
    private Path cache;
    private Path lockFile;
    private Path environment;
    private ByteBuffer record;

    public LinkLockWorkload(Access access, int packages, int filesPerPackage, long fileSize) {
        this.access = access;
        this.packages = packages;
        this.filesPerPackage = filesPerPackage;
        this.fileSize = fileSize;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        fileAccess = access.newFileAccess(ctx);
        cache = ctx.sharedDirectory().resolve("pkgs");
        lockFile = ctx.sharedDirectory().resolve("pkgs.lock");
        environment = ctx.workDirectory().resolve("env");
        record = FileWork.blockOf(RECORD_SIZE);
        if (ctx.rank() == 0) {
            FileWork.requireSpace(ctx.sharedDirectory(), FileWork.product(packages, filesPerPackage, 1), fileSize,
                    "packages × files_per_package × file_size");
            ByteBuffer block = FileWork.blockFor(fileSize);
            fileAccess.mkdir(cache);
            for (int p = 0; p < packages; p++) {
                Path pkg = cache.resolve("pkg-" + p);
                fileAccess.mkdir(pkg);
                for (int f = 0; f < filesPerPackage; f++) {
                    FileWork.populate(fileAccess, pkg.resolve("file-" + f + ".py"), block, fileSize);
                }
            }
            fileAccess.openReadWrite(lockFile).close();
        }
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // its own package cache, lock and environment: the timed phase's files stay untouched
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            Path source = scratch.resolve("pkg");
            fileAccess.mkdir(source);
            // links do not read content: its files fit the rehearsal's byte budget
            long size = Rehearsal.fileSize(fileSize, filesPerPackage, FileWork.product(packages, filesPerPackage, fileSize));
            ByteBuffer block = FileWork.blockFor(size);
            for (int f = 0; f < filesPerPackage; f++) {
                FileWork.populate(fileAccess, source.resolve("file-" + f + ".py"), block, size);
            }
            Path meta = scratch.resolve("conda-meta");
            fileAccess.mkdir(meta);
            Path lockPath = scratch.resolve("pkgs.lock");
            try (FileAccess.OpenFile lock = fileAccess.openReadWrite(lockPath)) {
                Rehearsal.repeat(ctx, Math.max(1, Rehearsal.ITERATIONS / (filesPerPackage + 4)), filesPerPackage + 4,
                        i -> installPackage(ctx, lock, lockPath, source, scratch.resolve("env-" + i), meta, i));
            }
        });
    }

    @Override
    public void run(WorkloadContext ctx) {
        fileAccess.mkdir(environment);
        Path meta = environment.resolve("conda-meta");
        fileAccess.mkdir(meta);
        try (FileAccess.OpenFile lock = fileAccess.openReadWrite(lockFile)) {
            for (int p = 0; p < packages; p++) {
                installPackage(ctx, lock, lockFile, cache.resolve("pkg-" + p), environment.resolve("pkg-" + p), meta, p);
            }
        }
    }

    /** The timed work for one package: mkdir, a hard link per file, then its record written under the lock. */
    private void installPackage(WorkloadContext ctx, FileAccess.OpenFile lock, Path lockPath, Path source, Path target,
                                Path meta, int p) {
        ctx.measure("mkdir", target, () -> fileAccess.mkdir(target));
        for (int f = 0; f < filesPerPackage; f++) {
            Path link = target.resolve("file-" + f + ".py");
            Path existing = source.resolve("file-" + f + ".py");
            ctx.measure("link", link, () -> fileAccess.link(existing, link));
        }
        ctx.measure("lock", lockPath, () -> lock.lock(true));
        try {
            Path entry = meta.resolve("pkg-" + p + ".json");
            ctx.measure("record", entry, () -> {
                try (FileAccess.OpenFile out = fileAccess.create(entry)) {
                    record.clear();
                    FileWork.writeFully(out, record, RECORD_SIZE);
                }
            });
            ctx.addBytes("record", RECORD_SIZE);
        } finally {
            ctx.measure("unlock", lockPath, lock::unlock);
        }
    }

    @Override
    public void validate(WorkloadContext ctx) throws IOException {
        // A link is what a hard link means: the same file under two names. Where the filesystem reports its inode
        // numbers, the same inode as the cache's file says so (a hard link cannot leave its filesystem, so the device
        // is the same by construction). FUSE mounts and some NFS set-ups make inode numbers up per name (sshfs without
        // -o use_ino): there a byte written through the link must be read back through the cache's name. The link
        // count is only noted: NFS (actimeo) and FUSE may serve it from an attribute cache, stale but legitimate.
        long staleCounts = 0;
        long unreportedInodes = 0;
        for (int p = 0; p < packages; p++) {
            Path linked = environment.resolve("pkg-" + p).resolve("file-0.py");
            Path original = cache.resolve("pkg-" + p).resolve("file-0.py");
            FileStat link = fileAccess.stat(linked);
            FileStat source = fileAccess.stat(original);
            if (link.inode() != source.inode()) {
                unreportedInodes++;
                LinkCheck.requireSameFile(ctx, linked, original);
            }
            // the cache's file plus one link per rank, all made before the barrier that precedes validate
            if (link.links() < ctx.worldSize() + 1L) {
                staleCounts++;
            }
        }
        if (staleCounts > 0) {
            ctx.note("stale_link_counts", staleCounts + " of " + packages + " linked files showed fewer than "
                    + (ctx.worldSize() + 1) + " links (an attribute cache, as NFS actimeo or FUSE keep)");
        }
        if (unreportedInodes > 0) {
            ctx.note("inode_numbers", "the filesystem gives a link and its file different inode numbers (" + unreportedInodes
                    + " of " + packages + "; sshfs without -o use_ino does): each was checked as a hard link by a byte"
                    + " written through the link and read back through the cache's name");
        }
    }
}
