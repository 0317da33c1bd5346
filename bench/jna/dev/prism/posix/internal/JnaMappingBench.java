package dev.prism.posix.internal;
import com.sun.jna.*;
/** Direct against interface mapping, same calls, same invocation: the evidence for LibC using direct mapping. */
public class JnaMappingBench {
    public interface C extends Library { long sysconf(int name); int statx(int dirfd, long path, int flags, int mask, long buf); }
    public static void main(String[] a) throws Exception {
        C c = Native.load("c", C.class);
        java.nio.file.Path f = java.nio.file.Files.createTempFile(java.nio.file.Path.of("/dev/shm"), "m", ".dat");
        long path = PathBuffers.first(f);
        long buf = dev.prism.posix.Posix.address(java.nio.ByteBuffer.allocateDirect(256));
        for (int round = 0; round < 3; round++) {
            int n = 1_000_000; long x = 0;
            long t = System.nanoTime(); for (int i = 0; i < n; i++) x += LibC.sysconf(30); long direct = System.nanoTime() - t;
            t = System.nanoTime(); for (int i = 0; i < n; i++) x += c.sysconf(30); long iface = System.nanoTime() - t;
            t = System.nanoTime(); for (int i = 0; i < n; i++) x += LibC.statx(-100, path, 0x100, 0x7ff, buf); long dstat = System.nanoTime() - t;
            t = System.nanoTime(); for (int i = 0; i < n; i++) x += c.statx(-100, path, 0x100, 0x7ff, buf); long istat = System.nanoTime() - t;
            System.out.printf("round %d: sysconf direct %.0f ns, interface %.0f ns (%.1fx); statx direct %.0f ns, interface %.0f ns (%.2fx) [%d]%n", round + 1,
                direct / 1e6, iface / 1e6, (double) iface / direct, dstat / 1e6, istat / 1e6, (double) istat / dstat, x & 1);
        }
        java.nio.file.Files.delete(f);
    }
}
