package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.FileStat;
import dev.prism.posix.Posix;
import dev.prism.posix.internal.EncodedNames;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.NativeCalls;
import dev.prism.posix.internal.NativeFileAccess;
import dev.prism.spi.HeldDirectory;
import dev.prism.posix.internal.PythonFileCalls;
import dev.prism.posix.internal.Rehearsal;
import java.util.Map;
import java.util.List;
import java.util.ArrayList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** One rank of {@code create_files}. */
public final class CreateFilesWorkload implements Workload {
    private final Access access;
    private final int files;
    private final long fileSize;
    private final int blockSize;
    private final boolean shared;
    private final boolean fsync;
    private final boolean dropCache;
    private FileAccess fileAccess;
    private ByteBuffer block;
    private Path directory;
    /** The worker whose Python calls are timed, for access=python and fsspec; else null */
    private PythonFileCalls python;
    /**
     * The timed path through libc: the directory held by descriptor, and one reused native slot each file's name is
     * encoded into before its clock starts (hot in the cache when the kernel reads it, as a C loop's is); null: by path
     */
    private NativeFileAccess fast;
    private HeldDirectory held;
    private EncodedNames slot;

    public CreateFilesWorkload(Access access, int files, long fileSize, int blockSize, boolean shared, boolean fsync,
                               boolean dropCache) {
        this.access = access;
        this.files = files;
        this.fileSize = fileSize;
        this.blockSize = blockSize;
        this.shared = shared;
        this.fsync = fsync;
        this.dropCache = dropCache;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        directory = shared ? ctx.sharedDirectory() : ctx.workDirectory();
        FileWork.requireSpace(directory, FileWork.product(files, ctx.worldSize(), 1), fileSize, "files × file_size × tasks");
        fileAccess = access.newFileAccess(ctx);
        block = FileWork.blockOf(blockSize);
        python = access.inPython() ? PythonFileCalls.start(ctx, access) : null;
        if (python == null && fileAccess instanceof NativeFileAccess n && n.holdsRunDirectory()) {
            fast = n;
            held = n.openDirectory(directory);
            slot = EncodedNames.slot();
        }
    }

    /** @return create_files' request to the Python worker for {@code paths} */
    private Map<String, Object> request(List<String> paths, long size) {
        return Map.of("op", "create", "paths", paths, "size", size, "block", blockSize, "fsync", fsync, "drop", dropCache);
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        long timedBytes = FileWork.product(files, fileSize, 1); // what a time-based run plans, as its space check does
        long stepSize = Rehearsal.stepSize(fileSize, timedBytes);
        if (python != null) {
            Rehearsal.inScratchDirectory(ctx, scratch -> {
                List<String> paths = new ArrayList<>();
                for (int i = 0; i < Rehearsal.steps(PythonFileCalls.REHEARSAL_FILES, stepSize, timedBytes); i++) {
                    paths.add(FileWork.path(scratch, FileWork.fileName(shared, ctx.rank(), i)).toString());
                }
                python.rehearse(request(paths, stepSize));
            });
            return;
        }
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            int steps = Rehearsal.steps(Rehearsal.ITERATIONS, stepSize, timedBytes);
            // the timed path itself, relative to the scratch directory held as the timed phase holds its own
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                Rehearsal.repeat(ctx, steps, i -> {
                    String fileName = FileWork.fileName(shared, ctx.rank(), i);
                    Path file = FileWork.path(scratch, fileName);
                    long name = slot == null ? 0 : slot.encode(fileName);
                    createOne(ctx, file, stepSize, dirfd, name);
                    if (dirfd < 0) {
                        fileAccess.unlink(file);
                    } else {
                        fast.unlinkAt(dirfd, name, file);
                    }
                });
            }
        });
    }

    /** Files this rank created in the timed phase: {@code files}, or as many as a time-based run had time for. */
    private int created;

    @Override
    public void run(WorkloadContext ctx) {
        if (python != null) {
            List<String> paths = new ArrayList<>(files);
            for (int i = 0; i < files; i++) {
                paths.add(FileWork.path(directory, FileWork.fileName(shared, ctx.rank(), i)).toString());
            }
            created = files;
            python.run(ctx, request(paths, fileSize));
            return;
        }
        created = 0;
        int dirfd = held == null ? -1 : held.descriptor();
        for (int i = 0; ctx.keepGoing(i, files); i++) {
            String fileName = FileWork.fileName(shared, ctx.rank(), i);
            Path file = FileWork.path(directory, fileName);
            long name = slot == null ? 0 : slot.encode(fileName);
            int at = slot == null ? -1 : dirfd;
            created = i + 1;
            if (ctx.continueOnError()) {
                ctx.attempt("create", file, () -> createOne(ctx, file, fileSize, at, name));
            } else {
                createOne(ctx, file, fileSize, at, name);
            }
        }
    }

    /**
     * The timed work for one file: create (open + write + fsync + close), then the optional drop. With {@code dirfd}
     * (not -1) the file is {@code name}, encoded, relative to that directory's descriptor; else {@code file}'s path.
     */
    private void createOne(WorkloadContext ctx, Path file, long fileSize, int dirfd, long name) {
        ctx.call("create", file, () -> {
            FileAccess.OpenFile open = ctx.call("open", file, () -> dirfd < 0 ? fileAccess.create(file)
                    : fast.createAt(dirfd, name, file));
            try {
                ctx.measure("write", file, () -> FileWork.writeFully(open, block, fileSize, ctx));
                ctx.addBytes("write", fileSize);
                if (fsync) {
                    ctx.measure("fsync", file, open::sync);
                }
            } finally {
                ctx.measure("close", file, open::close);
            }
            return null;
        });
        if (dropCache) {
            ctx.measure("drop_cache", file, () -> {
                if (dirfd < 0) {
                    Posix.dropFromPageCache(file);
                } else {
                    dropAt(dirfd, name, file);
                }
            });
        }
    }

    /**
     * As {@link Posix#dropFromPageCache}, for the file {@code name} (encoded) in the directory open as {@code dirfd}:
     * reopened relative to that descriptor, not following a link, never by its path.
     */
    private static void dropAt(int dirfd, long name, Path shown) {
        NativeCalls.dropFromPageCache(NativeCalls.openatName(dirfd, name, Posix.O_RDONLY | Posix.O_NOFOLLOW
                | Posix.O_CLOEXEC, 0, shown), shown);
    }

    @Override
    public void teardown(WorkloadContext ctx) {
        PythonFileCalls.close(python);
        if (held != null) {
            held.close();
            held = null;
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        for (int i = 0; i < created; i++) {
            Path file = directory.resolve(FileWork.fileName(shared, ctx.rank(), i));
            if (ctx.failed(file)) {
                continue;   // counted as an error of its operation (--continue-on-error)
            }
            FileStat stat = fileAccess.stat(file);
            if (!stat.isRegularFile() || stat.sizeBytes() != fileSize) {
                throw new ValidationException(file + ": " + stat.sizeBytes() + " bytes, expected " + fileSize);
            }
        }
    }
}
