package dev.prism.posix;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NIO and NATIVE must behave alike, failures included: a benchmark's A/B compares cost, not semantics. */
class FileAccessTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Access.class)
    void everyOperation_behavesTheSame(Access access) {
        FileAccess files = access.newFileAccess();
        Path a = dir.resolve("a");
        ByteBuffer data = ByteBuffer.allocateDirect(5000);
        try (FileAccess.OpenFile f = files.create(a)) {
            while (data.hasRemaining()) {
                f.write(data);
            }
            f.sync();
        }
        ByteBuffer in = ByteBuffer.allocateDirect(8192);
        try (FileAccess.OpenFile f = files.openRead(a)) {
            assertThat(f.read(in)).isEqualTo(5000);
            assertThat(f.read(in)).isEqualTo(-1);
        }
        assertThat(files.stat(a).sizeBytes()).isEqualTo(5000);
        files.mkdir(dir.resolve("d"));
        files.link(a, dir.resolve("d/hard"));
        assertThat(files.stat(a).links()).isEqualTo(2);
        files.rename(dir.resolve("d/hard"), dir.resolve("d/moved"));
        assertThat(files.list(dir.resolve("d"))).containsExactly("moved");
        assertThat(files.list(dir)).containsExactlyInAnyOrder("a", "d");
        try (FileAccess.OpenFile lock = files.openReadWrite(dir.resolve("lock"))) {
            lock.lock(true);
            lock.unlock();
            lock.lock(false);
            lock.unlock();
        }
        files.unlink(dir.resolve("d/moved"));
        files.rmdir(dir.resolve("d"));
        assertThat(files.stat(dir).isDirectory()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Access.class)
    void failures_carryErrnoNamesWhicheverInterface(Access access) {
        FileAccess files = access.newFileAccess();
        assertThatThrownBy(() -> files.openRead(dir.resolve("missing")))
                .isInstanceOf(PosixException.class).hasMessageContaining("ENOENT").hasMessageContaining("missing");
        files.create(dir.resolve("x")).close();
        assertThatThrownBy(() -> files.create(dir.resolve("x"))).hasMessageContaining("EEXIST");
        files.mkdir(dir.resolve("full"));
        files.create(dir.resolve("full/y")).close();
        assertThatThrownBy(() -> files.rmdir(dir.resolve("full"))).hasMessageContaining("ENOTEMPTY");
        assertThatThrownBy(() -> files.mkdir(dir.resolve("no/such/parent"))).hasMessageContaining("ENOENT");
    }
}
