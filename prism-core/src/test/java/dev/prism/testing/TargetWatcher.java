package dev.prism.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An observer beside a run: a thread that lists the regular files under a directory every 10 ms while the run holds
 * them and keeps, per file, the largest size it saw — by file name, or by parent directory and name where the same
 * name sits in several directories ({@code step-1/__0_0.distcp}). A file that lives shorter than a listing can be
 * missed; what is seen was there.
 */
public final class TargetWatcher implements AutoCloseable {
    private final Map<String, Long> largest = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stop;

    /**
     * @param root       the directory to watch (the run's target)
     * @param withParent whether a file is keyed by its parent directory's name and its own, instead of its name
     */
    public TargetWatcher(Path root, boolean withParent) {
        thread = new Thread(() -> {
            while (!stop) {
                try (Stream<Path> files = Files.walk(root)) {
                    files.filter(Files::isRegularFile).forEach(f -> {
                        String key = withParent ? f.getParent().getFileName() + "/" + f.getFileName() : f.getFileName().toString();
                        try {
                            largest.merge(key, Files.size(f), Math::max);
                        } catch (IOException gone) {
                            // removed between listing and sizing
                        }
                    });
                } catch (IOException | UncheckedIOException gone) {
                    // a directory removed while walking it
                }
                try {
                    Thread.sleep(10); // pacing, so the watcher leaves the CPUs to the run it watches
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "target-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return every file seen so far, by key, at the largest size seen */
    public Map<String, Long> seen() {
        return Map.copyOf(largest);
    }

    /** @return the files seen whose key starts with {@code prefix} and ends with {@code suffix} */
    public Map<String, Long> seen(String prefix, String suffix) {
        return largest.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().endsWith(suffix))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** Stops watching and waits for the thread. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join();
    }
}
