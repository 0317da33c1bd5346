package dev.prism.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Another user's swap of a run directory at a moment a test chooses: a program PRISM starts (a wrapper given as git,
 * Python…) makes the file {@code waiting} and then waits for {@code gate}; meanwhile this neighbour renames the
 * target's run directory ({@code prism-…}) to {@code moved}, puts a link to {@code victim} in its place, and makes
 * {@code gate} — also when the swap failed, so the program never waits for ever. {@link #swapped} gives the test the
 * run directory's path, now the link, or fails it with what went wrong.
 */
public final class GatedSwap {
    private final Thread thread;
    private final AtomicReference<Object> outcome = new AtomicReference<>();

    private GatedSwap(Path target, Path moved, Path victim, Path waiting, Path gate, Duration patience) {
        thread = new Thread(() -> {
            try {
                Await.until("a program waits at the gate (" + waiting + ")", patience, () -> Files.exists(waiting));
                Path runDirectory;
                try (Stream<Path> runs = Files.list(target)) {
                    runDirectory = runs.filter(p -> p.getFileName().toString().startsWith("prism-")).findFirst()
                            .orElseThrow();
                }
                Files.move(runDirectory, moved);
                Files.createSymbolicLink(runDirectory, victim);
                outcome.set(runDirectory);
            } catch (Throwable t) {
                outcome.set(t);
            } finally {
                try {
                    Files.createFile(gate);
                } catch (IOException e) {
                    outcome.compareAndSet(null, e);
                }
            }
        }, "neighbour");
        thread.setDaemon(true);
    }

    /** Starts the neighbour; it waits up to {@code patience} for {@code waiting}. */
    public static GatedSwap start(Path target, Path moved, Path victim, Path waiting, Path gate, Duration patience) {
        GatedSwap swap = new GatedSwap(target, moved, victim, waiting, gate, patience);
        swap.thread.start();
        return swap;
    }

    /** As {@link #start(Path, Path, Path, Path, Path, Duration)}, waiting as long as {@link Await} does by default. */
    public static GatedSwap start(Path target, Path moved, Path victim, Path waiting, Path gate) {
        return start(target, moved, victim, waiting, gate, Await.PATIENCE);
    }

    /**
     * Writes {@code file}, a program (0700) that runs {@code real} with its arguments, but first, when its arguments
     * match the shell pattern {@code whenArguments}, makes {@code waiting} and waits for {@code gate}.
     *
     * @return {@code file}
     */
    public static Path holdingProgram(Path file, String whenArguments, String real, Path waiting, Path gate)
            throws IOException {
        Files.writeString(file, "#!/bin/sh\n"
                + "case \"$*\" in " + whenArguments + ") : > '" + waiting + "'; while [ ! -e '" + gate + "' ];"
                + " do sleep 0.01; done ;; esac\n"
                + "exec '" + real + "' \"$@\"\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    /** @return the run directory's path, now the link, once the neighbour is done; a failed swap fails the test */
    public Path swapped() throws InterruptedException {
        thread.join();
        if (outcome.get() instanceof Path runDirectory) {
            return runDirectory;
        }
        throw new AssertionError("the neighbour's swap did not happen", (Throwable) outcome.get());
    }
}
