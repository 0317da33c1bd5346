package dev.prism.internal.files;

import dev.prism.spi.Directories;

import dev.prism.spi.Errno;

import dev.prism.PrismException;
import dev.prism.TargetException;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one directory a scenario may write to, {@code <target>/prism-<runId>}: refuses bad targets,
 * makes the rank directories and removes the tree without following symbolic links.
 */
public final class RunDirectory {
    private RunDirectory() {
    }

    /**
     * Filesystems that are the kernel's interfaces, not storage: writing test files there as root creates device nodes'
     * neighbours, control files, cgroups. tmpfs and ramfs are storage of a kind (memory) and stay allowed.
     */
    private static final java.util.Set<String> PSEUDO_FILESYSTEMS = java.util.Set.of("devtmpfs", "devpts", "proc", "sysfs",
            "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "pstore", "bpf", "configfs", "efivarfs", "mqueue",
            "binfmt_misc", "fusectl", "hugetlbfs", "autofs", "rpc_pipefs", "nsfs", "selinuxfs");

    /**
     * Checks {@code target} and creates {@code <target>/prism-<runId>}, mode 0700 (only this user may enter it).
     *
     * @throws TargetException when the target is {@code /}, missing, not a directory, on a filesystem of the kernel's
     *                         own (devtmpfs, proc, sysfs, cgroup…) or not writable
     */
    public static Path create(Path target, String runId) {
        Path absolute = target.toAbsolutePath().normalize();
        if (absolute.getParent() == null) {
            throw new TargetException("target " + absolute + " is the root directory; PRISM writes test files,"
                    + " so give it a directory on the filesystem to qualify, e.g. /mnt/nfs/prism-test");
        }
        if (!Files.exists(absolute)) {
            throw new TargetException("target " + absolute + " does not exist; create it first (mkdir -p "
                    + absolute + ")");
        }
        if (!Files.isDirectory(absolute)) {
            throw new TargetException("target " + absolute + " is not a directory");
        }
        try {
            if (absolute.toRealPath().getParent() == null) {
                throw new TargetException("target " + absolute + " resolves to the root directory /; give it a"
                        + " directory on the filesystem to qualify");
            }
        } catch (IOException e) {
            throw new TargetException("target " + absolute + " cannot be resolved: " + describe(e), e);
        }
        String type = dev.prism.TargetInfo.of(absolute).filesystemType();
        if (PSEUDO_FILESYSTEMS.contains(type)) {
            throw new TargetException("target " + absolute + " is on " + type + ", a filesystem of the kernel's own (devices,"
                    + " processes, control files), not storage: refused, as PRISM writes there as " + System.getProperty("user.name")
                    + "; give it a directory on the filesystem to qualify");
        }
        Path runDirectory = absolute.resolve("prism-" + runId);
        // made relative to the target held by its descriptor, opened without following a link, checked on that
        // descriptor (ours, empty) and marked through it: a directory swapped into its place the moment it was made
        // (another of ours, holding something) is refused, never marked as this run's
        try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.open(absolute);
             // 0700: another user of the machine can neither read what the benchmarks write nor plant anything below it
             dev.prism.spi.HeldDirectory made = held.makeDirectory(runDirectory.getFileName().toString(), 0700)) {
            if (!isOursAndEmpty(made)) {
                throw new TargetException("run directory " + runDirectory + " was replaced the moment it was made (by"
                        + " someone who may write the target): refused, nothing is written there");
            }
            made.markRun(runId);
        } catch (FileAlreadyExistsException e) {
            throw new TargetException("run directory " + runDirectory + " already exists; choose another run id");
        } catch (IOException e) {
            String now = nowInPlace(runDirectory, null);
            if (now != null && !now.startsWith("gone")) {
                // made, then swapped for a link or a file before it was opened: refused, and said so
                throw new TargetException(swapped(runDirectory, now).getMessage(), e);
            }
            // creating the directory is the real test: it says why (read-only file system, permission denied…)
            throw new TargetException("target " + absolute + " is not writable by user " + System.getProperty("user.name")
                    + ": cannot create " + runDirectory + ": " + describe(e), e);
        }
        return runDirectory;
    }

    /**
     * @return whether {@code made}, a run directory just made, is still what {@code mkdir} made, judged on its
     *         descriptor: this user's and empty (a directory swapped into its place at once is another's, or holds
     *         something)
     */
    public static boolean isOursAndEmpty(dev.prism.spi.HeldDirectory made) throws IOException {
        int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        try (java.util.stream.Stream<Path> entries = Files.list(made.procPath())) {
            return made.ownerUid() == self && entries.findAny().isEmpty();
        }
    }

    /**
     * @return the identity (device and inode) of the directory {@code runDirectory} names, not following a link; null
     *         when the file system has none that lasts: a FUSE file system may number a directory anew each time the
     *         kernel looks it up again (sshfs does), so there only "still a directory, not a link" is checked
     */
    public static Object identity(Path runDirectory, String runId) throws IOException {
        if (dev.prism.TargetInfo.of(runDirectory).filesystemType().startsWith("fuse")) {
            return null;
        }
        // the directory marked as this run's, read through the descriptor the identity is taken from
        try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.openRun(runDirectory, runId)) {
            return held.attributes().fileKey();
        } catch (IOException e) {
            String now = nowInPlace(runDirectory, null);
            if (now != null) {
                throw swapped(runDirectory, now);
            }
            if (e instanceof AccessDeniedException denied && denied.getReason() != null) {
                throw new PrismException("run directory " + runDirectory + " " + denied.getReason()
                        + "; nothing more is written there or removed from it");
            }
            throw e;
        }
    }

    /**
     * @return what is at {@code runDirectory}, read once without following a link: null for a directory that is
     *         {@code identity} (any directory when {@code identity} is null), else a link, another directory, a file,
     *         or gone
     */
    private static String nowInPlace(Path runDirectory, Object identity) {
        try {
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(runDirectory,
                    java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isDirectory()) {
                return identity == null || identity.equals(a.fileKey()) ? null : "another directory";
            }
            return a.isSymbolicLink() ? "a link to " + Files.readSymbolicLink(runDirectory) : "a file";
        } catch (IOException e) {
            return "gone (" + describe(e) + ")";
        }
    }

    private static PrismException swapped(Path runDirectory, String now) {
        return new PrismException("run directory " + runDirectory + " is no longer the directory this run made: it is now "
                + now + ", put there by someone who may write the target; nothing more is written there or removed from it");
    }

    /**
     * Checks that {@code runDirectory} is still the directory this run made ({@code identity}), not a link or another
     * directory put in its place by someone who may write the target.
     *
     * @throws PrismException naming it and what it is now
     */
    public static void requireSame(Path runDirectory, Object identity) {
        String now = nowInPlace(runDirectory, identity);
        if (now != null) {
            throw swapped(runDirectory, now);
        }
    }

    /**
     * @return why {@code target} lets another user swap the run directory for a link while the run writes there: a
     *         directory others may write without the sticky bit (they may rename what is in it), or one another user
     *         owns; empty when only root and this user may
     */
    public static java.util.Optional<String> exposure(Path target) {
        try {
            Path absolute = target.toAbsolutePath().normalize();
            // the test --out's directories pass (SafeChain), on the target itself: the run directory is an entry of it
            String who = SafeChain.whoMaySwap(absolute.toRealPath(), SafeChain.self());
            if (who == null) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of("target " + absolute + " " + who + ": another user could rename the run directory"
                    + " and put a link in its place while this run writes there as " + System.getProperty("user.name")
                    + "; PRISM checks it before each repetition and before its clean-up and stops if it was swapped, and within"
                    + " a repetition PRISM's benchmarks and the programs they start reach it through a descriptor, but"
                    + " access=nio and a Java workload's own calls go by path: make the target sticky (chmod +t "
                    + absolute + "), as /tmp is, or use a directory only you can change");
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty(); // not a POSIX file system here: nothing to say
        }
    }

    /**
     * Empties {@code runDirectory} and makes {@code rank-0 … rank-(tasks-1)} and {@code shared} in it. Emptying is
     * PRISM's own work between repetitions: what it cannot remove (an {@code rmdir} the storage refuses) is said, not
     * thrown, and a directory left behind is used as it is; only a link or a file where a directory must go, or a
     * directory that cannot be made, stops the repetition. With {@code keepFixtures} the {@value Fixtures#PREFIX}…
     * directories stay: a later warm-up or repetition of the same configuration reuses its read-only fixtures
     * ({@link Fixtures}).
     *
     * <p>It is done for run {@code runId}'s directory, whose {@link #identity} is {@code identity} (null: none that
     * lasts): it is opened once, checked on its descriptor to be that directory, its mark put back when a workload
     * removed it, and the directories are made through that descriptor; the emptying enters only that directory.
     * Another directory put in its place (one of root's, which another user who may write the target can move there)
     * is neither emptied nor written to.
     *
     * @return null when the directory was emptied, else what could not be removed
     * @throws IOException    when a directory the ranks need cannot be made
     * @throws PrismException naming the run directory when another directory is in its place
     */
    public static String prepare(Path runDirectory, Object identity, String runId, int tasks, boolean keepFixtures)
            throws IOException {
        requireRealDirectory(runDirectory);
        try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.openOwned(runDirectory)) {
            if (identity != null && !identity.equals(held.attributes().fileKey())) {
                throw new PrismException("run directory " + runDirectory + " is no longer the directory this run made: it"
                        + " is now another directory, put there by someone who may write the target; nothing more is"
                        + " written there or removed from it");
            }
            if (runId != null && !runId.equals(held.runMark())) {
                held.markRun(runId); // a workload that removed or changed the mark: this is the directory, by identity
            }
            Removal removal = new Removal(runDirectory);
            removal.contentsOf(runDirectory, name -> name.equals(dev.prism.spi.HeldDirectory.RUN_MARK)
                    || keepFixtures && name.startsWith(Fixtures.PREFIX), identity);
            held.makeOrKeepDirectory("shared", 0755).close();
            for (int rank = 0; rank < tasks; rank++) {
                held.makeOrKeepDirectory(rankDirectory(runDirectory, rank).getFileName().toString(), 0755).close();
            }
            return removal.complete() ? null : removal.summary();
        }
    }

    /** @return where {@code rank} rehearses in {@code runDirectory}: {@code rehearsal-<r>}, beside its own directory */
    public static Path rehearsalDirectory(Path runDirectory, int rank) {
        return runDirectory.resolve("rehearsal-" + rank);
    }

    /**
     * After a rank removed its own directories with nobody else to clean up (its parent or rank 0 died, a node-local
     * target): when no rank's directory is left in {@code runDirectory}, removes its {@code shared} directory and
     * the run directory itself. Each rank removes its own first and looks after, so the last one out always sees
     * the others gone; two that both see it remove {@code shared} side by side, harmlessly.
     *
     * @return null when nothing is left or another rank is still at work (it takes the rest), else what was left
     */
    public static String removeIfLastRank(Path runDirectory) {
        try (java.util.stream.Stream<Path> entries = Files.list(runDirectory)) {
            if (entries.anyMatch(p -> p.getFileName().toString().startsWith("rank-")
                    || p.getFileName().toString().startsWith("rehearsal-"))) {
                return null;
            }
        } catch (IOException e) {
            return null; // gone already, or taken by another rank
        }
        Removal shared = remove(runDirectory.resolve("shared"));
        java.util.List<String> left = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> entries = Files.list(runDirectory)) {
            for (Path fixtures : entries.filter(p -> p.getFileName().toString().startsWith(Fixtures.PREFIX)).toList()) {
                Removal removal = remove(fixtures);
                if (!removal.complete()) {
                    left.add(removal.summary());
                }
            }
        } catch (IOException e) {
            // gone already, or taken by another rank
        }
        removeIfEmpty(runDirectory);
        if (!left.isEmpty()) {
            return String.join("; ", left);
        }
        return shared.complete() ? null : shared.summary();
    }

    /** @return the directory of {@code rank} in {@code runDirectory}: {@code rank-<r>} */
    public static Path rankDirectory(Path runDirectory, int rank) {
        return runDirectory.resolve("rank-" + rank);
    }

    /**
     * Removes everything inside {@code directory}, never following symbolic links (see {@link #remove}).
     *
     * @throws IOException summarising what was left, after trying every entry
     */
    public static void deleteContents(Path directory) throws IOException {
        emptied(directory).throwIfIncomplete();
    }

    /** @return the removal of everything inside {@code directory}, a real directory, after trying every entry */
    private static Removal emptied(Path directory) {
        requireRealDirectory(directory);
        Removal removal = new Removal(directory);
        removal.contentsOf(directory);
        return removal;
    }

    /**
     * Removes {@code root} and everything below it, never following a symbolic link (see {@link #remove}).
     *
     * @throws IOException summarising what was left, after trying every entry
     */
    public static void deleteTree(Path root) throws IOException {
        Removal removal = remove(root);
        removal.throwIfIncomplete();
    }

    /**
     * Removes {@code root} and everything below it as coreutils' {@code rm -r} does: by directory
     * descriptor. Each directory is opened relative to its parent's descriptor with
     * {@code O_NOFOLLOW}, checked to be the same device and inode that was seen before opening it,
     * and its entries are removed with {@code unlinkat} relative to it, so a directory swapped for a
     * link during the walk never leads outside the tree. A symbolic link is removed itself. An error
     * does not stop the walk: every other entry is still tried, and the result says what was left.
     *
     * @return what could not be removed (nothing when {@link Removal#complete()})
     */
    public static Removal remove(Path root) {
        Removal removal = new Removal(root);
        remove(root, removal);
        return removal;
    }

    /**
     * Removes {@code directory} when it is empty (rmdir: a symbolic link there is removed itself, never followed);
     * does nothing when it still holds something or is gone. A rank that removed its own directory after losing
     * rank 0 uses it, so the last one out leaves no empty run directory behind.
     */
    public static void removeIfEmpty(Path directory) {
        try {
            // a run directory's mark alone does not keep it, when it is this directory's run's (its name says which:
            // prism-<run id>); never a link: unlinkat relative to the directory
            String name = directory.getFileName() == null ? "" : directory.getFileName().toString();
            try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.openOwned(directory)) {
                if (name.startsWith("prism-") && name.substring("prism-".length()).equals(held.runMark())) {
                    try (java.util.stream.Stream<Path> entries = Files.list(held.procPath())) {
                        if (entries.count() == 1) {
                            held.deleteFile(dev.prism.spi.HeldDirectory.RUN_MARK);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone, not a directory of ours, or not removable: rmdir below says nothing either
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // not empty (another rank, or rank 0, still works in it) or not ours to remove: left as it is
        }
    }

    /** @return a removal of {@code root} not yet started: {@link #remove(Path, Removal)} runs it, another thread may watch it */
    public static Removal removalOf(Path root) {
        return new Removal(root);
    }

    /**
     * Starts {@code removal} in a daemon thread of its own, so a removal stuck on hung storage holds nobody back: it
     * removes each of {@code roots} in turn (see {@link #remove(Path)}), all counted in {@code removal}. The caller
     * joins the thread for as long as it may wait and, if it gives up, says so with {@link Removal#givenUp}.
     */
    public static Thread startRemoval(Removal removal, String threadName, Path... roots) {
        Thread remover = new Thread(() -> {
            for (Path root : roots) {
                remove(root, removal);
            }
        }, threadName);
        remover.setDaemon(true);
        remover.start();
        return remover;
    }

    /** Runs {@code removal} of {@code root} (see {@link #remove(Path)}). */
    public static void remove(Path root, Removal removal) {
        Path absolute = root.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null) {
            removal.failed("unlinkat", absolute, "refusing to remove the root directory");
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(parent)) {
            if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
                removal.failed("openat", parent, "this platform cannot remove files relative to a directory descriptor");
                return;
            }
            removal.entry(secure, absolute.getFileName(), absolute);
        } catch (NoSuchFileException e) {
            // nothing there to remove
        } catch (IOException e) {
            removal.failed("opendir", parent, e);
        }
    }

    /** What a removal left: how many entries could not be removed and the first call that failed. */
    public static final class Removal {
        private final Path root;
        /** Directories this removal enters only when they are the one of that identity (none: any) */
        private final java.util.Map<Path, Object> expected = new java.util.concurrent.ConcurrentHashMap<>();

        /** Records that {@code directory} is not removed at all, for {@code why} (its call, path and errno). */
        public void refused(Path directory, IOException why) {
            failed("open", directory.toAbsolutePath().normalize(), why);
        }

        /**
         * Enters {@code directory} only when its identity is {@code identity} (a run directory's, from its creation):
         * another directory put in its place is left as it is, and said. A null identity asks for nothing.
         *
         * @return this removal
         */
        public Removal expect(Path directory, Object identity) {
            if (identity != null) {
                expected.put(directory.toAbsolutePath().normalize(), identity);
            }
            return this;
        }
        private volatile long failures;
        private volatile String firstProblem;
        private volatile long removed;

        private Removal(Path root) {
            this.root = root;
        }

        /** @return true when everything was removed */
        public boolean complete() {
            return failures == 0;
        }

        /** @return how many entries were removed so far: a removal that still counts up is not stuck */
        public long removed() {
            return removed;
        }

        /** @return how many entries (files, links, directories) could not be removed */
        public long failures() {
            return failures;
        }

        /** @return the first failed call, its path and errno, e.g. {@code unlinkat("/t/prism-x/rank-0/f"): Input/output error (EIO)}; null when complete */
        public String firstProblem() {
            return firstProblem;
        }

        /** @return one line for a person: what was left below the root and why */
        public String summary() {
            return complete() ? "removed " + root : failures + " entr" + (failures == 1 ? "y" : "ies") + " could not be removed from "
                    + root + "; the first: " + firstProblem;
        }

        /**
         * @return one line for a person when the removal was given up while still running:
         *         {@code removing ROOT WHY; N entries were removed, the rest is still there}, and what failed, if anything
         */
        public String givenUp(String why) {
            return "removing " + root + " " + why + "; " + removed + " entries were removed, the rest is still there"
                    + (complete() ? "" : "; " + failures + " could not be removed, the first: " + firstProblem);
        }

        void throwIfIncomplete() throws IOException {
            if (!complete()) {
                throw new IOException(summary());
            }
        }

        private void failed(String call, Path path, IOException e) {
            failed(call, path, Errno.describe(e));
        }

        private void failed(String call, Path path, String reason) {
            failures++;
            if (firstProblem == null) {
                firstProblem = Errno.failedCall(call, path, reason);
            }
        }

        private void contentsOf(Path directory) {
            contentsOf(directory, null, null);
        }

        /**
         * Removes what {@code directory} holds but its entries whose names {@code kept} accepts (none when null),
         * entering it only when it is the directory whose identity is {@code expected} (any, when null).
         */
        private void contentsOf(Path directory, java.util.function.Predicate<String> kept, Object expected) {
            Path absolute = directory.toAbsolutePath().normalize();
            try (DirectoryStream<Path> parentStream = Files.newDirectoryStream(absolute.getParent())) {
                if (!(parentStream instanceof SecureDirectoryStream<Path> parent)) {
                    failed("openat", absolute, "this platform cannot remove files relative to a directory descriptor");
                    return;
                }
                BasicFileAttributes seen = attributes(parent, absolute.getFileName(), absolute);
                if (seen == null) {
                    return;
                }
                if (!seen.isDirectory()) {
                    failed("openat", absolute, "not a directory (replaced by a link or a file); refusing to clean it");
                    return;
                }
                if (expected != null && !expected.equals(seen.fileKey())) {
                    failed("fstatat", absolute, "another directory than the one this run made; not entered");
                    return;
                }
                try (SecureDirectoryStream<Path> self = open(parent, absolute.getFileName(), absolute, seen)) {
                    if (self != null) {
                        children(self, absolute, kept);
                    }
                }
            } catch (IOException e) {
                failed("opendir", absolute.getParent(), e);
            }
        }

        /** Removes {@code name} (shown as {@code path}) from the directory open as {@code parent}. */
        private void entry(SecureDirectoryStream<Path> parent, Path name, Path path) {
            BasicFileAttributes seen = attributes(parent, name, path);
            if (seen == null) {
                return;
            }
            Object identity = expected.get(path);
            if (identity != null && !identity.equals(seen.fileKey())) {
                failed("fstatat", path, "another directory than the one this run made; not entered");
                return;
            }
            if (seen.isDirectory()) {
                try (SecureDirectoryStream<Path> child = open(parent, name, path, seen)) {
                    if (child == null) {
                        return;
                    }
                    children(child, path);
                } catch (IOException e) {
                    failed("close", path, e);
                }
                try {
                    parent.deleteDirectory(name);
                    removed++;
                } catch (NoSuchFileException e) {
                    // removed meanwhile
                } catch (IOException e) {
                    if (!unlinkIfNoLongerADirectory(parent, name, path)) {
                        failed("unlinkat(AT_REMOVEDIR)", path, e);
                    }
                }
                return;
            }
            try {
                parent.deleteFile(name);
                removed++;
            } catch (NoSuchFileException e) {
                // removed meanwhile
            } catch (IOException e) {
                failed("unlinkat", path, e);
            }
        }

        private void children(SecureDirectoryStream<Path> directory, Path path) {
            children(directory, path, null);
        }

        private void children(SecureDirectoryStream<Path> directory, Path path, java.util.function.Predicate<String> kept) {
            try {
                for (Path child : directory) {
                    Path name = child.getFileName();
                    if (kept != null && kept.test(name.toString())) {
                        continue;
                    }
                    entry(directory, name, path.resolve(name.toString()));
                }
            } catch (DirectoryIteratorException e) {
                failed("readdir", path, e.getCause());
            }
        }

        /** @return the attributes of {@code name} itself (fstatat with AT_SYMLINK_NOFOLLOW), or null when gone or failing */
        private BasicFileAttributes attributes(SecureDirectoryStream<Path> parent, Path name, Path path) {
            try {
                return parent.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                        .readAttributes();
            } catch (NoSuchFileException e) {
                return null;
            } catch (IOException e) {
                failed("fstatat", path, e);
                return null;
            }
        }

        /**
         * Opens directory {@code name} relative to {@code parent} without following a link, and checks
         * it is the directory {@code seen} described (device and inode).
         *
         * @return the open directory, or null when it is gone, was swapped (then a link is removed) or cannot be opened
         */
        private SecureDirectoryStream<Path> open(SecureDirectoryStream<Path> parent, Path name, Path path,
                                                 BasicFileAttributes seen) {
            SecureDirectoryStream<Path> child;
            try {
                child = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return null;
            } catch (IOException e) {
                // O_NOFOLLOW refuses a directory swapped for a link since it was seen: remove the link itself
                if (!unlinkIfNoLongerADirectory(parent, name, path)) {
                    failed("openat(O_NOFOLLOW)", path, e);
                }
                return null;
            }
            try {
                Object key = child.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
                if (key != null && !key.equals(seen.fileKey())) {
                    failed("openat(O_NOFOLLOW)", path, "replaced by another directory during clean-up; not entered");
                    child.close();
                    return null;
                }
                return child;
            } catch (IOException e) {
                failed("fstat", path, e);
                try {
                    child.close();
                } catch (IOException ignored) {
                    // already reported
                }
                return null;
            }
        }

        /** @return true when {@code name} is now something other than a directory, and was removed */
        private boolean unlinkIfNoLongerADirectory(SecureDirectoryStream<Path> parent, Path name, Path path) {
            BasicFileAttributes now = attributes(parent, name, path);
            if (now == null) {
                return true;
            }
            if (now.isDirectory()) {
                return false;
            }
            try {
                parent.deleteFile(name);
            } catch (NoSuchFileException e) {
                // gone too
            } catch (IOException e) {
                failed("unlinkat", path, e);
            }
            return true;
        }
    }

    private static void requireRealDirectory(Path directory) {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new PrismException("run directory " + directory + " is no longer a real directory"
                    + " (replaced by a link or removed); refusing to clean it");
        }
    }

    /** @return the reason an I/O call failed, as a person reads it: text and errno's name, never a class name */
    public static String describe(IOException e) {
        if (e instanceof AccessDeniedException && ((AccessDeniedException) e).getReason() == null) {
            return "permission denied";
        }
        return Errno.describe(e);
    }
}
