package dev.prism.posix.internal;

import dev.prism.posix.FileStat;
import dev.prism.posix.Posix;
import dev.prism.posix.PosixException;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Makes every call of {@link SystemCalls} through the binding this JVM chose, successes and failures, in a fresh
 * directory, and prints one line per outcome: the binding's description first, then lines that must read the same
 * whichever binding made the calls. Run by {@code BindingTest} in a child JVM. Usage: BindingProbe DIR.
 */
public final class BindingProbe {
    private final List<String> lines = new ArrayList<>();
    private String directory;

    public static void main(String[] args) throws Exception {
        BindingProbe probe = new BindingProbe();
        probe.run(Files.createDirectories(Path.of(args[0])));
        probe.lines.forEach(System.out::println);
    }

    private void outcome(String what, Supplier<Object> call) {
        try {
            lines.add(what + " = " + call.get());
        } catch (PosixException e) {
            // descriptor numbers differ (JNA holds files of its own open); the directories differ
            lines.add(what + " failed: " + e.getMessage().replace(directory, "DIR").replaceAll("\\((\\d+) \"", "(FD \"")
                    + " [" + e.errnoName() + "]");
        }
    }

    private static String describe(FileStat s) {
        return "size " + s.sizeBytes() + " mode 0" + Integer.toOctalString(s.mode()) + " links " + s.links()
                + " blocks " + s.blocks();
    }

    private void run(Path dir) throws Exception {
        directory = dir.toString();
        lines.add(Posix.binding());
        Path a = dir.resolve("a.bin");
        Path b = dir.resolve("b.bin");
        ByteBuffer data = ByteBuffer.allocateDirect(10_000);
        for (int i = 0; i < data.capacity(); i++) {
            data.put(i, (byte) (i * 31));
        }
        outcome("open missing", () -> Posix.open(dir.resolve("missing"), Posix.O_RDONLY, 0));
        int fd = Posix.open(a, Posix.O_RDWR | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC, 0640);
        outcome("create again", () -> Posix.open(a, Posix.O_RDWR | Posix.O_CREAT | Posix.O_EXCL, 0640));
        outcome("write", () -> Posix.write(fd, data.duplicate(), a));
        outcome("pwrite at 10000", () -> Posix.pwrite(fd, data.duplicate().limit(500), 10_000, a));
        Posix.fsync(fd, a);
        Posix.fdatasync(fd, a);
        ByteBuffer back = ByteBuffer.allocateDirect(10_500);
        outcome("pread", () -> Posix.pread(fd, back, 0, a));
        outcome("read back equal", () -> back.flip().limit(10_000).equals(data.duplicate().clear()));
        outcome("read at end", () -> Posix.read(fd, ByteBuffer.allocateDirect(10), a));
        outcome("stat", () -> describe(Posix.stat(a)));
        outcome("stat missing", () -> Posix.stat(dir.resolve("missing")));
        outcome("fadvise DONTNEED", () -> {
            Posix.fadvise(fd, 0, 0, Posix.POSIX_FADV_DONTNEED, a);
            return "ok";
        });
        outcome("fadvise bad advice", () -> {
            Posix.fadvise(fd, 0, 0, 99, a);
            return "ok";
        });
        outcome("residency pages", () -> Posix.residency(a).pages());
        int second = Posix.open(a, Posix.O_RDONLY, 0);
        outcome("flock", () -> {
            Posix.flock(fd, Posix.LOCK_EX | Posix.LOCK_NB, a);
            return "locked";
        });
        outcome("flock held elsewhere", () -> {
            Posix.flock(second, Posix.LOCK_EX | Posix.LOCK_NB, a);
            return "locked";
        });
        Posix.close(second, a);
        Posix.close(fd, a);
        outcome("close twice", () -> {
            Posix.close(fd, a);
            return "closed";
        });
        outcome("read closed", () -> Posix.read(fd, ByteBuffer.allocateDirect(10), a));
        outcome("link", () -> {
            Posix.link(a, b);
            return describe(Posix.stat(a));
        });
        outcome("link again", () -> {
            Posix.link(a, b);
            return "linked";
        });
        outcome("linkat", () -> {
            Posix.linkat(Posix.AT_FDCWD, a, Posix.AT_FDCWD, dir.resolve("c.bin"), 0);
            return describe(Posix.lstat(dir.resolve("c.bin")));
        });
        outcome("mkdir", () -> {
            Posix.mkdir(dir.resolve("sub"), 0750);
            return describe(Posix.stat(dir.resolve("sub"))).replaceAll("size \\d+", "size _").replaceAll("blocks \\d+", "blocks _");
        });
        outcome("mkdir again", () -> {
            Posix.mkdir(dir.resolve("sub"), 0750);
            return "made";
        });
        outcome("rename", () -> {
            Posix.rename(b, dir.resolve("sub/b.bin"));
            return Posix.listDirectory(dir.resolve("sub"));
        });
        outcome("rename missing", () -> {
            Posix.rename(b, dir.resolve("sub/b.bin"));
            return "renamed";
        });
        outcome("list", () -> Posix.listDirectory(dir).stream().sorted().toList());
        outcome("list missing", () -> Posix.listDirectory(dir.resolve("missing")));
        outcome("rmdir not empty", () -> {
            Posix.rmdir(dir.resolve("sub"));
            return "removed";
        });
        outcome("unlink", () -> {
            Posix.unlink(dir.resolve("sub/b.bin"));
            Posix.unlink(dir.resolve("c.bin"));
            Posix.rmdir(dir.resolve("sub"));
            return Posix.listDirectory(dir);
        });
        outcome("unlink missing", () -> {
            Posix.unlink(dir.resolve("c.bin"));
            return "removed";
        });
        outcome("statvfs", () -> NativeCalls.statvfs(dir).blockSize() > 0 && NativeCalls.statvfs(dir).availableBytes() > 0);
        outcome("strerror ENOENT", () -> NativeCalls.strerror(2));
        outcome("address of a view", () -> Posix.address(data.slice(100, 10)) - Posix.address(data));
        Posix.unlink(a);
    }
}
