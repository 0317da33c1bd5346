package dev.prism.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real FUSE filesystem that delays or fails operations by rule ({@code faultfs.c} beside this
 * class, compiled against Debian's libfuse3 on first use): the independent observer for tests of
 * what PRISM measures and how it reports failures. Mounted over a fresh source directory; closing
 * unmounts it. Needs root, /dev/fuse, gcc and libfuse3-dev; the test is skipped without them
 * (failed under PRISM_REQUIRE_FUSE=1, which scripts/test.sh sets after installing them).
 *
 * <pre>{@code
 * try (FaultFs fs = FaultFs.mount(tempDir)) {
 *     fs.rule("open", "/dir/*", Duration.ofMillis(20), null);   // every open under /dir takes 20 ms more
 *     fs.rule("fsync", "*", Duration.ZERO, "EIO");              // every fsync fails with EIO
 *     // … run a benchmark against fs.mountPoint() …
 *     fs.log();   // "open /dir/a", … every operation the filesystem served
 * }
 * }</pre>
 */
public final class FaultFs implements AutoCloseable {
    private static Path binary;

    private final Path mountPoint;
    private final Path source;
    private final Path rules;
    private final Path log;
    private final Process process;
    private final List<String> ruleLines = new ArrayList<>();

    private FaultFs(Path mountPoint, Path source, Path rules, Path log, Process process) {
        this.mountPoint = mountPoint;
        this.source = source;
        this.rules = rules;
        this.log = log;
        this.process = process;
    }

    /** Mounts a fresh faultfs at {@code directory}/mnt over {@code directory}/src, with no rules yet. */
    public static FaultFs mount(Path directory) throws IOException, InterruptedException {
        Path exe = build();
        Path source = Files.createDirectories(directory.resolve("src"));
        Path mountPoint = Files.createDirectories(directory.resolve("mnt"));
        Path rules = Files.writeString(directory.resolve("rules"), "");
        Path log = directory.resolve("ops.log");
        Process process = new ProcessBuilder(exe.toString(), source.toString(), mountPoint.toString(), rules.toString(),
                log.toString()).redirectErrorStream(true).redirectOutput(directory.resolve("faultfs.out").toFile()).start();
        Await.until("faultfs mounts at " + mountPoint + " (or exits)", () -> mounted(mountPoint) || !process.isAlive());
        if (!mounted(mountPoint)) {
            process.destroyForcibly();
            throw new IOException("faultfs did not mount at " + mountPoint + ": " + Files.readString(directory.resolve("faultfs.out")));
        }
        return new FaultFs(mountPoint, source, rules, log, process);
    }

    /** @return where the filesystem is mounted: run benchmarks here */
    public Path mountPoint() {
        return mountPoint;
    }

    /** @return the directory it serves, for looking behind the filesystem's back */
    public Path source() {
        return source;
    }

    /**
     * Adds a rule, first added first matched: {@code operation} (a FUSE operation such as open,
     * create, read, write, fsync, unlink, rename, getattr, or "*") on paths matching {@code pattern}
     * (fnmatch, over the path inside the filesystem, e.g. "/data/*") waits {@code delay},
     * then fails with {@code errno} (a name such as "EIO", or null for none). Takes effect at once. The errno
     * {@code "FLIP"} on a read is silent corruption: the read succeeds with the last byte it returns inverted. On a
     * getattr, {@code "STALE"} reports one link whatever the file has (an attribute cache that has not seen new hard
     * links) and {@code "NOINO"} an inode number made up from the name (two names of one file differ).
     */
    public FaultFs rule(String operation, String pattern, Duration delay, String errno) throws IOException {
        ruleLines.add(operation + " " + pattern + " " + TimeUnit.NANOSECONDS.toMicros(delay.toNanos()) + " "
                + (errno == null ? "0" : errno));
        writeRules();
        return this;
    }

    /** Removes every rule. */
    public FaultFs clearRules() throws IOException {
        ruleLines.clear();
        writeRules();
        return this;
    }

    private void writeRules() throws IOException {
        // a fresh file renamed into place (a new inode): faultfs reads it again on its next operation
        Path next = rules.resolveSibling("rules.next");
        Files.writeString(next, String.join("\n", ruleLines) + "\n");
        Files.move(next, rules, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** @return every operation served so far, as "OPERATION PATH" lines in the order served */
    public List<String> log() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    /** Forgets the operations logged so far. */
    public void clearLog() throws IOException {
        Files.writeString(log, "");
    }

    /**
     * Stops the filesystem and unmounts it (lazily, so a test's open file cannot keep it mounted). The daemon is
     * killed first: its connection is aborted, so a process still waiting in one of its delayed requests gets ENOTCONN
     * at once instead of waiting out the delay.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
    }

    private static boolean mounted(Path mountPoint) throws IOException {
        String mine = " " + mountPoint.toAbsolutePath() + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .anyMatch(line -> line.contains(mine) && line.contains("fuse.faultfs"));
    }

    /** Compiles faultfs once per JVM into target/, skipping (or failing) the test where that cannot be done. */
    private static synchronized Path build() throws IOException, InterruptedException {
        if (binary != null) {
            return binary;
        }
        boolean usable = Files.exists(Path.of("/dev/fuse")) && Files.exists(Path.of("/usr/include/fuse3/fuse.h"))
                && (Files.isExecutable(Path.of("/usr/bin/fusermount3")) || Files.isExecutable(Path.of("/bin/fusermount3")))
                && "root".equals(System.getProperty("user.name"));
        Required.require(usable, "PRISM_REQUIRE_FUSE",
                "faultfs needs root, /dev/fuse, fuse3 and libfuse3-dev: run scripts/install-deps.sh --test as root");
        Path dir = Files.createDirectories(Path.of("target", "faultfs").toAbsolutePath());
        Path c = dir.resolve("faultfs.c");
        try (InputStream in = FaultFs.class.getResourceAsStream("faultfs.c")) {
            Files.write(c, in.readAllBytes());
        }
        Path exe = dir.resolve("faultfs-" + ProcessHandle.current().pid());
        Process gcc = new ProcessBuilder("sh", "-c", "gcc -O2 -Wall -o '" + exe + "' '" + c
                + "' $(pkg-config --cflags --libs fuse3)").redirectErrorStream(true).start();
        String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
            throw new IOException("could not compile faultfs: " + out);
        }
        binary = exe;
        return exe;
    }
}
