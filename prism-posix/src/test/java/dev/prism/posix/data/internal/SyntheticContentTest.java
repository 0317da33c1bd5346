package dev.prism.posix.data.internal;

import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.internal.FileWork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** create_synthetic_workload's random content does not repeat, so deduplicating storage finds nothing to fold. */
class SyntheticContentTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    /**
     * The bytes a compressible workload leaves in a file (its block, each page stamped) compress by about the ratio
     * asked for; the observer is zlib's fastest level over the file read back.
     */
    @Test
    void compressibleContent_compressesToAboutTheRequestedRatio() throws Exception {
        FileAccess files = Access.NATIVE.newFileAccess();
        for (double ratio : new double[]{2, 4, 8}) {
            ByteBuffer block = SyntheticWorkload.fill(dev.prism.posix.data.DataPattern.COMPRESSIBLE, ratio, new java.util.Random(3));
            Path file = dir.resolve("ratio-" + ratio);
            try (FileAccess.OpenFile out = files.create(file)) {
                SyntheticWorkload.writeContent(out, block, true, 0, 0, 2L << 20);
            }
            byte[] data = Files.readAllBytes(file);
            assertThat(data).hasSize(2 << 20);
            java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_SPEED);
            deflater.setInput(data);
            deflater.finish();
            byte[] compressed = new byte[data.length * 2];
            int length = deflater.deflate(compressed);
            deflater.end();
            assertThat((double) data.length / length).as("ratio %s", ratio).isBetween(ratio * 0.8, ratio * 1.2);
        }
    }

    @Test
    void randomContent_hasNoTwoEqualPages_acrossFilesAndRanks() throws Exception {
        // one 1 MiB block per rank, as the workload keeps it: before, every MiB of every file was that block
        ByteBuffer block = FileWork.blockOf(1 << 20);
        FileAccess files = Access.NATIVE.newFileAccess();
        long size = 3L << 20;
        for (int rank = 0; rank < 2; rank++) {
            for (int file = 0; file < 2; file++) {
                try (FileAccess.OpenFile out = files.create(dir.resolve("r" + rank + "-f" + file))) {
                    SyntheticWorkload.writeContent(out, block, true, rank, file, size);
                }
            }
        }
        Set<String> pages = new HashSet<>();
        long total = 0;
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (var listing = Files.list(dir)) {
            for (Path p : listing.toList()) {
                byte[] bytes = Files.readAllBytes(p);
                assertThat(bytes).hasSize((int) size);
                for (int offset = 0; offset < bytes.length; offset += PAGE) {
                    sha.update(bytes, offset, PAGE);
                    pages.add(HexFormat.of().formatHex(sha.digest()));
                    total++;
                }
            }
        }
        assertThat(total).isEqualTo(4 * size / PAGE);
        assertThat(pages).hasSize((int) total);
    }

    @Test
    void zeros_stayZeros() throws Exception {
        ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        Path file = dir.resolve("zeros");
        try (FileAccess.OpenFile out = Access.NATIVE.newFileAccess().create(file)) {
            SyntheticWorkload.writeContent(out, block, false, 0, 0, 100_000);
        }
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes).hasSize(100_000).containsOnly(0);
    }
}
