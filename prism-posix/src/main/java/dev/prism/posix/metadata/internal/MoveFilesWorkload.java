package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One rank of {@code move_files}: rename every file into a second directory. */
public final class MoveFilesWorkload extends PopulatedFilesWorkload {
    private Path destination;

    public MoveFilesWorkload(Access access, int files, long fileSize, boolean shared) {
        super(access, files, fileSize, shared);
    }

    @Override
    String subdirectory() {
        return "from";
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        super.setup(ctx);
        destination = Files.createDirectories(directory.resolveSibling("to"));
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            Path a = FileWork.path(scratch, "a.dat");
            Path b = FileWork.path(scratch, "b.dat");
            FileWork.populate(fileAccess, a, FileWork.blockFor(fileSize), fileSize);
            Rehearsal.repeat(Rehearsal.ITERATIONS / 2, i -> {
                rename(ctx, a, b);
                rename(ctx, b, a);
            });
        });
    }

    /** The timed work for one file. */
    private void rename(WorkloadContext ctx, Path from, Path to) {
        ctx.measure("rename", from, () -> fileAccess.rename(from, to));
    }

    @Override
    public void run(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            Path from = file(ctx, i);
            Path to = FileWork.path(destination, from.getFileName().toString());
            if (ctx.continueOnError()) {
                ctx.attempt("rename", from, () -> rename(ctx, from, to));
            } else {
                rename(ctx, from, to);
            }
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            if (ctx.failed(file(ctx, i))) {
                continue;   // counted as an error of its operation (--continue-on-error)
            }
            Path moved = destination.resolve(file(ctx, i).getFileName());
            if (fileAccess.stat(moved).sizeBytes() != fileSize) {
                throw new ValidationException(moved + ": not " + fileSize + " bytes after the rename");
            }
            if (Files.exists(file(ctx, i))) {
                throw new ValidationException(file(ctx, i) + ": still there after the rename");
            }
        }
    }
}
