package dev.prism.posix.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;

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
    public void run(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            Path file = file(ctx, i);
            try (var t = ctx.time("unlink", file)) {
                fileAccess.unlink(file);
            }
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            if (Files.exists(file(ctx, i), LinkOption.NOFOLLOW_LINKS)) {
                throw new ValidationException(file(ctx, i) + ": still there after unlink");
            }
        }
    }
}
