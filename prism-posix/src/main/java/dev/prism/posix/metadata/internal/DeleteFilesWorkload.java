package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.internal.FileWork;
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
            Rehearsal.repeat(ctx, Rehearsal.ITERATIONS, i -> {
                Path file = FileWork.path(scratch, "file-" + i + ".dat");
                FileWork.populate(fileAccess, file, block, size);
                unlink(ctx, file);
            });
        });
    }

    /** The timed work for one file. */
    private void unlink(WorkloadContext ctx, Path file) {
        ctx.measure("unlink", file, () -> fileAccess.unlink(file));
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
        for (int i = 0; i < files; i++) {
            Path file = file(ctx, i);
            if (ctx.continueOnError()) {
                ctx.attempt("unlink", file, () -> unlink(ctx, file));
            } else {
                unlink(ctx, file);
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
