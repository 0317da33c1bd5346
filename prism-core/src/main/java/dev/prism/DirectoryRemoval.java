package dev.prism;

import dev.prism.internal.files.RunDirectory;

import java.nio.file.Path;

/**
 * Removes a directory tree the way PRISM removes its run directories: by directory descriptor
 * ({@code openat} with {@code O_NOFOLLOW}, {@code unlinkat} relative to the parent), never
 * following a symbolic link — a link is removed itself, and a directory swapped for a link while
 * the walk runs is never entered. An error does not stop the walk; the result says what was left
 * and names the first call that failed, its path and errno.
 *
 * <pre>{@code
 * import dev.prism.DirectoryRemoval;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * var tmp = Files.createTempDirectory("prism-removal-");
 * Files.createDirectories(tmp.resolve("a/b"));
 * Files.createSymbolicLink(tmp.resolve("a/to-etc"), Path.of("/etc"));
 * var removal = DirectoryRemoval.of(tmp);
 * System.out.println(removal.summary() + "; /etc still there: " + Files.exists(Path.of("/etc/hostname")));
 * }</pre>
 */
public final class DirectoryRemoval {
    private final RunDirectory.Removal removal;

    private DirectoryRemoval(RunDirectory.Removal removal) {
        this.removal = removal;
    }

    /** @return the removal of {@code root} and everything below it, done (nothing to do when it does not exist) */
    public static DirectoryRemoval of(Path root) {
        return new DirectoryRemoval(RunDirectory.remove(root));
    }

    /**
     * Removes run {@code runId}'s directory ({@code <target>/prism-<runId>}, as a killed run left it) only when it is
     * that run's: this user's, no link, and holding the run's mark ({@value dev.prism.spi.HeldDirectory#RUN_MARK});
     * the walk then enters only the directory of that identity. Another directory put in its place — by someone who
     * may write the target — is left as it is.
     *
     * @return the removal, done; one that removed nothing and names why when the directory is not the run's
     */
    public static DirectoryRemoval ofRun(Path runDirectory, String runId) {
        RunDirectory.Removal removal = RunDirectory.removalOf(runDirectory);
        Object identity;
        try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.openRun(runDirectory, runId)) {
            identity = held.attributes().fileKey();
        } catch (java.nio.file.NoSuchFileException e) {
            return new DirectoryRemoval(removal);
        } catch (java.io.IOException e) {
            removal.refused(runDirectory, e);
            return new DirectoryRemoval(removal);
        }
        RunDirectory.remove(runDirectory, removal.expect(runDirectory, identity));
        return new DirectoryRemoval(removal);
    }

    /** @return true when everything was removed */
    public boolean complete() {
        return removal.complete();
    }

    /** @return how many entries were removed */
    public long removed() {
        return removal.removed();
    }

    /** @return how many entries could not be removed */
    public long failures() {
        return removal.failures();
    }

    /** @return the first failed call, its path and errno; null when complete */
    public String firstProblem() {
        return removal.firstProblem();
    }

    /** @return one line for a person: what was removed, or what was left and why */
    public String summary() {
        return removal.summary();
    }
}
