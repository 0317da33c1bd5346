package dev.prism.posix.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel's own caches that a benchmark may need cold. */
public final class KernelCaches {
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private KernelCaches() {
    }

    /**
     * Drops the kernel's reclaimable dentries and inodes ({@code echo 2 > /proc/sys/vm/drop_caches}),
     * so that a timed open looks its path up again. Needs root; system-wide, as every cold-cache
     * benchmark's drop is. Page-cache pages are left alone (they are dropped per file with
     * posix_fadvise).
     *
     * @return what was done, for the run's notes: {@code yes}, or why not
     */
    public static String dropDentriesAndInodes() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "no (needs root: timed opens may find their paths in the dentry cache)";
        }
        try {
            Files.writeString(DROP_CACHES, "2", StandardCharsets.US_ASCII);
            return "yes";
        } catch (IOException e) {
            return "no (write to " + DROP_CACHES + " failed: " + e.getMessage() + ")";
        }
    }
}
