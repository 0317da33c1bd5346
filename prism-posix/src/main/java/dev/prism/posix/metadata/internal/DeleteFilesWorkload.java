package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.internal.FileWork;
import dev.prism.spi.HeldDirectory;
import dev.prism.posix.internal.PythonFileCalls;
import dev.prism.posix.internal.Rehearsal;
import java.util.Map;
import java.util.List;
import java.util.ArrayList;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** One rank of {@code delete_files}: unlink every file. */
public final class DeleteFilesWorkload extends PopulatedFilesWorkload {
    public DeleteFilesWorkload(Access access, int files, long fileSize, boolean shared) {
        super(access, files, fileSize, shared);
    }

    @Override
    String subdirectory() {
        return "doomed";
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        if (python != null) {
            Rehearsal.inScratchDirectory(ctx, scratch -> python.rehearse(Map.of("op", "delete", "paths",
                    scratchFiles(scratch, PythonFileCalls.REHEARSAL_FILES))));
            return;
        }
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            long size = scratchSize(Rehearsal.ITERATIONS);
            var block = FileWork.blockFor(size);
            // the timed loop itself, one file a step, relative to the scratch directory held as the timed phase holds
            // its own: compiled here, the timed phase enters it compiled rather than interpreting its first thousands
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                Rehearsal.repeat(ctx, Rehearsal.ITERATIONS, i -> {
                    FileWork.populate(fileAccess, FileWork.path(scratch, FileWork.fileName(shared, ctx.rank(), i)),
                            block, size);
                    unlinkFiles(ctx, scratch, dirfd, i, i + 1);
                });
            }
        });
    }

    /** The timed work for one file: {@code fileName} in {@code dir}, relative to {@code dirfd}, or by path when it is -1. */
    private void unlink(WorkloadContext ctx, Path dir, String fileName, int dirfd, long name) {
        if (dirfd < 0) {
            Path file = FileWork.path(dir, fileName);
            ctx.measure("unlink", file, () -> fileAccess.unlink(file));
        } else {
            // no Path made per file: the directory and the name say which, joined only for a failure or a stall
            ctx.measure("unlink", dir, fileName, () -> fast.unlinkAt(dirfd, name, dir, fileName));
        }
    }

    @Override
    public void run(WorkloadContext ctx) {
        if (python != null) {
            List<String> paths = new ArrayList<>(files);
            for (int i = 0; i < files; i++) {
                paths.add(file(ctx, i).toString());
            }
            python.run(ctx, Map.of("op", "delete", "paths", paths));
            return;
        }
        unlinkFiles(ctx, directory, dirfd(), 0, files);
    }

    /**
     * The timed loop: unlinks the files numbered {@code from} to {@code to - 1} in {@code dir}, relative to its
     * descriptor {@code dirfd} where that is not -1.
     */
    private void unlinkFiles(WorkloadContext ctx, Path dir, int dirfd, int from, int to) {
        for (int i = from; i < to; i++) {
            String fileName = FileWork.fileName(shared, ctx.rank(), i);
            long name = slot == null ? 0 : slot.encode(fileName);
            if (ctx.continueOnError()) {
                ctx.attempt("unlink", FileWork.path(dir, fileName), () -> unlink(ctx, dir, fileName, dirfd, name));
            } else {
                unlink(ctx, dir, fileName, dirfd, name);
            }
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            if (ctx.failed(file(ctx, i))) {
                continue;   // counted as an error of its operation (--continue-on-error)
            }
            if (Files.exists(file(ctx, i), LinkOption.NOFOLLOW_LINKS)) {
                throw new ValidationException(file(ctx, i) + ": still there after unlink");
            }
        }
    }
}
