package dev.prism.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real network filesystem on this machine: an sshd of the test's own (its own configuration, host key, client key
 * and a free port on loopback) and an sshfs mount of a fresh directory through it, as {@code sshfs -o allow_other
 * localhost:/dir MNT} mounts one. sshfs makes its own inode numbers up per name, caches attributes, and every call is
 * a round trip over SFTP: what a FUSE or NFS target does to benchmarks that a local disk never shows. Needs root,
 * sshfs and openssh-server; skipped without them (failed under PRISM_REQUIRE_SSHFS=1, which scripts/test.sh sets
 * after installing them). Closing unmounts it and stops the sshd.
 *
 * <pre>{@code
 * try (var fs = dev.prism.testing.Sshfs.mount(java.nio.file.Files.createTempDirectory("sshfs"))) {
 *     System.out.println(fs.mountPoint());
 * }
 * }</pre>
 */
public final class Sshfs implements AutoCloseable {
    private final Path mountPoint;
    private final Path source;
    private final Process sshd;

    private Sshfs(Path mountPoint, Path source, Process sshd) {
        this.mountPoint = mountPoint;
        this.source = source;
        this.sshd = sshd;
    }

    /** Starts an sshd on loopback and mounts {@code directory}/src at {@code directory}/mnt through it. */
    public static Sshfs mount(Path directory) throws IOException, InterruptedException {
        boolean usable = Files.isExecutable(Path.of("/usr/sbin/sshd")) && Files.isExecutable(Path.of("/usr/bin/sshfs"))
                && Files.exists(Path.of("/dev/fuse")) && "root".equals(System.getProperty("user.name"));
        Required.require(usable, "PRISM_REQUIRE_SSHFS",
                "an sshfs target needs root, /dev/fuse, sshfs and openssh-server: run scripts/install-deps.sh --test as root");
        Path keys = Files.createDirectories(directory.resolve("ssh"));
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", keys.resolve("host").toString());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", keys.resolve("client").toString());
        Files.copy(keys.resolve("client.pub"), keys.resolve("authorized_keys"));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path config = Files.writeString(keys.resolve("sshd_config"), String.join("\n",
                "ListenAddress 127.0.0.1", "Port " + port, "HostKey " + keys.resolve("host"),
                "AuthorizedKeysFile " + keys.resolve("authorized_keys"), "PermitRootLogin prohibit-password",
                "PasswordAuthentication no", "KbdInteractiveAuthentication no", "StrictModes no", "UsePAM no",
                "PidFile " + keys.resolve("sshd.pid"), "Subsystem sftp internal-sftp", "") );
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
        Process sshd = new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", config.toString()).redirectErrorStream(true)
                .redirectOutput(keys.resolve("sshd.log").toFile()).start();
        Path source = Files.createDirectories(directory.resolve("src"));
        Path mountPoint = Files.createDirectories(directory.resolve("mnt"));
        List<String> sshfs = new ArrayList<>(List.of("sshfs", "-o", "allow_other", "-o", "port=" + port,
                "-o", "IdentityFile=" + keys.resolve("client"), "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "reconnect",
                "root@127.0.0.1:" + source, mountPoint.toString()));
        try {
            // sshd listens once it has read its configuration: the mount is tried until it answers
            Await.until("sshfs mounts " + source + " at " + mountPoint + " through the sshd on port " + port, () -> {
                if (!sshd.isAlive()) {
                    throw new IllegalStateException("sshd exited: " + Files.readString(keys.resolve("sshd.log")));
                }
                Process mount = new ProcessBuilder(sshfs).redirectErrorStream(true).start();
                String said = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                mount.waitFor(30, TimeUnit.SECONDS);
                Files.writeString(keys.resolve("sshfs.log"), said);
                return mounted(mountPoint);
            });
        } catch (AssertionError e) {
            sshd.destroyForcibly();
            throw new IOException("sshfs did not mount: " + Files.readString(keys.resolve("sshfs.log")) + "; sshd said: "
                    + Files.readString(keys.resolve("sshd.log")), e);
        }
        return new Sshfs(mountPoint, source, sshd);
    }

    /** @return where the filesystem is mounted: run benchmarks here */
    public Path mountPoint() {
        return mountPoint;
    }

    /** @return the directory it serves, for looking behind the filesystem's back */
    public Path source() {
        return source;
    }

    /** Unmounts (lazily: a test's open file cannot keep it mounted) and stops the sshd, which ends sshfs's session. */
    @Override
    public void close() throws IOException, InterruptedException {
        new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        sshd.destroy();
        if (!sshd.waitFor(10, TimeUnit.SECONDS)) {
            sshd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        // sshd -D forks a process per connection: the session sshfs held ends with the unmount; none may outlive the test
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(mountPoint.getParent().toString()))
                .forEach(ProcessHandle::destroyForcibly);
    }

    private static boolean mounted(Path mountPoint) throws IOException {
        String mine = " " + mountPoint.toAbsolutePath() + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .anyMatch(line -> line.contains(mine) && line.contains("fuse.sshfs"));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }
}
