package dev.prism.posix;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PosixTest {
    @TempDir
    Path dir;

    @Test
    void failures_nameTheFunctionThePathAndErrno() {
        Path missing = dir.resolve("ckpt/0001.bin");
        assertThatThrownBy(() -> Posix.open(missing, Posix.O_RDONLY, 0))
                .isInstanceOf(PosixException.class)
                .hasMessage("openat(AT_FDCWD, \"" + missing + "\", O_RDONLY): ENOENT (2)")
                .satisfies(e -> {
                    PosixException p = (PosixException) e;
                    assertThat(p.function()).isEqualTo("openat");
                    assertThat(p.errno()).isEqualTo(2);
                    assertThat(p.errnoName()).isEqualTo("ENOENT");
                    assertThat(p.path()).isEqualTo(missing.toString());
                });
    }

    @Test
    void createExclusive_twice_isEEXIST_andFlagsAreNamed() {
        Path file = dir.resolve("a.bin");
        int flags = Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC;
        Posix.close(Posix.open(file, flags, 0644), file);
        assertThatThrownBy(() -> Posix.open(file, flags, 0644))
                .hasMessage("openat(AT_FDCWD, \"" + file + "\", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0644): EEXIST (17)");
    }

    @Test
    void writeReadStatRoundTrip() {
        Path file = dir.resolve("data.bin");
        ByteBuffer out = ByteBuffer.allocateDirect(10_000);
        for (int i = 0; i < out.capacity(); i++) {
            out.put(i, (byte) i);
        }
        int fd = Posix.open(file, Posix.O_RDWR | Posix.O_CREAT | Posix.O_EXCL, 0600);
        try {
            assertThat(Posix.write(fd, out, file)).isEqualTo(10_000);
            Posix.fsync(fd, file);
            ByteBuffer in = ByteBuffer.allocateDirect(100);
            assertThat(Posix.pread(fd, in, 5_000, file)).isEqualTo(100);
            assertThat(in.get(0)).isEqualTo((byte) 5_000);
        } finally {
            Posix.close(fd, file);
        }
        FileStat st = Posix.stat(file);
        assertThat(st.sizeBytes()).isEqualTo(10_000);
        assertThat(st.isRegularFile()).isTrue();
        assertThat(st.mode() & 0777).isEqualTo(0600);
        assertThat(st.links()).isEqualTo(1);
        assertThat(st.blocks()).isPositive();
    }

    @Test
    void mkdirLinkRenameUnlinkRmdir() {
        Path sub = dir.resolve("sub");
        Posix.mkdir(sub, 0755);
        assertThat(Posix.lstat(sub).isDirectory()).isTrue();
        Path a = sub.resolve("a");
        Posix.close(Posix.open(a, Posix.O_WRONLY | Posix.O_CREAT, 0644), a);
        Posix.link(a, sub.resolve("b"));
        assertThat(Posix.stat(a).links()).isEqualTo(2);
        Posix.rename(sub.resolve("b"), sub.resolve("c"));
        assertThat(Posix.listDirectory(sub)).containsExactlyInAnyOrder("a", "c");
        assertThatThrownBy(() -> Posix.rmdir(sub)).hasMessageContaining("unlinkat").hasMessageContaining("AT_REMOVEDIR")
                .hasMessageContaining("ENOTEMPTY (39)");
        Posix.unlink(a);
        Posix.unlink(sub.resolve("c"));
        Posix.rmdir(sub);
        assertThat(sub).doesNotExist();
    }

    @Test
    void listDirectory_readsMoreEntriesThanOneBufferHolds() throws Exception {
        Set<String> created = new HashSet<>();
        // names of ~60 bytes: 3000 of them need several 64 KiB getdents64 buffers
        for (int i = 0; i < 3000; i++) {
            String name = "entry-with-a-rather-long-name-to-fill-the-buffer-quickly-" + i;
            Files.createFile(dir.resolve(name));
            created.add(name);
        }
        List<String> listed = Posix.listDirectory(dir);
        assertThat(listed).hasSize(3000);
        assertThat(new HashSet<>(listed)).isEqualTo(created);
    }

    @Test
    void flock_excludesASecondDescriptor() {
        Path lockFile = dir.resolve("lock");
        int a = Posix.open(lockFile, Posix.O_RDWR | Posix.O_CREAT, 0644);
        int b = Posix.open(lockFile, Posix.O_RDWR, 0);
        try {
            Posix.flock(a, Posix.LOCK_EX, lockFile);
            assertThatThrownBy(() -> Posix.flock(b, Posix.LOCK_EX | Posix.LOCK_NB, lockFile))
                    .hasMessageContaining("flock").hasMessageContaining("LOCK_EX|LOCK_NB").hasMessageContaining("EAGAIN (11)");
            Posix.flock(a, Posix.LOCK_UN, lockFile);
            Posix.flock(b, Posix.LOCK_EX | Posix.LOCK_NB, lockFile);
        } finally {
            Posix.close(a, lockFile);
            Posix.close(b, lockFile);
        }
    }

    @Test
    void fadvise_reportsTheErrorItReturns_notErrno() {
        Path file = dir.resolve("f");
        assertThatThrownBy(() -> Posix.fadvise(-1, 0, 0, Posix.POSIX_FADV_DONTNEED, file))
                .hasMessageContaining("posix_fadvise").hasMessageContaining("POSIX_FADV_DONTNEED").hasMessageContaining("EBADF (9)");
    }

    @Test
    void residency_seesPagesLeaveThePageCacheAfterADrop() throws Exception {
        Path file = dir.resolve("cached.bin");
        Files.write(file, new byte[1 << 20]);
        Files.readAllBytes(file);
        PageCacheResidency before = Posix.residency(file);
        assertThat(before.pages()).isEqualTo((1 << 20) / 4096);
        Posix.dropFromPageCache(file);
        PageCacheResidency after = Posix.residency(file);
        assertThat(after.residentPages()).isLessThan(before.residentPages());
        assertThat(Posix.residency(Files.createFile(dir.resolve("empty"))).fraction()).isZero();
    }

    @Test
    void otherPlatforms_areRefusedWithWhatIsSupported() {
        assertThat(Posix.archOf("Linux", "amd64")).isEqualTo("x86_64");
        assertThat(Posix.archOf("Linux", "aarch64")).isEqualTo("aarch64");
        assertThat(Posix.archOf("Mac OS X", "aarch64")).isNull();
        assertThat(Posix.archOf("Linux", "ppc64le")).isNull();
        assertThatThrownBy(() -> Posix.requireSupported("Mac OS X", "aarch64"))
                .hasMessage("the NATIVE file access (libc through java.lang.foreign or JNA) supports Linux on x86-64 and aarch64;"
                        + " this is Mac OS X on aarch64: use access=nio");
    }

    @Test
    void constantsFollowTheArchitecture() {
        assertThat(Posix.ARCH).isIn("x86_64", "aarch64");
        if (Posix.ARCH.equals("x86_64")) {
            assertThat(Posix.O_DIRECT).isEqualTo(040000);
            assertThat(Posix.O_DIRECTORY).isEqualTo(0200000);
        } else {
            assertThat(Posix.O_DIRECT).isEqualTo(0200000);
            assertThat(Posix.O_DIRECTORY).isEqualTo(040000);
        }
        assertThat(Posix.errnoName(28)).isEqualTo("ENOSPC");
        assertThat(Posix.errnoName(9999)).isEqualTo("errno 9999");
    }
}
