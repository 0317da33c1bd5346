package dev.prism.internal;

import dev.prism.PrismException;
import dev.prism.TargetException;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one directory a scenario may write to, {@code <target>/prism-<runId>}: refuses bad targets,
 * makes the rank directories and removes the tree without following symbolic links.
 */
public final class RunDirectory {
    private RunDirectory() {
    }

    /**
     * Checks {@code target} and creates {@code <target>/prism-<runId>}.
     *
     * @throws TargetException when the target is {@code /}, missing, not a directory or not writable
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
        Path runDirectory = absolute.resolve("prism-" + runId);
        try {
            Files.createDirectory(runDirectory);
        } catch (FileAlreadyExistsException e) {
            throw new TargetException("run directory " + runDirectory + " already exists; choose another run id");
        } catch (IOException e) {
            // creating the directory is the real test: it says why (read-only file system, permission denied…)
            throw new TargetException("target " + absolute + " is not writable by user " + System.getProperty("user.name")
                    + ": cannot create " + runDirectory + ": " + describe(e), e);
        }
        return runDirectory;
    }

    /** Empties {@code runDirectory} and creates {@code rank-0 … rank-(tasks-1)} and {@code shared} in it. */
    public static void prepare(Path runDirectory, int tasks) throws IOException {
        deleteContents(runDirectory);
        Files.createDirectory(runDirectory.resolve("shared"));
        for (int rank = 0; rank < tasks; rank++) {
            Files.createDirectory(runDirectory.resolve("rank-" + rank));
        }
    }

    /** Removes everything inside {@code directory}, never following symbolic links. */
    public static void deleteContents(Path directory) throws IOException {
        requireRealDirectory(directory);
        try (var children = Files.list(directory)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                deleteTree(child);
            }
        }
    }

    /**
     * Removes {@code root} and everything below it. A symbolic link is removed itself; what it
     * points to is never visited.
     */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(root);
            return;
        }
        // walkFileTree does not follow links unless told to: links arrive in visitFile
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                deleteIfPresent(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                deleteIfPresent(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteIfPresent(Path path) throws IOException {
        try {
            Files.delete(path);
        } catch (NoSuchFileException e) {
            // removed by the workload meanwhile: nothing to do
        }
    }

    private static void requireRealDirectory(Path directory) {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new PrismException("run directory " + directory + " is no longer a real directory"
                    + " (replaced by a link or removed); refusing to clean it");
        }
    }

    /** @return the reason an I/O call failed, as a person reads it */
    static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
            return ((FileSystemException) e).getReason();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
