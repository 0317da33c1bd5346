package dev.prism.posix.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;

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
        fileAccess = access.newFileAccess();
        cache = ctx.sharedDirectory().resolve("pkgs");
        lockFile = ctx.sharedDirectory().resolve("pkgs.lock");
        environment = ctx.workDirectory().resolve("env");
        record = FileWork.blockOf(RECORD_SIZE);
        if (ctx.rank() == 0) {
            FileWork.requireSpace(ctx.sharedDirectory(), FileWork.product(packages, filesPerPackage, fileSize),
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
    public void run(WorkloadContext ctx) {
        fileAccess.mkdir(environment);
        Path meta = environment.resolve("conda-meta");
        fileAccess.mkdir(meta);
        try (FileAccess.OpenFile lock = fileAccess.openReadWrite(lockFile)) {
            for (int p = 0; p < packages; p++) {
                Path source = cache.resolve("pkg-" + p);
                Path target = environment.resolve("pkg-" + p);
                try (var t = ctx.time("mkdir", target)) {
                    fileAccess.mkdir(target);
                }
                for (int f = 0; f < filesPerPackage; f++) {
                    Path link = target.resolve("file-" + f + ".py");
                    try (var t = ctx.time("link", link)) {
                        fileAccess.link(source.resolve("file-" + f + ".py"), link);
                    }
                }
                try (var t = ctx.time("lock", lockFile)) {
                    lock.lock(true);
                }
                try {
                    Path entry = meta.resolve("pkg-" + p + ".json");
                    try (var t = ctx.time("record", entry); FileAccess.OpenFile out = fileAccess.create(entry)) {
                        record.clear();
                        FileWork.writeFully(out, record, RECORD_SIZE);
                    }
                    ctx.addBytes("record", RECORD_SIZE);
                } finally {
                    try (var t = ctx.time("unlock", lockFile)) {
                        lock.unlock();
                    }
                }
            }
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        for (int p = 0; p < packages; p++) {
            Path linked = environment.resolve("pkg-" + p).resolve("file-0.py");
            long links = fileAccess.stat(linked).links();
            // the cache's file plus one link per rank, all made before the barrier that precedes validate
            if (links != ctx.worldSize() + 1L) {
                throw new ValidationException(linked + ": " + links + " hard links, expected " + (ctx.worldSize() + 1));
            }
        }
    }
}
