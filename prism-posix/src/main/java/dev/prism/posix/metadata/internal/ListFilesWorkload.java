package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.internal.FileWork;
import dev.prism.spi.HeldDirectory;
import dev.prism.posix.internal.Rehearsal;
import java.util.Map;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** One rank of {@code list_files}: readdir of the directory, then stat of every entry. */
public final class ListFilesWorkload extends PopulatedFilesWorkload {
    private int listed;
    private long statted;
    /** Files the last pass could not stat (passed over under --continue-on-error) */
    private int unstatted;

    public ListFilesWorkload(Access access, int files, long fileSize, boolean shared) {
        super(access, files, fileSize, shared);
    }

    @Override
    String subdirectory() {
        return "listed";
    }

    @Override
    boolean onlyRead() {
        return true;
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        if (python != null) {
            Rehearsal.inScratchDirectory(ctx, scratch -> {
                scratchFiles(scratch, 100);
                for (int i = 0; i < 5; i++) {
                    python.rehearse(Map.of("op", "list", "dir", scratch.toString()));
                }
            });
            return;
        }
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            // few files, listed many times: the timed listing's method is then called often enough for the compiler's
            // last tier (its calls count, not only its loop's turns), not reached first inside the timed phase
            int scratchFiles = 10;
            scratchFiles(scratch, scratchFiles);
            // the timed path itself, relative to the scratch directory held as the timed phase holds its own
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                Rehearsal.repeat(ctx, Rehearsal.ITERATIONS / scratchFiles, scratchFiles + 1,
                        i -> listAndStat(ctx, scratch, dirfd));
            }
        });
    }


    @Override
    public void run(WorkloadContext ctx) {
        if (python != null) {
            var found = python.run(ctx, Map.of("op", "list", "dir", directory.toString()));
            listed = found.path("listed").asInt();
            statted = found.path("statted").asLong();
            unstatted = 0;
            return;
        }
        // one pass; a time-based run passes again until its time is up (the last pass is checked)
        int dirfd = dirfd();
        for (int pass = 0; ctx.keepGoing(pass, 1); pass++) {
            listAndStat(ctx, directory, dirfd);
        }
    }

    /**
     * The timed work: one readdir of {@code dir}, then a stat of every name it returned; with {@code dirfd} (not -1),
     * the descriptor {@code dir} is held by, each stat is of the name relative to it, encoded before its clock starts.
     */
    private void listAndStat(WorkloadContext ctx, Path dir, int dirfd) {
        List<String> entries = ctx.call("readdir", dir, () -> fileAccess.list(dir));
        listed = entries.size();
        statted = 0;
        unstatted = 0;
        for (String entry : entries) {
            long name = dirfd < 0 ? 0 : slot.encode(entry);
            if (ctx.continueOnError()) {
                // a file it cannot stat is counted per errno and passed over (its path kept: the failure names it)
                Path path = FileWork.path(dir, entry);
                if (!ctx.attempt("stat", path, () -> stat(ctx, dir, entry, dirfd, name))) {
                    unstatted++;
                }
            } else {
                stat(ctx, dir, entry, dirfd, name);
            }
        }
    }

    /** One timed stat: of {@code entry} in {@code dir}, or of {@code name}, encoded, relative to {@code dirfd}. */
    private void stat(WorkloadContext ctx, Path dir, String entry, int dirfd, long name) {
        if (dirfd < 0) {
            Path path = FileWork.path(dir, entry);
            statted += ctx.call("stat", path, () -> fileAccess.stat(path)).sizeBytes();
        } else {
            // no Path made per file: the directory and the name say which, joined only for a failure or a stall
            ctx.measure("stat", dir, entry, () -> statted += fast.statSizeAt(dirfd, name, dir, entry));
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        int expected = shared ? files * ctx.worldSize() : files;
        if (listed != expected) {
            throw new ValidationException(directory + ": readdir returned " + listed + " entries, expected " + expected);
        }
        if (statted != (long) (expected - unstatted) * fileSize) {
            throw new ValidationException(directory + ": stat reported " + statted + " bytes in all, expected "
                    + (long) (expected - unstatted) * fileSize);
        }
    }
}
