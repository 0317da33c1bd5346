package dev.prism.posix.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;

import java.util.List;

/** One rank of {@code list_files}: readdir of the directory, then stat of every entry. */
public final class ListFilesWorkload extends PopulatedFilesWorkload {
    private int listed;
    private long statted;

    public ListFilesWorkload(Access access, int files, long fileSize, boolean shared) {
        super(access, files, fileSize, shared);
    }

    @Override
    String subdirectory() {
        return "listed";
    }

    @Override
    public void run(WorkloadContext ctx) {
        List<String> names;
        try (var t = ctx.time("readdir", directory)) {
            names = fileAccess.list(directory);
        }
        listed = names.size();
        statted = 0;
        for (String name : names) {
            var path = FileWork.path(directory, name);
            try (var t = ctx.time("stat", path)) {
                statted += fileAccess.stat(path).sizeBytes();
            }
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        int expected = shared ? files * ctx.worldSize() : files;
        if (listed != expected) {
            throw new ValidationException(directory + ": readdir returned " + listed + " entries, expected " + expected);
        }
        if (statted != (long) expected * fileSize) {
            throw new ValidationException(directory + ": stat reported " + statted + " bytes in all, expected "
                    + (long) expected * fileSize);
        }
    }
}
