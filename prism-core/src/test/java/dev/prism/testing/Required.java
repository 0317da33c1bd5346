package dev.prism.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What a test needs from the machine, checked the same way everywhere: without it the test is
 * skipped with the reason, unless the variable scripts/test.sh sets where it installed and started
 * that thing (PRISM_REQUIRE_SLURM=1, PRISM_REQUIRE_TORCH=1) says it must be there, which turns its
 * absence into a failure.
 */
public final class Required {
    private Required() {
    }

    /** Skips (or fails, under PRISM_REQUIRE_SLURM=1) unless a SLURM node answers idle, mixed or allocated. */
    public static void slurm() {
        boolean up;
        try {
            Process sinfo = new ProcessBuilder("sinfo", "-h", "-o", "%t").redirectErrorStream(true).start();
            String states = new String(sinfo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            up = sinfo.waitFor(20, TimeUnit.SECONDS) && sinfo.exitValue() == 0 && states.matches("(?s).*(idle|mix|alloc).*");
        } catch (IOException e) {
            up = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            up = false;
        }
        require(up, "PRISM_REQUIRE_SLURM", "no SLURM node is up: run scripts/slurm-up.sh as root");
    }

    /**
     * Skips (or fails, under {@code variable}=1) unless {@code present}.
     *
     * @param why what is missing and how to get it
     */
    public static void require(boolean present, String variable, String why) {
        if (!present && "1".equals(System.getenv(variable))) {
            throw new AssertionError(variable + "=1 but " + why);
        }
        Assumptions.assumeTrue(present, why);
    }

    /** Skips (or fails, under PRISM_REQUIRE_ROOT=1, which scripts/test.sh sets as root) unless this JVM runs as root. */
    public static void root(String why) {
        require(isRoot(), "PRISM_REQUIRE_ROOT", why + ", and this is not root");
    }

    /**
     * Skips (or fails, under PRISM_REQUIRE_LOOP=1, which scripts/test.sh sets as root) unless loop-mounted ext4 images
     * can be made here: root, mount(8) and mkfs.ext4 (e2fsprogs, which scripts/install-deps.sh installs).
     */
    public static void loopMounts() {
        boolean root = isRoot();
        boolean mount = java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/bin/mount"))
                || java.nio.file.Files.isExecutable(java.nio.file.Path.of("/bin/mount"));
        boolean mkfs = java.nio.file.Files.isExecutable(java.nio.file.Path.of("/sbin/mkfs.ext4"))
                || java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/sbin/mkfs.ext4"));
        require(root && mount && mkfs, "PRISM_REQUIRE_LOOP", "loop-mounted images need root (" + root + "), mount(8) ("
                + mount + ") and mkfs.ext4 (" + mkfs + ")");
    }

    /** Skips (or fails, under PRISM_REQUIRE_LOOP=1) when a command a loop mount needs failed, with its output. */
    public static void loopCommandFailed(String command, String output) {
        require(false, "PRISM_REQUIRE_LOOP", command + " failed: " + output);
    }

    /** Skips (or fails, under PRISM_REQUIRE_TMPFS=1, which scripts/test.sh sets) unless /dev/shm is a tmpfs. */
    public static void tmpfsAtDevShm() {
        boolean tmpfs;
        try {
            tmpfs = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/mounts")).stream()
                    .map(l -> l.split(" ")).anyMatch(f -> f.length > 2 && f[1].equals("/dev/shm") && f[2].equals("tmpfs"));
        } catch (IOException e) {
            tmpfs = false;
        }
        require(tmpfs, "PRISM_REQUIRE_TMPFS", "no tmpfs at /dev/shm");
    }

    private static boolean isRoot() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }
}
