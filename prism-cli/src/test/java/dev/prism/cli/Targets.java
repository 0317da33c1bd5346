package dev.prism.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Watches a target, and what prism keeps beside it, from outside a running prism, for tests that signal it mid-run. */
final class Targets {
    private Targets() {
    }

    /**
     * @return the directory the supervising {@code prism} process made for its run (in the temporary directory), read
     *         from the run process's environment: where the run tells it its run directory
     */
    static Path supervisorScratch(Process prism) throws java.io.IOException {
        ProcessHandle run = prism.children().findFirst().orElseThrow();
        return java.util.Arrays.stream(Files.readString(Path.of("/proc", String.valueOf(run.pid()), "environ")).split("\0"))
                .filter(v -> v.startsWith(Supervisor.RUN_DIRECTORY_FILE + "=")).findFirst()
                .map(v -> Path.of(v.substring(v.indexOf('=') + 1)).getParent()).orElseThrow();
    }

    /** Waits until ranks have written 200 files under {@code target}: the run is in its timed phase. */
    static void awaitFiles(Path target) throws InterruptedException {
        awaitFiles(target, 200);
    }

    /**
     * Waits until the ranks of {@code prism} have written 200 files under {@code target}, failing at once with what
     * prism wrote to {@code stderr} if it ends first (a run that failed to start is not waited for until the patience
     * runs out).
     */
    static void awaitFiles(Path target, Process prism, Path stderr) {
        dev.prism.testing.Await.until("ranks have written 200 files under " + target, () -> {
            if (!prism.isAlive()) {
                throw new AssertionError("prism ended (exit " + prism.exitValue() + ") before its ranks wrote 200 files under "
                        + target + ": " + Files.readString(stderr));
            }
            return filesUnder(target, 200) >= 200;
        });
    }

    /** Waits until ranks have written {@code files} files under {@code target}. */
    static void awaitFiles(Path target, int files) {
        dev.prism.testing.Await.until("ranks have written " + files + " files under " + target,
                () -> filesUnder(target, files) >= files);
    }

    /** @return how many of the ranks' files are under {@code target}, counting up to {@code most} */
    private static long filesUnder(Path target, int most) throws java.io.IOException {
        try (Stream<Path> walk = Files.walk(target)) {
            return walk.filter(p -> p.getFileName().toString().startsWith("file-") && p.toString().contains("/rank-"))
                    .limit(most).count();
        }
    }
}
