package dev.prism.posix.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;

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
        fileAccess = access.newFileAccess();
        file = ctx.sharedDirectory().resolve("contended.dat");
        buffer = ByteBuffer.allocateDirect(READ_SIZE);
        if (ctx.rank() == 0) {
            FileWork.requireSpace(ctx.sharedDirectory(), fileSize, "file_size");
            FileWork.populate(fileAccess, file, FileWork.blockFor(fileSize), fileSize);
        }
    }

    @Override
    public void run(WorkloadContext ctx) {
        bytesRead = 0;
        for (int i = 0; i < opens; i++) {
            FileAccess.OpenFile open;
            try (var t = ctx.time("open", file)) {
                open = fileAccess.openRead(file);
            }
            try {
                if (read) {
                    buffer.clear();
                    try (var t = ctx.time("read", file)) {
                        bytesRead += Math.max(0, open.read(buffer));
                    }
                }
            } finally {
                try (var t = ctx.time("close", file)) {
                    open.close();
                }
            }
        }
        if (read) {
            ctx.addBytes("read", bytesRead);
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        long expected = read ? (long) opens * Math.min(READ_SIZE, fileSize) : 0;
        if (bytesRead != expected) {
            throw new ValidationException(file + ": read " + bytesRead + " bytes over " + opens + " opens, expected " + expected);
        }
    }
}
