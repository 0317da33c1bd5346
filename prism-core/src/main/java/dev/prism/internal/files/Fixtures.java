package dev.prism.internal.files;

import dev.prism.Fixture;
import dev.prism.spi.Directories;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Pattern;

/**
 * Read-only fixtures kept across the repetitions of one configuration ({@link dev.prism.WorkloadContext#fixture}):
 * {@code <run directory>/fixtures-<r>/<name>} and {@code fixtures-shared/<name>} (as deep as a rank's own
 * {@code rank-<r>/<name>}, so a path lookup in a fixture costs what one in the rank's directory does), each beside a stamp
 * {@code .<name>.made} written after its build returned, holding the configuration it was made for. A fixture whose
 * stamp is missing (its build failed or was cut short) or names another configuration (a node-local target keeps
 * its run directory between configurations) is removed, never followed through a link, and made again.
 */
public final class Fixtures {
    /** How the run directory's entries that hold fixtures begin: they are kept when it is emptied between repetitions */
    public static final String PREFIX = "fixtures-";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}");
    /** A stamp is one line naming a configuration; anything longer was not written by this class */
    private static final int STAMP_LIMIT = 64 * 1024;

    private Fixtures() {
    }

    /** @return {@code name} when it is a plain file name */
    public static String requirePlainName(String name) {
        if (name == null || !PLAIN.matcher(name).matches()) {
            throw new IllegalArgumentException("fixture name '" + name + "' is not a plain name: 1 to 100 letters, digits,"
                    + " '_', '.' or '-', not starting with a dot");
        }
        return name;
    }

    /** @return where {@code rank}'s fixtures live in {@code runDirectory} */
    public static Path rankFixtures(Path runDirectory, int rank) {
        return runDirectory.resolve(PREFIX + rank);
    }

    /** @return where the shared fixtures live in {@code runDirectory} */
    public static Path sharedFixtures(Path runDirectory) {
        return runDirectory.resolve(PREFIX + "shared");
    }

    /**
     * @param parent        {@link #rankFixtures} or {@link #sharedFixtures}, made here when missing
     * @param configuration what the fixture is made for (benchmark, parameters, tasks, seed): a stamp naming anything
     *                      else is not reused
     * @param build         makes it, when it is not there as made for {@code configuration}
     * @return true when {@code build} ran (the fixture was made now), false when it was reused
     */
    public static boolean ensure(Path parent, String name, String configuration, Fixture build) throws Exception {
        requirePlainName(name);
        Directories.makeOrKeep(parent);
        Path directory = parent.resolve(name);
        Path stamp = parent.resolve("." + name + ".made");
        if (configuration.equals(readStamp(stamp)) && Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        Files.deleteIfExists(stamp); // a link there is removed itself
        if (Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            RunDirectory.deleteTree(directory);
        }
        Files.createDirectory(directory);
        build.build(directory);
        Files.writeString(stamp, configuration + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        return true;
    }

    /** @return the configuration a stamp names, or null when there is none (or it is not a small regular file) */
    private static String readStamp(Path stamp) throws IOException {
        try {
            String text = SmallFile.readNoFollow(stamp, STAMP_LIMIT);
            return text == null ? null : text.strip();
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }
}
