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
            // the timed loop itself, one file a step, relative to the scratch directory held as the timed phase holds
            // its own: compiled here, the timed phase enters it compiled rather than interpreting its first thousands
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                Rehearsal.repeat(ctx, steps, i -> {
                    createFiles(ctx, scratch, dirfd, i, i + 1, stepSize);
                    String fileName = FileWork.fileName(shared, ctx.rank(), i);
                    if (dirfd < 0) {
                        fileAccess.unlink(FileWork.path(scratch, fileName));
                    } else {
                        fast.unlinkAt(dirfd, slot.encode(fileName), scratch, fileName);
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
        createFiles(ctx, directory, held == null ? -1 : held.descriptor(), 0, files, fileSize);
    }

    /**
     * The timed loop: creates the files numbered from {@code from} while the run keeps going ({@link
     * WorkloadContext#keepGoing}: below {@code to}, or until a time-based run's time is up) in {@code dir}, relative to
     * its descriptor {@code dirfd} where that is not -1, each of {@code size} bytes; {@link #created} follows.
     */
    private void createFiles(WorkloadContext ctx, Path dir, int dirfd, int from, int to, long size) {
        for (int i = from; ctx.keepGoing(i, to); i++) {
            String fileName = FileWork.fileName(shared, ctx.rank(), i);
            long name = slot == null ? 0 : slot.encode(fileName);
            int at = slot == null ? -1 : dirfd;
            created = i + 1;
            if (ctx.continueOnError()) {
                ctx.attempt("create", FileWork.path(dir, fileName), () -> createOne(ctx, dir, fileName, size, at, name));
            } else {
                createOne(ctx, dir, fileName, size, at, name);
            }
        }
    }

    /**
     * The timed work for one file, {@code fileName} in {@code dir}: create (open + write + fsync + close), then the
     * optional drop. With {@code dirfd} (not -1) the file is {@code name}, encoded, relative to that directory's
     * descriptor, and no {@link Path} is made for it (the timings and failures name the directory and the name, joined
     * only for a stall or a failure); else it is reached by its path, made before the clock.
     */
    private void createOne(WorkloadContext ctx, Path dir, String fileName, long fileSize, int dirfd, long name) {
        // a path only where a call needs one (by path, or the drop's failures: drop_cache is a sync's worth of time)
        Path file = dirfd < 0 || dropCache ? FileWork.path(dir, fileName) : null;
        ctx.call("create", dir, fileName, () -> {
            FileAccess.OpenFile open = ctx.call("open", dir, fileName, () -> dirfd < 0 ? fileAccess.create(file)
                    : fast.createAt(dirfd, name, dir, fileName));
            try {
                ctx.measure("write", dir, fileName, () -> FileWork.writeFully(open, block, fileSize, ctx));
                ctx.addBytes("write", fileSize);
                if (fsync) {
                    ctx.measure("fsync", dir, fileName, open::sync);
                }
            } finally {
                ctx.measure("close", dir, fileName, open::close);
            }
            return null;
        });
        if (dropCache) {
            ctx.measure("drop_cache", dir, fileName, () -> {
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
     * reopened relative to that descriptor, not following a link, never by its path, which only names it in a failure.
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
