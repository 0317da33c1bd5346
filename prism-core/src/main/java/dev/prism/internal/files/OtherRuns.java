package dev.prism.internal.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Other PRISM runs' directories in a target, told apart by when they last changed: a run at work changes its run
 * directory at every repetition, one that ended or was killed long ago does not. Two runs on one target measure each
 * other's load, and each should say so: one whose directory changed lately before this run began may still be going;
 * one whose directory changed while this run went on certainly was.
 */
public final class OtherRuns {
    /** How lately another run's directory must have changed to count as possibly still at work. */
    private static final Duration RECENT = Duration.ofMinutes(2);
    /** The most entries of the target looked at: a target of millions of files is not listed whole. */
    private static final int MAX_ENTRIES = 10_000;

    private final Path target;
    private final Path own;
    private final Map<Path, Instant> seen;
    private final java.util.Set<String> changed = new java.util.LinkedHashSet<>();

    private OtherRuns(Path target, Path own, Map<Path, Instant> seen) {
        this.target = target;
        this.own = own;
        this.seen = seen;
    }

    /** @return the other run directories in {@code target} now (never following a link), beside {@code own} */
    public static OtherRuns look(Path target, Path own) {
        return new OtherRuns(target, own, scan(target, own));
    }

    /** @return the ones that changed within the last two minutes, named with how long ago: may still be at work */
    public Optional<String> recentlyActive() {
        Instant now = Instant.now();
        List<String> recent = new ArrayList<>();
        seen.forEach((dir, changed) -> {
            Duration ago = Duration.between(changed, now);
            if (ago.compareTo(RECENT) < 0) {
                recent.add(dir.getFileName() + " (changed " + Math.max(0, ago.toSeconds()) + " s ago)");
            }
        });
        return recent.isEmpty() ? Optional.empty() : Optional.of("another PRISM run may be at work in " + target + ": "
                + String.join(", ", recent) + "; if it is, each measures the other's load");
    }

    /**
     * Looks again (at each repetition's start: one listing of the target, a look at each other run's directories), so a
     * run that came and went between two looks is still seen.
     */
    public synchronized void update() {
        scan(target, own).forEach((dir, at) -> {
            Instant before = seen.get(dir);
            if (before == null || at.isAfter(before)) {
                changed.add(dir.getFileName().toString());
            }
        });
    }

    /** @return the ones that changed (or appeared) since {@link #look}, by the last {@link #update}: at work meanwhile */
    public synchronized Optional<String> activeSince() {
        update();
        return changed.isEmpty() ? Optional.empty() : Optional.of("another PRISM run wrote in " + target
                + " while this one ran (" + String.join(", ", changed) + "): its load is in these figures");
    }

    /**
     * @return the latest change of {@code runDirectory} or of one of its first 64 directories (its ranks' own, where a
     *         run at work creates and removes files; the run directory itself changes only between repetitions)
     */
    private static Instant lastChange(Path runDirectory, Instant own) {
        Instant latest = own;
        int looked = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(runDirectory)) {
            for (Path entry : entries) {
                if (++looked > 64) {
                    break;
                }
                BasicFileAttributes a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isDirectory() && a.lastModifiedTime().toInstant().isAfter(latest)) {
                    latest = a.lastModifiedTime().toInstant();
                }
            }
        } catch (IOException e) {
            // being removed, or not ours to read: its own time stands
        }
        return latest;
    }

    private static Map<Path, Instant> scan(Path target, Path own) {
        Map<Path, Instant> found = new LinkedHashMap<>();
        int looked = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(target, "prism-*")) {
            for (Path entry : entries) {
                if (++looked > MAX_ENTRIES) {
                    break;
                }
                if (entry.equals(own)) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (a.isDirectory()) {
                        found.put(entry, lastChange(entry, a.lastModifiedTime().toInstant()));
                    }
                } catch (IOException e) {
                    // gone meanwhile: no longer there to tell about
                }
            }
        } catch (IOException e) {
            // the target cannot be listed: the run itself will say why where it matters
        }
        return found;
    }
}
