package dev.prism.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another unprivileged user of the machine, made for one test and removed after it: a system user of its own
 * ({@code useradd --system prism-neighbour-XXXXXXXX}) running {@code neighbour.py} (inotify through ctypes, the standard
 * library of {@code /usr/bin/python3} only) through {@code setpriv}, which, in the directories it may write, renames a
 * link to a root-only file (or directory) or a FIFO over every name root's {@code prism} makes there the moment inotify
 * reports it, and flips named files with a FIFO and a link for as long as it runs. Root-only things to aim at
 * ({@link #secret}, {@link #secretDirectory}, which holds a root-only file {@code kept}) are made beside it, with what a test asserts of them: {@link
 * #assertRootOnlyUnchanged} (content, mode and owner as they were, nothing created in them through a link) and
 * {@link #assertNoRootOnlyByte} (neither the secret's text nor any digest of it in an output). Planted programs and
 * modules ({@link #plantPythonInterpreter}, {@link #plantPythonModules}) leave a marker when anything runs them:
 * {@link #assertNothingPlantedRan}.
 *
 * <p>Needs root (to make the user) and {@code useradd}, {@code userdel}, {@code setpriv}, {@code /usr/bin/python3}:
 * without them the test is skipped saying so, or fails under {@code PRISM_REQUIRE_NEIGHBOUR=1}. The neighbour process
 * is stopped and reaped by its PID, and the user removed, whatever happens: on {@link #close}, and from a shutdown hook
 * if the JVM ends first.
 *
 * <pre>{@code
 * try (dev.prism.testing.Neighbour neighbour = dev.prism.testing.Neighbour.create(java.nio.file.Path.of("/tmp/work"))) {
 *     java.nio.file.Path project = neighbour.sharedDirectory("project");
 *     neighbour.race(dev.prism.testing.Neighbour.Mode.LINK, java.util.List.of(project), java.util.List.of());
 *     // ... root's prism writes into project ...
 *     java.util.List<String> swaps = neighbour.stop();
 *     neighbour.assertRootOnlyUnchanged();
 * }
 * }</pre>
 */
public final class Neighbour implements AutoCloseable {
    /** What the neighbour puts over each name that appears (see neighbour.py). */
    public enum Mode {
        /** a link to the secret over a file, a link to the secret directory over a directory */
        LINK,
        /** a FIFO over a file */
        FIFO,
        /** link and FIFO in turn */
        MIXED
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private final String user;
    private final int uid;
    private final int gid;
    private final Path home;
    private final Path rootOnly;
    private final Path secret;
    private final Path secretDirectory;
    private final Path markers;
    private final String token;
    private final Map<String, String> rootOnlyBefore;
    private final Thread hook;
    private Process process;
    private Path state;
    private int races;
    private boolean closed;

    private Neighbour(String user, int uid, int gid, Path home) throws IOException {
        this.user = user;
        this.uid = uid;
        this.gid = gid;
        this.home = home;
        this.hook = new Thread(this::release, "neighbour-" + user + "-removal");
        Runtime.getRuntime().addShutdownHook(hook);
        // what the neighbour aims its links at: a file and a directory only root may read or enter
        rootOnly = Files.createDirectory(home.resolve("root-only"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        token = "PRISMROOTONLY" + HexFormat.of().formatHex(RANDOM.generateSeed(12));
        secret = rootOnly.resolve("secret");
        Files.writeString(secret, token + "\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        secretDirectory = Files.createDirectory(rootOnly.resolve("directory"));
        Files.setPosixFilePermissions(secretDirectory, PosixFilePermissions.fromString("rwx------"));
        // a file in it too: a removal that follows the link to the directory shows as this file gone
        Path kept = Files.writeString(secretDirectory.resolve("kept"), token + "\n");
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-------"));
        rootOnlyBefore = snapshot(rootOnly);
        // where planted programs say they ran: anyone may write it, so the marker comes whoever ran them
        markers = Files.createDirectory(home.resolve("planted-ran"));
        Files.setPosixFilePermissions(markers, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    /**
     * Skips the test (or the container, called from a {@code @BeforeAll}) where no neighbour can be made: not root, or
     * {@code useradd}, {@code userdel}, {@code setpriv} or {@code /usr/bin/python3} missing; fails instead under
     * {@code PRISM_REQUIRE_NEIGHBOUR=1}.
     */
    public static void require() throws IOException {
        boolean root = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/bin/setpriv", PYTHON.toString())) {
            if (!Files.isExecutable(Path.of(tool))) {
                missing.add(tool);
            }
        }
        Required.require(root, "PRISM_REQUIRE_NEIGHBOUR", "the neighbour tests make a user of their own: they need root");
        Required.require(missing.isEmpty(), "PRISM_REQUIRE_NEIGHBOUR", "the neighbour tests need " + missing
                + " (Debian: passwd, util-linux, python3)");
    }

    /**
     * Makes the neighbour's user and the root-only file and directory in {@code home}, which it makes enterable by
     * others ({@code 0755}: a JUnit temporary directory is 0700). Skips the test where this is not root or a tool is
     * missing.
     */
    public static Neighbour create(Path home) throws IOException, InterruptedException {
        require();
        String user = "prism-neighbour-" + HexFormat.of().formatHex(RANDOM.generateSeed(4));
        String made = run(List.of("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                "--user-group", user));
        int uid;
        int gid;
        try {
            uid = Integer.parseInt(run(List.of("id", "-u", user)).strip());
            gid = Integer.parseInt(run(List.of("id", "-g", user)).strip());
            assertThat(uid).as("the neighbour is not root (useradd said: %s)", made).isPositive();
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException | RuntimeException | Error e) {
            removeUser(user);
            throw e;
        }
        try {
            return new Neighbour(user, uid, gid, home);
        } catch (IOException | RuntimeException | Error e) {
            removeUser(user);
            throw e;
        }
    }

    /** @return the neighbour's user name */
    public String user() {
        return user;
    }

    /** @return the neighbour's uid */
    public int uid() {
        return uid;
    }

    /** @return the root-only file (0600) its links point at */
    public Path secret() {
        return secret;
    }

    /** @return the root-only directory (0700) its links to directories point at */
    public Path secretDirectory() {
        return secretDirectory;
    }

    /** @return the secret's text, which no output may hold */
    public String token() {
        return token;
    }

    /**
     * @return a new group project directory {@code name} in the home: root's, mode 0777 and not sticky, so the neighbour
     * may rename or remove anything in it, root's files included
     */
    public Path sharedDirectory(String name) throws IOException {
        Path dir = Files.createDirectories(home.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    /** Makes {@code path} itself (a link: the link) the neighbour's, as if it had made it. */
    public void own(Path path) throws IOException {
        Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Plants {@code directory/.venv/bin/python}, the neighbour's: a program that, when anything runs it, leaves a marker
     * (with the uid it ran as) and then runs the system's Python as asked, so that a command that ran it goes on as if
     * nothing happened.
     *
     * @return the planted program
     */
    public Path plantPythonInterpreter(Path directory) throws IOException {
        Path bin = Files.createDirectories(directory.resolve(".venv/bin"));
        Path python = bin.resolve("python");
        String marker = markers.resolve("venv-python-" + Math.abs(directory.toString().hashCode())).toString();
        Files.writeString(python, "#!/bin/sh\necho \"$(id -u) $0 $*\" >> '" + marker + "'\nexec " + PYTHON + " \"$@\"\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(bin.resolve("python3"), Path.of("python"));
        Files.writeString(directory.resolve(".venv/pyvenv.cfg"), "home = /usr/bin\n");
        for (Path p : List.of(bin.resolve("python3"), python, directory.resolve(".venv/pyvenv.cfg"), bin, bin.getParent())) {
            own(p);
        }
        return python;
    }

    /**
     * Plants a module {@code name.py} for each of {@code names} in {@code directory}, the neighbour's, each leaving a
     * marker when imported: an interpreter that has {@code directory} on its {@code sys.path} runs the neighbour's code.
     */
    public void plantPythonModules(Path directory, String... names) throws IOException {
        for (String name : names) {
            Path module = directory.resolve(name + ".py");
            Files.writeString(module, "import os\nwith open(" + pythonString(markers.resolve("module-" + name).toString())
                    + ", 'a') as f:\n    f.write('%d %s\\n' % (os.getuid(), __file__))\n");
            Files.setPosixFilePermissions(module, PosixFilePermissions.fromString("rw-r--r--"));
            own(module);
        }
    }

    private static String pythonString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** Fails naming every marker a planted program or module left, and who it ran as. */
    public void assertNothingPlantedRan() throws IOException {
        Map<String, String> ran = new TreeMap<>();
        try (Stream<Path> files = Files.list(markers)) {
            for (Path m : files.toList()) {
                ran.put(m.getFileName().toString(), Files.readString(m));
            }
        }
        assertThat(ran).as("code the neighbour planted ran (marker: uid and how)").isEmpty();
    }

    /**
     * Starts the neighbour racing in {@code watch} (each a directory it may read and write) with {@code mode}, and
     * flipping each of {@code flips} (files in directories it may write); returns once it said it is ready (every watch
     * set). One race at a time: {@link #stop} ends it.
     */
    public void race(Mode mode, List<Path> watch, List<Path> flips) throws IOException {
        race(mode, watch, flips, List.of());
    }

    /**
     * As {@link #race(Mode, List, List)}, and the moment the first name appears in a watched directory (root found it
     * empty and began), makes each of {@code plants} there: a link to {@link #secretDirectory}, in place of a name root
     * is about to make. The neighbour may do that where it cannot rename what root made (a sticky directory).
     */
    public void race(Mode mode, List<Path> watch, List<Path> flips, List<String> plants) throws IOException {
        if (process != null) {
            throw new IllegalStateException("the neighbour is racing already");
        }
        state = Files.createDirectory(home.resolve("neighbour-state-" + races++));
        own(state);
        Path script = state.resolve("neighbour.py");
        try (InputStream in = Neighbour.class.getResourceAsStream("neighbour.py")) {
            Files.write(script, in.readAllBytes());
        }
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + gid,
                "--clear-groups", "--", PYTHON.toString(), "-I", script.toString(), state.toString(), secret.toString(),
                secretDirectory.toString(), mode.name().toLowerCase(java.util.Locale.ROOT)));
        for (Path f : flips) {
            command.addAll(List.of("--flip", f.toString()));
        }
        for (String name : plants) {
            command.addAll(List.of("--plant", name));
        }
        watch.forEach(w -> command.add(w.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(state.resolve("neighbour.log").toFile());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().put("HOME", "/");
        process = pb.start();
        Path ready = state.resolve("ready");
        Process started = process;
        Await.until("the neighbour " + user + " says it is ready (or exits)", () -> Files.exists(ready) || !started.isAlive());
        if (!started.isAlive()) {
            String log = Files.readString(state.resolve("neighbour.log"));
            stop();
            throw new AssertionError("the neighbour exited before it was ready: " + log);
        }
    }

    /** @return the swaps the racing neighbour made so far, as {@link #stop} returns them; none before a race */
    public List<String> swapsSoFar() throws IOException {
        Path actions = state == null ? null : state.resolve("actions");
        return actions != null && Files.exists(actions) ? Files.readAllLines(actions) : List.of();
    }

    /**
     * Stops the neighbour (SIGTERM, then SIGKILL), reaps it by its PID and fails if it did not race as asked (it
     * exited by itself, or said so in its log).
     *
     * @return every swap it made, one line each ({@code link PATH}, {@code fifo PATH}, {@code dir PATH}, {@code flip
     * PATH N}, {@code plant PATH})
     */
    public List<String> stop() throws IOException {
        if (process == null) {
            return List.of();
        }
        Process p = process;
        process = null;
        boolean exitedByItself = !p.isAlive();
        reap(p);
        String log = Files.readString(state.resolve("neighbour.log"));
        Path actions = state.resolve("actions");
        List<String> done = Files.exists(actions) ? Files.readAllLines(actions) : List.of();
        assertThat(exitedByItself).as("the neighbour stopped racing by itself: %s", log).isFalse();
        assertThat(log).as("the neighbour's log").doesNotContain("Traceback");
        assertThat(done).as("the neighbour's flips never failed").noneMatch(l -> l.startsWith("flip-failed"));
        return done;
    }

    private static void reap(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Fails naming each root-only file or directory whose content, mode or owner changed, or that appeared. */
    public void assertRootOnlyUnchanged() throws IOException {
        Map<String, String> now = snapshot(rootOnly);
        List<String> changes = new ArrayList<>();
        rootOnlyBefore.forEach((path, was) -> {
            String is = now.get(path);
            if (is == null) {
                changes.add("removed: " + path);
            } else if (!is.equals(was)) {
                changes.add("changed: " + path + " (" + was + " -> " + is + ")");
            }
        });
        List<String> added = now.keySet().stream().filter(p -> !rootOnlyBefore.containsKey(p)).toList();
        if (!added.isEmpty()) {
            changes.add("created: " + added.size() + " (" + added.get(0) + (added.size() > 1 ? ", ..., "
                    + added.get(added.size() - 1) : "") + ")");
        }
        assertThat(changes).as("what root did to the root-only file and directory " + rootOnly).isEmpty();
    }

    /** Fails when {@code text} holds the secret's text or its MD5, SHA-1 or SHA-256 (hex, either case). */
    public void assertNoRootOnlyByte(String what, String text) {
        for (String leak : leaks()) {
            assertThat(text.toLowerCase(java.util.Locale.ROOT)).as("%s holds the root-only file's text or a digest of it",
                    what).doesNotContain(leak.toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** {@link #assertNoRootOnlyByte} for every regular file under {@code directory} (links not followed). */
    public void assertNoRootOnlyByteUnder(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path f : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                if (f.startsWith(rootOnly) || Files.size(f) > (64L << 20)) {
                    continue;
                }
                assertNoRootOnlyByte(f.toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
    }

    private List<String> leaks() {
        byte[] content = (token + "\n").getBytes(StandardCharsets.UTF_8);
        List<String> leaks = new ArrayList<>(List.of(token));
        for (String algorithm : List.of("MD5", "SHA-1", "SHA-256")) {
            try {
                leaks.add(HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return leaks;
    }

    /** @return each path under {@code root} (itself included) with its type, mode, owner and content's SHA-256 */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> seen = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root, EnumSet.noneOf(FileVisitOption.class).toArray(FileVisitOption[]::new))) {
            for (Path p : walk.toList()) {
                Map<String, Object> a = Files.readAttributes(p, "unix:mode,uid,gid,size", LinkOption.NOFOLLOW_LINKS);
                String digest = "";
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    try {
                        digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
                    } catch (NoSuchAlgorithmException e) {
                        throw new IllegalStateException(e);
                    }
                }
                seen.put(root.relativize(p).toString(), String.format("mode %o uid %s gid %s size %s %s",
                        (Integer) a.get("mode"), a.get("uid"), a.get("gid"), a.get("size"), digest));
            }
        }
        return seen;
    }

    /** Stops the neighbour if it still races and removes its user; the files it made stay for the test's clean-up. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        release();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran: it does the same
        }
    }

    private synchronized void release() {
        if (closed) {
            return;
        }
        closed = true;
        Process p = process;
        process = null;
        if (p != null) {
            reap(p);
        }
        removeUser(user);
    }

    private static void removeUser(String user) {
        try {
            run(List.of("/usr/sbin/userdel", user));
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("could not remove the neighbour's user " + user + ": "
                    + e.getMessage(), e));
        }
    }

    /** Runs a command of the test's own (useradd, id, userdel) and returns its output; fails on a non-zero exit. */
    private static String run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command + " did not end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + command, e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(command + " exited " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }
}
