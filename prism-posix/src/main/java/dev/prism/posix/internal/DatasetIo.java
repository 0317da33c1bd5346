package dev.prism.posix.internal;

import dev.prism.WorkloadContext;
import dev.prism.posix.DatasetContent;
import dev.prism.posix.DatasetSpec;
import dev.prism.posix.FileAccess;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Writing dataset files (timed or not) and hashing them. */
public final class DatasetIo {
    /** Bytes per write call when writing a dataset: 16 content blocks. */
    public static final int WRITE_CHUNK = 16 * DatasetContent.BLOCK_SIZE;
    private static final WorkloadContext.Timer UNTIMED = () -> { };

    private DatasetIo() {
    }

    /** @return a timer on {@code ctx}, or one that records nothing when {@code ctx} is null (setup work) */
    static WorkloadContext.Timer time(WorkloadContext ctx, String operation, Path path) {
        return ctx == null ? UNTIMED : ctx.time(operation, path);
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
     * Writes one dataset file under {@code root}: {@code generate} (skipped for zeros), {@code write}
     * per chunk, {@code open}, {@code close}, timed on {@code ctx} when it is not null. Updates
     * {@code md5} with the bytes written when it is not null, and fsyncs before closing when
     * {@code sync} (so a later page-cache drop finds no dirty pages to keep).
     */
    public static void write(FileAccess files, Path root, DatasetSpec.File file, DatasetContent content, boolean zeros,
                             ByteBuffer chunk, WorkloadContext ctx, MessageDigest md5, boolean sync)
            throws java.io.IOException {
        Path path = root.resolve(file.path());
        Files.createDirectories(path.getParent());
        FileAccess.OpenFile out;
        try (var t = time(ctx, "open", path)) {
            out = files.create(path);
        }
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
                    try (var t = time(ctx, "generate", path)) {
                        content.fillFrom(file.path(), offset, chunk);
                    }
                    chunk.flip();
                    if (ctx != null) {
                        ctx.addBytes("generate", length);
                    }
                }
                if (md5 != null) {
                    md5.update(chunk.duplicate());
                }
                try (var t = time(ctx, "write", path)) {
                    while (chunk.hasRemaining()) {
                        out.write(chunk);
                    }
                }
                if (ctx != null) {
                    ctx.addBytes("write", length);
                }
                offset += length;
            }
            if (sync) {
                out.sync();
            }
        } finally {
            try (var t = time(ctx, "close", path)) {
                out.close();
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
