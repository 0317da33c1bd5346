package dev.prism.cli;

import java.nio.file.Files;
import java.nio.file.Path;
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
    static void awaitFiles(Path target, int files) {
        dev.prism.testing.Await.until("ranks have written " + files + " files under " + target, () -> {
            try (Stream<Path> walk = Files.walk(target)) {
                return walk.filter(p -> p.getFileName().toString().startsWith("file-") && p.toString().contains("/rank-"))
                        .limit(files).count() >= files;
            }
        });
    }
}
