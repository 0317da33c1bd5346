package dev.prism.posix.metadata.internal;

import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.internal.EncodedNames;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.NativeFileAccess;
import dev.prism.spi.HeldDirectory;
import dev.prism.posix.internal.PythonFileCalls;
import java.util.List;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shape of list_files, move_files and delete_files: setup creates this rank's files (not timed),
 * then the timed phase works on them.
 */
abstract class PopulatedFilesWorkload implements Workload {
    final Access access;
    final int files;
    final long fileSize;
    final boolean shared;
    FileAccess fileAccess;
    /** Where the files are created: {@code <rank or shared dir>/<subdirectory>}. */
    Path directory;
    /** The worker whose Python calls are timed, for access=python and fsspec; else null */
    PythonFileCalls python;
    /**
     * The timed path through libc: {@link #directory} held by descriptor, and one reused native slot each file's name
     * is encoded into before its clock starts (hot in the cache when the kernel reads it, as a C loop's is); else null
     */
    NativeFileAccess fast;
    HeldDirectory held;
    EncodedNames slot;

    PopulatedFilesWorkload(Access access, int files, long fileSize, boolean shared) {
        this.access = access;
        this.files = files;
        this.fileSize = fileSize;
        this.shared = shared;
    }

    /** @return the subdirectory the files are created in */
    abstract String subdirectory();

    @Override
    public void setup(WorkloadContext ctx) throws Exception {
        Path base = shared ? ctx.sharedDirectory() : ctx.workDirectory();
        FileWork.requireSpace(base, FileWork.product(files, ctx.worldSize(), 1), fileSize, "files × file_size × tasks");
        fileAccess = access.newFileAccess(ctx);
        if (onlyRead() && !shared) {
            // read-only: made once per configuration and kept for its later repetitions (Fixture)
            directory = ctx.fixture(subdirectory(), made -> populate(ctx, made));
        } else {
            populate(ctx, madeBeneath(ctx, base, subdirectory()));
        }
        python = access.inPython() ? PythonFileCalls.start(ctx, access) : null;
        if (python == null && fileAccess instanceof NativeFileAccess n && n.holdsRunDirectory()) {
            fast = n;
            held = n.openDirectory(directory);
            slot = EncodedNames.slot();
        }
    }

    /**
     * @return {@code base/name}, made (or kept) relative to {@code base}'s descriptor where the rank holds it (its own
     *         directory or the shared one), so a run directory renamed meanwhile gets nothing made elsewhere
     */
    static Path madeBeneath(WorkloadContext ctx, Path base, String name) throws java.io.IOException {
        HeldDirectory parent = base.equals(ctx.workDirectory()) ? ctx.heldWorkDirectory()
                : base.equals(ctx.sharedDirectory()) ? ctx.heldSharedDirectory() : null;
        if (parent == null) {
            return Files.createDirectories(base.resolve(name));
        }
        parent.makeOrKeepDirectory(name, 0755).close();
        return base.resolve(name);
    }

    /**
     * @return true when the timed phase only reads this rank's files (list_files), so a rank's own directory of them
     *         is a {@link dev.prism.Fixture}; false when it changes them (move_files, delete_files). A shared directory
     *         is made every repetition either way: every rank writes its files there.
     */
    boolean onlyRead() {
        return false;
    }

    private void populate(WorkloadContext ctx, Path into) {
        directory = into;
        var block = FileWork.blockFor(fileSize);
        for (int i = 0; i < files; i++) {
            FileWork.populate(fileAccess, file(ctx, i), block, fileSize);
        }
    }

    @Override
    public void teardown(WorkloadContext ctx) {
        PythonFileCalls.close(python);
        if (held != null) {
            held.close();
            held = null;
        }
    }

    /** @return the descriptor of {@link #directory} for the timed path, or -1 when the files go by path */
    int dirfd() {
        return held == null ? -1 : held.descriptor();
    }

    /**
     * @return the size of each of {@code count} rehearsal files: {@code fileSize}, or less where {@code count} of them
     *         would pass the rehearsal's byte budget (a tenth of this rank's files' bytes, 40 MiB..64 MiB): their calls
     *         (rename, unlink, stat) do not read the content, and 2,000 files of 1 GiB were written to rehearse them
     */
    long scratchSize(int count) {
        return dev.prism.posix.internal.Rehearsal.fileSize(fileSize, count, FileWork.product(files, fileSize, 1));
    }

    /** @return {@code count} files of {@link #scratchSize} made in {@code dir} for a rehearsal, as text paths */
    List<String> scratchFiles(Path dir, int count) {
        long size = scratchSize(count);
        var block = FileWork.blockFor(size);
        List<String> made = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path file = FileWork.path(dir, "file-" + i + ".dat");
            FileWork.populate(fileAccess, file, block, size);
            made.add(file.toString());
        }
        return made;
    }

    /** @return this rank's file number {@code i} */
    Path file(WorkloadContext ctx, int i) {
        return FileWork.path(directory, FileWork.fileName(shared, ctx.rank(), i));
    }
}
