package dev.prism.posix.internal;

import dev.prism.WorkloadContext;

import dev.prism.RefusedException;

import dev.prism.posix.FileAccess;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small pieces the POSIX workloads share: file names, filled buffers, whole-file writes, space checks. */
public final class FileWork {
    /** The byte Listing 1 of the paper writes. */
    private static final byte FILL = (byte) 0xAB;
    private static final int MAX_BLOCK = 1 << 20;

    private FileWork() {
    }

    /**
     * @return {@code directory/name} with its text already built, so that building it (what NATIVE
     *         calls pass to the kernel) falls outside a timing, as the C baseline formats its path
     *         before its clock starts; the JDK's paths keep their text once built
     */
    public static Path path(Path directory, String name) {
        Path path = directory.resolve(name);
        path.toString(); // built now, kept by the path
        return path;
    }

    /** @return {@code file-<i>.dat} in a per-rank directory, {@code file-r<rank>-<i>.dat} in a shared one */
    public static String fileName(boolean shared, int rank, int index) {
        return shared ? "file-r" + rank + "-" + index + ".dat" : "file-" + index + ".dat";
    }

    /** @return a direct buffer for writing files of {@code fileSize}: at most 1 MiB, filled with 0xAB */
    public static ByteBuffer blockFor(long fileSize) {
        return blockOf((int) Math.min(Math.max(fileSize, 1), MAX_BLOCK));
    }

    /** @return a direct buffer of exactly {@code size} bytes filled with 0xAB */
    public static ByteBuffer blockOf(int size) {
        ByteBuffer block = ByteBuffer.allocateDirect(size);
        while (block.hasRemaining()) {
            block.put(FILL);
        }
        return block.flip();
    }

    /** Writes {@code size} bytes to {@code file}, repeating {@code block} as often as needed. */
    public static void writeFully(FileAccess.OpenFile file, ByteBuffer block, long size) {
        writeFully(file, block, size, null);
    }

    /**
     * As {@link #writeFully(FileAccess.OpenFile, ByteBuffer, long)}, telling {@code ctx} of the progress between calls
     * ({@link WorkloadContext#progress}), so that a large file whose writes keep returning is never a stall.
     */
    public static void writeFully(FileAccess.OpenFile file, ByteBuffer block, long size, WorkloadContext ctx) {
        long remaining = size;
        while (remaining > 0) {
            block.clear();
            if (remaining < block.capacity()) {
                block.limit((int) remaining);
            }
            remaining -= file.write(block);
            if (ctx != null && remaining > 0) {
                ctx.progress();
            }
        }
    }

    /** Creates {@code path} with {@code size} bytes, untimed (for setup phases). */
    public static void populate(FileAccess files, Path path, ByteBuffer block, long size) {
        try (FileAccess.OpenFile f = files.create(path)) {
            writeFully(f, block, size);
        }
    }

    /**
     * Refuses, before anything is written, a workload the target cannot hold: {@code files} files of
     * {@code bytesPerFile} bytes each take {@code files × bytesPerFile} rounded up to whole blocks of
     * the filesystem (a one-byte file takes a block), and one inode each.
     *
     * @throws RefusedException naming {@code what}, the need and what is free
     */
    public static void requireSpace(Path directory, long files, long bytesPerFile, String what) {
        NativeCalls.Space space = NativeCalls.statvfs(directory);
        long block = Math.max(1, space.blockSize());
        long blocksPerFile = bytesPerFile == 0 ? 0 : (bytesPerFile - 1) / block + 1;
        require(directory, space, files, product(files, blocksPerFile, block), what);
    }

    /**
     * As {@link #requireSpace(Path, long, long, String)} for files of different sizes that add up to
     * {@code totalBytes}: each may waste up to one block.
     */
    public static void requireSpaceForSizes(Path directory, long files, long totalBytes, String what) {
        NativeCalls.Space space = NativeCalls.statvfs(directory);
        long rounded = totalBytes > Long.MAX_VALUE - product(files, space.blockSize(), 1) ? Long.MAX_VALUE
                : totalBytes + product(files, space.blockSize(), 1);
        require(directory, space, files, rounded, what);
    }

    private static void require(Path directory, NativeCalls.Space space, long files, long bytes, String what) {
        if (bytes > space.availableBytes()) {
            throw new RefusedException(what + " need up to " + bytes + " bytes in whole " + space.blockSize()
                    + "-byte blocks, but " + directory + " has " + space.availableBytes() + " bytes free; lower them");
        }
        // some filesystems report no inode limit at all (0 free of 0): btrfs, many network filesystems
        if (space.availableInodes() > 0 && files > space.availableInodes()) {
            throw new RefusedException(what + " need " + files + " inodes, but " + directory + " has "
                    + space.availableInodes() + " free; lower them");
        }
    }

    /** @return {@code a × b × c}, or Long.MAX_VALUE when it overflows (then it surely does not fit) */
    public static long product(long a, long b, long c) {
        try {
            return Math.multiplyExact(Math.multiplyExact(a, b), c);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
