package dev.prism.posix.data.internal;

import dev.prism.WorkloadContext;
import dev.prism.posix.FileAccess;
import dev.prism.posix.data.DatasetContent;
import dev.prism.posix.data.DatasetSpec;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Writing dataset files (timed or not) and hashing them. */
public final class DatasetIo {
    /** Bytes per write call when writing a dataset: 16 content blocks. */
    public static final int WRITE_CHUNK = 16 * DatasetContent.BLOCK_SIZE;

    private DatasetIo() {
    }

    /**
     * @return what {@code call} returns, timed as {@code operation} on {@code ctx}, or untimed when
     *         {@code ctx} is null (setup work)
     */
    static <T, E extends Exception> T timed(WorkloadContext ctx, String operation, Path path,
                                            WorkloadContext.Call<T, E> call) throws E {
        return ctx == null ? call.call() : ctx.call(operation, path, call);
    }

    /** As {@link #timed} for work that returns nothing. */
    static <E extends Exception> void measured(WorkloadContext ctx, String operation, Path path,
                                               WorkloadContext.Action<E> action) throws E {
        if (ctx == null) {
            action.run();
        } else {
            ctx.measure(operation, path, action);
        }
    }

    /** @return a new MD5 digest */
    public static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no MD5", e);
        }
    }

    /** @return the digest as lower-case hex */
    public static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Writes one dataset file under {@code root} (its directory must exist: creating it is no part of
     * the file's timing): {@code generate} (skipped for zeros), {@code write} per chunk, {@code open},
     * {@code close}, timed on {@code ctx} when it is not null. Updates
     * {@code md5} with the bytes written when it is not null, and fsyncs before closing when
     * {@code sync} (so a later page-cache drop finds no dirty pages to keep).
     */
    public static void write(FileAccess files, Path root, DatasetSpec.File file, DatasetContent content, boolean zeros,
                             ByteBuffer chunk, WorkloadContext ctx, MessageDigest md5, boolean sync) {
        Path path = root.resolve(file.path());
        FileAccess.OpenFile out = timed(ctx, "open", path, () -> files.create(path));
        try {
            long offset = 0;
            if (zeros) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    chunk.put((byte) 0);
                }
            }
            while (offset < file.sizeBytes()) {
                int length = (int) Math.min(chunk.capacity(), file.sizeBytes() - offset);
                chunk.clear().limit(length);
                if (!zeros) {
                    long from = offset;
                    measured(ctx, "generate", path, () -> content.fillFrom(file.path(), from, chunk));
                    chunk.flip();
                    if (ctx != null) {
                        ctx.addBytes("generate", length);
                    }
                }
                if (md5 != null) {
                    md5.update(chunk.duplicate());
                }
                measured(ctx, "write", path, () -> {
                    while (chunk.hasRemaining()) {
                        out.write(chunk);
                    }
                });
                if (ctx != null) {
                    ctx.addBytes("write", length);
                }
                offset += length;
            }
            if (sync) {
                out.sync();
            }
        } finally {
            measured(ctx, "close", path, out::close);
        }
    }

    /** Creates the directories {@code files} go into under {@code root} (untimed: before any file's timing). */
    public static void createDirectories(Path root, List<DatasetSpec.File> files) throws java.io.IOException {
        java.util.Set<Path> made = new java.util.HashSet<>();
        for (DatasetSpec.File f : files) {
            Path parent = root.resolve(f.path()).getParent();
            if (made.add(parent)) {
                Files.createDirectories(parent);
            }
        }
    }

    /** @return the MD5 of a generated file, from the generator alone (no I/O) */
    public static String expectedMd5(DatasetSpec.File file, DatasetContent content, ByteBuffer scratch) {
        MessageDigest md5 = md5();
        long offset = 0;
        while (offset < file.sizeBytes()) {
            int length = (int) Math.min(scratch.capacity(), file.sizeBytes() - offset);
            scratch.clear().limit(length);
            content.fillFrom(file.path(), offset, scratch);
            scratch.flip();
            md5.update(scratch);
            offset += length;
        }
        return hex(md5);
    }

    /** @return a label for a size class in operation names: {@code 8KiB} */
    public static String sizeLabel(long bytes) {
        return dev.prism.DataSize.ofBytes(bytes).toString();
    }
}
