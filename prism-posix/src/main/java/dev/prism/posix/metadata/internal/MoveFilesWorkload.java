package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.internal.EncodedNames;
import dev.prism.posix.internal.FileWork;
import dev.prism.spi.HeldDirectory;
import dev.prism.posix.internal.PythonFileCalls;
import dev.prism.posix.internal.Rehearsal;
import java.util.Map;
import java.util.List;
import java.util.ArrayList;

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
    public void setup(WorkloadContext ctx) throws Exception {
        super.setup(ctx);
        destination = madeBeneath(ctx, directory.getParent(), "to");
        if (fast != null) {
            destinationHeld = fast.openDirectory(destination);
        }
    }

    /** {@link #destination} held by descriptor for the timed path; null when the files go by path */
    private HeldDirectory destinationHeld;

    @Override
    public void teardown(WorkloadContext ctx) {
        super.teardown(ctx);
        if (destinationHeld != null) {
            destinationHeld.close();
            destinationHeld = null;
        }
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        if (python != null) {
            Rehearsal.inScratchDirectory(ctx, scratch -> {
                List<List<String>> there = new ArrayList<>();
                List<List<String>> back = new ArrayList<>();
                for (String file : scratchFiles(scratch, PythonFileCalls.REHEARSAL_FILES)) {
                    there.add(List.of(file, file + ".moved"));
                    back.add(List.of(file + ".moved", file));
                }
                python.rehearse(Map.of("op", "move", "pairs", there));
                python.rehearse(Map.of("op", "move", "pairs", back));
            });
            return;
        }
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            Path a = FileWork.path(scratch, "a.dat");
            Path b = FileWork.path(scratch, "b.dat");
            FileWork.populate(fileAccess, a, FileWork.blockFor(scratchSize(1)), scratchSize(1));
            // the timed path itself, relative to the scratch directory held as the timed phase holds its own
            try (HeldDirectory scratchHeld = fast == null ? null : fast.openDirectory(scratch)) {
                int dirfd = scratchHeld == null ? -1 : scratchHeld.descriptor();
                EncodedNames ab = EncodedNames.of(2, i -> i == 0 ? "a.dat" : "b.dat");
                Rehearsal.repeat(ctx, Rehearsal.ITERATIONS / 2, 2, i -> {
                    rename(ctx, a, b, dirfd, ab.address(0), dirfd, ab.address(1));
                    rename(ctx, b, a, dirfd, ab.address(1), dirfd, ab.address(0));
                });
            }
        });
    }

    /** The timed work for one file: by name relative to the two descriptors, or by path when {@code fromDirfd} is -1. */
    private void rename(WorkloadContext ctx, Path from, Path to, int fromDirfd, long fromName, int toDirfd, long toName) {
        if (fromDirfd < 0) {
            ctx.measure("rename", from, () -> fileAccess.rename(from, to));
        } else {
            ctx.measure("rename", from, () -> fast.renameAt(fromDirfd, fromName, toDirfd, toName, from, to));
        }
    }

    @Override
    public void run(WorkloadContext ctx) {
        if (python != null) {
            List<List<String>> pairs = new ArrayList<>(files);
            for (int i = 0; i < files; i++) {
                Path there = file(ctx, i);
                pairs.add(List.of(there.toString(), FileWork.path(destination, there.getFileName().toString()).toString()));
            }
            moves = files;
            python.run(ctx, Map.of("op", "move", "pairs", pairs));
            return;
        }
        // one pass moves every file over; a time-based run moves them back on the next pass, and so on
        moves = 0;
        int thereFd = dirfd();
        int hereFd = destinationHeld == null ? -1 : destinationHeld.descriptor();
        for (long k = 0; ctx.keepGoing(k, files); k++) {
            int i = (int) (k % files);
            String fileName = FileWork.fileName(shared, ctx.rank(), i);
            Path there = FileWork.path(directory, fileName);
            Path here = FileWork.path(destination, fileName);
            boolean out = (k / files) % 2 == 0;
            Path from = out ? there : here;
            Path to = out ? here : there;
            int fromFd = out ? thereFd : hereFd;
            int toFd = out ? hereFd : thereFd;
            long name = slot == null ? 0 : slot.encode(fileName); // the same name in both directories
            moves = k + 1;
            if (ctx.continueOnError()) {
                ctx.attempt("rename", there, () -> rename(ctx, from, to, fromFd, name, toFd, name));
            } else {
                rename(ctx, from, to, fromFd, name, toFd, name);
            }
        }
    }

    /** Renames done in the timed phase: {@code files}, or as many passes (and part of one) as a time-based run had time for. */
    private long moves;

    @Override
    public void validate(WorkloadContext ctx) {
        for (int i = 0; i < files; i++) {
            if (ctx.failed(file(ctx, i))) {
                continue;   // counted as an error of its operation (--continue-on-error)
            }
            // file i was moved (passes over it) times: an odd count leaves it in the destination
            long passes = moves / files + (i < moves % files ? 1 : 0);
            Path there = destination.resolve(file(ctx, i).getFileName());
            Path moved = passes % 2 == 1 ? there : file(ctx, i);
            Path left = passes % 2 == 1 ? file(ctx, i) : there;
            if (fileAccess.stat(moved).sizeBytes() != fileSize) {
                throw new ValidationException(moved + ": not " + fileSize + " bytes after the rename");
            }
            if (Files.exists(left)) {
                throw new ValidationException(left + ": still there after the rename");
            }
        }
    }
}
