package dev.prism.posix.data.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.data.DatasetContent;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One rank of {@code create_dataset}: writes files i with i mod tasks = rank; rank 0 merges the manifest. */
public final class CreateDatasetWorkload implements Workload {
    /** A rehearsal file: one chunk, so that every call of the write path runs per file. */
    private static final long REHEARSAL_FILE_BYTES = 64 * 1024;

    private final Access access;
    private final DatasetSpec spec;
    private final boolean zeros;
    private FileAccess files;
    private List<DatasetSpec.File> mine;
    private Path root;
    private ByteBuffer chunk;
    private DatasetContent content;

    public CreateDatasetWorkload(Access access, DatasetSpec spec, boolean zeros) {
        this.access = access;
        this.spec = spec;
        this.zeros = zeros;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        List<DatasetSpec.File> all = spec.files();
        root = ctx.sharedDirectory().resolve("dataset");
        if (ctx.rank() == 0) {
            FileWork.requireSpaceForSizes(ctx.sharedDirectory(), spec.fileCount(), spec.bytes(),
                    "the dataset (size_classes × files_per_class, up to total_size)");
        }
        Files.createDirectories(root);
        mine = new ArrayList<>();
        for (DatasetSpec.File f : all) {
            if (f.index() % ctx.worldSize() == ctx.rank()) {
                mine.add(f);
            }
        }
        // the directories exist before the clock: a file's timing holds only its own calls
        DatasetIo.createDirectories(root, mine);
        files = access.newFileAccess(ctx);
        chunk = ByteBuffer.allocateDirect(DatasetIo.WRITE_CHUNK);
        content = new DatasetContent(spec.seed());
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // the same write path (open, generate, write, close) for small files of its own
        long timedBytes = mine.stream().mapToLong(DatasetSpec.File::sizeBytes).sum();
        long size = Rehearsal.stepSize(REHEARSAL_FILE_BYTES, timedBytes);
        Rehearsal.inScratchDirectory(ctx, scratch -> Rehearsal.repeat(ctx, Rehearsal.steps(Rehearsal.ITERATIONS / 4, size, timedBytes),
                i -> writeFile(ctx, scratch, new DatasetSpec.File("rehearsal-" + i + ".bin", size, i))));
    }

    @Override
    public void run(WorkloadContext ctx) {
        for (DatasetSpec.File f : mine) {
            if (ctx.continueOnError()) {
                // a file it cannot write is counted per errno and passed over; validation leaves it out
                ctx.attempt("file_" + DatasetIo.sizeLabel(f.sizeBytes()), root.resolve(f.path()), () -> writeFile(ctx, root, f));
            } else {
                writeFile(ctx, root, f);
            }
        }
    }

    /** The timed work for one file: its open, generate and write per chunk, close, within file_&lt;class&gt;. */
    private void writeFile(WorkloadContext ctx, Path under, DatasetSpec.File f) {
        String op = "file_" + DatasetIo.sizeLabel(f.sizeBytes());
        ctx.measure(op, under.resolve(f.path()),
                () -> DatasetIo.write(files, under, f, content, zeros, chunk, ctx, null, false));
        ctx.addBytes(op, f.sizeBytes());
    }

    @Override
    public void validate(WorkloadContext ctx) throws IOException {
        List<DatasetManifest.Entry> entries = new ArrayList<>();
        for (DatasetSpec.File f : mine) {
            if (ctx.failed(root.resolve(f.path()))) {
                continue;
            }
            long size = files.stat(root.resolve(f.path())).sizeBytes();
            if (size != f.sizeBytes()) {
                throw new ValidationException(root.resolve(f.path()) + ": " + size + " bytes, expected " + f.sizeBytes());
            }
            entries.add(new DatasetManifest.Entry(f.path(), f.sizeBytes(),
                    zeros ? "" : DatasetIo.expectedMd5(f, content, chunk)));
        }
        Path part = root.resolve(".manifest-rank-" + ctx.rank() + ".json");
        new DatasetManifest(spec.seed(), entries).write(part);
        ctx.barrier();
        if (ctx.rank() == 0) {
            List<Path> parts = new ArrayList<>();
            for (int r = 0; r < ctx.worldSize(); r++) {
                parts.add(root.resolve(".manifest-rank-" + r + ".json"));
            }
            DatasetManifest manifest = DatasetManifest.merge(spec.seed(), parts);
            if (!ctx.continueOnError() && manifest.entries().size() != spec.files().size()) {
                throw new ValidationException("manifest lists " + manifest.entries().size() + " files, the dataset has "
                        + spec.files().size());
            }
            manifest.write(root.resolve(DatasetManifest.FILE_NAME));
        }
    }
}
