package dev.prism.posix.internal;

import dev.prism.posix.Posix;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The floor under PRISM's NATIVE access for bench/metadata-vs-c.sh: metadata_rate.c's four loops
 * made with PRISM's own binding to libc (NativeCalls, through whichever binding the JVM chose:
 * java.lang.foreign on JDK 22+, JNA before, or the one -Dprism.posix.binding names) and nothing else of PRISM — no timers, contexts or
 * result objects — each call timed with System.nanoTime as the C loop times its calls with
 * clock_gettime. Paths are built before the clock, as the C loop formats them before its clock.
 * The loops run twice in one JVM (into two directories); the second is printed, the first — WARM
 * files, FILES unless given — compiles them and warms the kernel's caches. PRISM rehearses 2,000
 * steps (Rehearsal.ITERATIONS); a first round of 20,000 files left a tmpfs create some 20% quicker
 * than one of 2,000 (10.6 against 13.0 µs, three runs each), a difference of warm-up, not of
 * PRISM's own code. Usage: FloorBench DIR FILES FILE_SIZE [WARM]. Prints "<op> <count> <sum of
 * latencies in ns>".
 */
public final class FloorBench {
    private static final int FLAGS = Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int files = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        ByteBuffer block = ByteBuffer.allocateDirect(Math.max(1, size));
        long address = Posix.address(block);
        long[] sums;
        int warm = args.length > 3 ? Integer.parseInt(args[3]) : files;
        loops(Files.createDirectories(dir.resolve("round-0")), warm, size, address);
        sums = loops(Files.createDirectories(dir.resolve("round-1")), files, size, address);
        System.err.println("floor: " + Posix.binding());
        String[] ops = {"create", "stat", "rename", "unlink"};
        for (int i = 0; i < ops.length; i++) {
            System.out.println(ops[i] + " " + files + " " + sums[i]);
        }
    }

    private static long[] loops(Path dir, int files, int size, long address) throws Exception {
        Path a = Files.createDirectory(dir.resolve("from"));
        Path b = Files.createDirectory(dir.resolve("to"));
        Path[] from = new Path[files];
        Path[] to = new Path[files];
        for (int i = 0; i < files; i++) {
            from[i] = FileWork.path(a, "file-" + i + ".dat");
            to[i] = FileWork.path(b, "file-" + i + ".dat");
        }
        long[] sums = new long[4];
        for (int i = 0; i < files; i++) {
            long t0 = System.nanoTime();
            int fd = NativeCalls.openat(Posix.AT_FDCWD, from[i], FLAGS, 0644);
            NativeCalls.write(fd, address, size, from[i]);
            NativeCalls.close(fd, from[i]);
            sums[0] += System.nanoTime() - t0;
        }
        for (int i = 0; i < files; i++) {
            long t0 = System.nanoTime();
            NativeCalls.statx(Posix.AT_FDCWD, from[i], Posix.AT_SYMLINK_NOFOLLOW);
            sums[1] += System.nanoTime() - t0;
        }
        for (int i = 0; i < files; i++) {
            long t0 = System.nanoTime();
            NativeCalls.renameat(Posix.AT_FDCWD, from[i], Posix.AT_FDCWD, to[i]);
            sums[2] += System.nanoTime() - t0;
        }
        for (int i = 0; i < files; i++) {
            long t0 = System.nanoTime();
            NativeCalls.unlinkat(Posix.AT_FDCWD, to[i], 0);
            sums[3] += System.nanoTime() - t0;
        }
        Files.delete(a);
        Files.delete(b);
        Files.delete(dir);
        return sums;
    }
}
