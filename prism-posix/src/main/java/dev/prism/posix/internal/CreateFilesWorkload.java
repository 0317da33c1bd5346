package dev.prism.posix.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** One rank of {@code create_files} through java.nio. */
public final class CreateFilesWorkload implements Workload {
    /** The byte Listing 1 of the paper writes. */
    private static final byte FILL = (byte) 0xAB;

    private final int files;
    private final long fileSize;
    private final int blockSize;
    private final boolean shared;
    private final boolean fsync;
    private ByteBuffer block;
    private Path directory;

    /**
     * @param files     files this rank creates
     * @param fileSize  bytes per file
     * @param blockSize bytes per write call, at most {@code fileSize}
     * @param shared    whether all ranks write into the shared directory
     * @param fsync     whether each file is fsynced before close
     */
    public CreateFilesWorkload(int files, long fileSize, int blockSize, boolean shared, boolean fsync) {
        this.files = files;
        this.fileSize = fileSize;
        this.blockSize = blockSize;
        this.shared = shared;
        this.fsync = fsync;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        directory = shared ? ctx.sharedDirectory() : ctx.workDirectory();
        long needed = Math.multiplyExact(Math.multiplyExact((long) files, fileSize), ctx.worldSize());
        long free = Files.getFileStore(directory).getUsableSpace();
        if (needed > free) {
            throw new IllegalArgumentException("files × file_size × tasks = " + needed + " bytes, but "
                    + directory + " has only " + free + " bytes free; lower files or file_size");
        }
        block = ByteBuffer.allocateDirect(blockSize);
        while (block.hasRemaining()) {
            block.put(FILL);
        }
    }

    @Override
    public void run(WorkloadContext ctx) throws IOException {
        for (int i = 0; i < files; i++) {
            Path file = directory.resolve(fileName(ctx.rank(), i));
            try (var create = ctx.time("create", file)) {
                FileChannel channel;
                try (var open = ctx.time("open", file)) {
                    channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                }
                try {
                    try (var write = ctx.time("write", file)) {
                        writeFully(channel);
                    }
                    ctx.addBytes("write", fileSize);
                    if (fsync) {
                        try (var sync = ctx.time("fsync", file)) {
                            channel.force(true);
                        }
                    }
                } finally {
                    try (var close = ctx.time("close", file)) {
                        channel.close();
                    }
                }
            }
        }
    }

    private void writeFully(FileChannel channel) throws IOException {
        long remaining = fileSize;
        while (remaining > 0) {
            block.clear();
            if (remaining < block.capacity()) {
                block.limit((int) remaining);
            }
            remaining -= channel.write(block);
        }
    }

    @Override
    public void validate(WorkloadContext ctx) throws IOException {
        for (int i = 0; i < files; i++) {
            Path file = directory.resolve(fileName(ctx.rank(), i));
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new ValidationException(file + ": missing after create_files wrote it");
            }
            long size = Files.size(file);
            if (size != fileSize) {
                throw new ValidationException(file + ": " + size + " bytes, expected " + fileSize);
            }
        }
    }

    private String fileName(int rank, int index) {
        return shared ? "file-r" + rank + "-" + index + ".dat" : "file-" + index + ".dat";
    }
}
