package dev.prism.posix.internal;

import dev.prism.WorkloadContext;
import dev.prism.spi.HeldDirectory;

import java.nio.file.Path;

/**
 * Paths for the programs a benchmark starts (tar, fio…): one beneath the run directory the rank holds becomes
 * {@code /proc/<pid>/fd/N/<the rest>} ({@link HeldDirectory#childPath}), which the kernel resolves through the held
 * descriptor to the directory this run made, whatever it is called now: renaming the run directory, or a directory
 * above it, and putting a link in its place mid-run changes nothing the program touches.
 */
public final class ChildPaths {
    private ChildPaths() {
    }

    /** @return {@code path} reached through the held run directory where it lies beneath it, else {@code path} */
    public static Path of(WorkloadContext ctx, Path path) {
        HeldDirectory run = ctx.heldRunDirectory();
        if (run == null) {
            return path;
        }
        Path anchor = run.path().toAbsolutePath().normalize();
        Path absolute = path.toAbsolutePath().normalize();
        if (!absolute.startsWith(anchor) || absolute.equals(anchor)) {
            return path;
        }
        return run.childPath().resolve(absolute.subpath(anchor.getNameCount(), absolute.getNameCount()).toString());
    }

    /** @return {@link #of} as text, for a program's argument */
    public static String text(WorkloadContext ctx, Path path) {
        return of(ctx, path).toString();
    }
}
