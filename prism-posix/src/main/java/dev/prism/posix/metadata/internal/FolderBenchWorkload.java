package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One rank of {@code folder_bench}: build a tree of depth × breadth (× files per leaf), walk it, remove it. */
public final class FolderBenchWorkload implements Workload {
    private final Access access;
    private final int depth;
    private final int breadth;
    private final int filesPerLeaf;
    private final long fileSize;
    private FileAccess fileAccess;
    private ByteBuffer block;
    private long walkedEntries;
    private long expectedEntries;

    public FolderBenchWorkload(Access access, int depth, int breadth, int filesPerLeaf, long fileSize) {
        this.access = access;
        this.depth = depth;
        this.breadth = breadth;
        this.filesPerLeaf = filesPerLeaf;
        this.fileSize = fileSize;
    }

    /** @return b + b² + … + b^depth, or Long.MAX_VALUE when that overflows */
    public static long directories(int depth, int breadth) {
        long total = 0;
        long level = 1;
        for (int d = 0; d < depth; d++) {
            level = FileWork.product(level, breadth, 1);
            total += level;
            if (total < 0 || level == Long.MAX_VALUE) {
                return Long.MAX_VALUE;
            }
        }
        return total;
    }

    /** @return b^depth: the leaves */
    public static long leaves(int depth, int breadth) {
        long level = 1;
        for (int d = 0; d < depth; d++) {
            level = FileWork.product(level, breadth, 1);
        }
        return level;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        FileWork.requireSpace(ctx.workDirectory(), FileWork.product(leaves(depth, breadth), filesPerLeaf, ctx.worldSize()),
                fileSize, "breadth^depth × files_per_leaf × file_size × tasks");
        fileAccess = access.newFileAccess(ctx);
        block = FileWork.blockFor(fileSize);
        expectedEntries = directories(depth, breadth) + leaves(depth, breadth) * filesPerLeaf;
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // the same cycle on small trees of its own: at most 2 levels of 4, 4 files per leaf
        int d = Math.min(depth, 2);
        int b = Math.min(breadth, 4);
        int f = Math.min(filesPerLeaf, 4);
        long dirs = directories(d, b);
        long files = leaves(d, b) * f;
        // mkdir, readdir, stat and rmdir of each directory and the root; create, stat, unlink of each file
        long operationsPerTree = 4 * (dirs + 1) + 3 * files;
        // its files no bigger, and its trees no more, than a tenth of the timed tree's bytes allow (40 MiB..64 MiB)
        long timedBytes = dev.prism.posix.internal.FileWork.product(leaves(depth, breadth), filesPerLeaf, fileSize);
        long size = Rehearsal.fileSize(fileSize, files, timedBytes);
        int trees = Rehearsal.steps((int) Math.max(1, Rehearsal.ITERATIONS / operationsPerTree),
                dev.prism.posix.internal.FileWork.product(files, size, 1), timedBytes);
        Rehearsal.inScratchDirectory(ctx, scratch -> Rehearsal.repeat(ctx, trees,
                (int) Math.min(Integer.MAX_VALUE, operationsPerTree), i -> buildWalkAndRemove(ctx, scratch.resolve("tree-" + i), d, b, f, size)));
    }

    @Override
    public void run(WorkloadContext ctx) {
        walkedEntries = buildWalkAndRemove(ctx, ctx.workDirectory().resolve("tree"), depth, breadth, filesPerLeaf, fileSize);
    }

    /**
     * The timed work: mkdir the tree breadth-first, create its files, walk it, then unlink the files
     * and rmdir the directories deepest first. @return the entries the walk saw
     */
    private long buildWalkAndRemove(WorkloadContext ctx, Path root, int depth, int breadth, int filesPerLeaf, long fileSize) {
        ctx.measure("mkdir", root, () -> fileAccess.mkdir(root));
        List<Path> directories = new ArrayList<>();
        List<Path> level = List.of(root);
        for (int d = 0; d < depth; d++) {
            List<Path> next = new ArrayList<>();
            for (Path parent : level) {
                for (int b = 0; b < breadth; b++) {
                    Path dir = parent.resolve("d" + b);
                    ctx.measure("mkdir", dir, () -> fileAccess.mkdir(dir));
                    next.add(dir);
                }
            }
            directories.addAll(next);
            level = next;
        }
        List<Path> files = new ArrayList<>();
        for (Path leaf : level) {
            for (int f = 0; f < filesPerLeaf; f++) {
                Path file = leaf.resolve("f" + f + ".dat");
                ctx.measure("create", file, () -> FileWork.populate(fileAccess, file, block, fileSize));
                ctx.addBytes("create", fileSize);
                files.add(file);
            }
        }
        long walked = walk(ctx, root);
        for (Path file : files) {
            ctx.measure("unlink", file, () -> fileAccess.unlink(file));
        }
        for (int i = directories.size() - 1; i >= 0; i--) {
            Path dir = directories.get(i);
            ctx.measure("rmdir", dir, () -> fileAccess.rmdir(dir));
        }
        ctx.measure("rmdir", root, () -> fileAccess.rmdir(root));
        return walked;
    }

    /** readdir of every directory and stat of every entry, depth first; @return entries seen */
    private long walk(WorkloadContext ctx, Path directory) {
        List<String> names = ctx.call("readdir", directory, () -> fileAccess.list(directory));
        long seen = 0;
        for (String name : names) {
            Path entry = directory.resolve(name);
            boolean isDirectory = ctx.call("stat", entry, () -> fileAccess.stat(entry).isDirectory());
            seen++;
            if (isDirectory) {
                seen += walk(ctx, entry);
            }
        }
        return seen;
    }

    @Override
    public void validate(WorkloadContext ctx) {
        if (walkedEntries != expectedEntries) {
            throw new ValidationException("the walk saw " + walkedEntries + " entries, the tree has " + expectedEntries);
        }
    }
}
