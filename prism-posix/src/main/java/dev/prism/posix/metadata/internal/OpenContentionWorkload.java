package dev.prism.posix.metadata.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** One rank of {@code open_contention}: open (and close) the one shared file again and again. */
public final class OpenContentionWorkload implements Workload {
    private static final int READ_SIZE = 4096;

    private final Access access;
    private final int opens;
    private final long fileSize;
    private final boolean read;
    private FileAccess fileAccess;
    private ByteBuffer buffer;
    private Path file;
    private long bytesRead;

    public OpenContentionWorkload(Access access, int opens, long fileSize, boolean read) {
        this.access = access;
        this.opens = opens;
        this.fileSize = fileSize;
        this.read = read;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        fileAccess = access.newFileAccess(ctx);
        file = ctx.sharedDirectory().resolve("contended.dat");
        buffer = ByteBuffer.allocateDirect(READ_SIZE);
        if (ctx.rank() == 0) {
            FileWork.requireSpace(ctx.sharedDirectory(), 1, fileSize, "file_size");
            FileWork.populate(fileAccess, file, FileWork.blockFor(fileSize), fileSize);
        }
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // every rank loads the binding and compiles its open/read/close here, on a file of its own
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            Path own = scratch.resolve("rehearsal.dat");
            long size = Math.min(fileSize, READ_SIZE);
            FileWork.populate(fileAccess, own, FileWork.blockFor(size), size);
            Rehearsal.repeat(ctx, Rehearsal.ITERATIONS, i -> openReadClose(ctx, own));
        });
    }

    /** Opens done in the timed phase: {@code opens}, or as many as a time-based run had time for. */
    private long done;

    @Override
    public void run(WorkloadContext ctx) {
        bytesRead = 0;
        done = 0;
        for (int i = 0; ctx.keepGoing(i, opens); i++) {
            if (ctx.continueOnError()) {
                // an open that fails is counted per errno and the next one tried
                long[] got = new long[1];
                if (ctx.attempt("open", file, () -> got[0] = openReadClose(ctx, file))) {
                    bytesRead += got[0];
                    done++;
                }
            } else {
                bytesRead += openReadClose(ctx, file);
                done = i + 1;
            }
        }
        if (read) {
            ctx.addBytes("read", bytesRead);
        }
    }

    /** The timed work of one open: open, the optional read, close. @return bytes read */
    private long openReadClose(WorkloadContext ctx, Path path) {
        FileAccess.OpenFile open = ctx.call("open", path, () -> fileAccess.openRead(path));
        try {
            if (read) {
                buffer.clear();
                return Math.max(0, ctx.call("read", path, () -> open.read(buffer)));
            }
            return 0;
        } finally {
            ctx.measure("close", path, open::close);
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        long expected = read ? done * Math.min(READ_SIZE, fileSize) : 0;
        if (bytesRead != expected) {
            throw new ValidationException(file + ": read " + bytesRead + " bytes over " + done + " opens, expected " + expected);
        }
    }
}
