package dev.prism.posix;

import dev.prism.Failure;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.TargetException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real faults on real filesystems: a full ext4 (a small loop-mounted image) and a read-only mount.
 * They need root and mount(8); without them they are skipped, saying why.
 */
@org.junit.jupiter.api.Tag("timing")
class FaultsTest {
    @TempDir
    Path work;
    private final List<Path> mounted = new ArrayList<>();

    @AfterEach
    void unmount() throws Exception {
        for (Path mountPoint : mounted) {
            run("umount", mountPoint.toString());
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    private static void assumeRootWithMount() {
        dev.prism.testing.Required.loopMounts();
    }

    /** A 16 MiB ext4 image with only 128 inodes, loop-mounted: creating files runs out of inodes (ENOSPC). */
    private Path smallExt4() throws Exception {
        assumeRootWithMount();
        Path image = work.resolve("small.ext4");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(16L << 20);
        }
        run("mkfs.ext4", "-q", "-F", "-N", "128", image.toString());
        Path mountPoint = Files.createDirectory(work.resolve("mnt"));
        try {
            run("mount", "-o", "loop", image.toString(), mountPoint.toString());
        } catch (IOException e) {
            dev.prism.testing.Required.loopCommandFailed("mount -o loop", e.getMessage());
        }
        mounted.add(mountPoint);
        return mountPoint;
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void moreFilesThanFreeInodes_isRefusedBeforeAnyIsWritten_andCleansUp(Access access) throws Exception {
        Path full = smallExt4();
        RunResult run = Scenario.builder().target(full).benchmark(PosixBenchmarks.createFiles().files(1000)
                .fileSize(dev.prism.DataSize.ofBytes(100)).access(access)).build().execute().runs().get(0);

        // 1000 files of 100 bytes fit the blocks of the image, not its inodes: statvfs says so up front
        assertThat(run.status()).isEqualTo(dev.prism.Status.FAIL);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.REFUSED);
        assertThat(run.failure().message()).contains("need 1000 inodes").contains("free");
        assertThat(run.measurements()).isEmpty();
        try (Stream<Path> left = Files.list(full)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("lost+found");
        }
    }

    /** @return a tmpfs mounted with {@code options} at a fresh directory {@code name}, unmounted after the test */
    private Path tmpfs(String name, String options) throws Exception {
        assumeRootWithMount();
        Path mountPoint = Files.createDirectory(work.resolve(name));
        run("mount", "-t", "tmpfs", "-o", options, "prism-" + name, mountPoint.toString());
        mounted.add(mountPoint);
        return mountPoint;
    }

    @Test
    void oneByteFiles_areCountedInWholeBlocks() throws Exception {
        Path small = tmpfs("small", "size=64m");
        // 20,000 bytes of data, but 20,000 pages of tmpfs: 80 MB in a 64 MiB filesystem
        RunResult run = Scenario.builder().target(small).benchmark(PosixBenchmarks.createFiles().files(20_000)
                .fileSize(dev.prism.DataSize.ofBytes(1))).build().execute().runs().get(0);
        assertThat(run.failure().kind()).isEqualTo(Failure.Kind.REFUSED);
        assertThat(run.failure().message()).contains("need up to 81920000 bytes in whole 4096-byte blocks");
    }

    @Test
    void readOnlyTarget_isRefusedWithAClearMessage() throws Exception {
        Path readOnly = tmpfs("ro", "ro,size=1m");
        assertThatThrownBy(() -> Scenario.builder().target(readOnly).benchmark(PosixBenchmarks.createFiles())
                .build().execute())
                .isInstanceOf(TargetException.class)
                .hasMessageContaining(readOnly.toString()).hasMessageContaining("Read-only file system");
    }
}
