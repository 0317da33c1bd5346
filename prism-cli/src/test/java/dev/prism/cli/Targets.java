package dev.prism.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Watches a target from outside a running prism, for tests that signal it mid-run. */
final class Targets {
    private Targets() {
    }

    /** Waits until ranks have written 200 files under {@code target}: the run is in its timed phase. */
    static void awaitFiles(Path target) throws InterruptedException {
        awaitFiles(target, 200);
    }

    /** Waits until ranks have written {@code files} files under {@code target}. */
    static void awaitFiles(Path target, int files) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end) {
            try (Stream<Path> walk = Files.walk(target)) {
                if (walk.filter(p -> p.getFileName().toString().startsWith("file-") && p.toString().contains("/rank-"))
                        .limit(files).count() >= files) {
                    return;
                }
            } catch (IOException | UncheckedIOException e) {
                // the tree changes while walked: look again
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no rank wrote files under " + target);
    }
}
