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
            // the timed path itself, relative to the scratch directory held as the timed phase holds its own
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                Rehearsal.repeat(ctx, Rehearsal.ITERATIONS, i -> {
                    String fileName = "file-" + i + ".dat";
                    Path file = FileWork.path(scratch, fileName);
                    FileWork.populate(fileAccess, file, block, size);
                    unlink(ctx, file, dirfd, slot == null ? 0 : slot.encode(fileName));
                });
            }
        });
    }

    /** The timed work for one file: {@code name} relative to {@code dirfd}, or {@code file}'s path when it is -1. */
    private void unlink(WorkloadContext ctx, Path file, int dirfd, long name) {
        if (dirfd < 0) {
            ctx.measure("unlink", file, () -> fileAccess.unlink(file));
        } else {
            ctx.measure("unlink", file, () -> fast.unlinkAt(dirfd, name, file));
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
        int dirfd = dirfd();
        for (int i = 0; i < files; i++) {
            String fileName = FileWork.fileName(shared, ctx.rank(), i);
            Path file = FileWork.path(directory, fileName);
            long name = slot == null ? 0 : slot.encode(fileName);
            if (ctx.continueOnError()) {
                ctx.attempt("unlink", file, () -> unlink(ctx, file, dirfd, name));
            } else {
                unlink(ctx, file, dirfd, name);
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
