package dev.prism.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The JDKs on this machine (under /usr/lib/jvm, as Debian and Temurin's packages install them), by feature version. */
public final class Jdks {
    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    private Jdks() {
    }

    /** @return the {@code java} of the newest JDK of at least {@code feature}, if one is installed */
    public static Optional<Path> newest(int feature) {
        return between(feature, Integer.MAX_VALUE);
    }

    /** @return the {@code java} of the newest JDK from feature {@code min} to {@code max}, if one is installed */
    public static Optional<Path> between(int min, int max) {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin/java")))
                    .filter(h -> featureOf(h) >= min && featureOf(h) <= max)
                    .max(Comparator.comparingInt(Jdks::featureOf))
                    .map(h -> h.resolve("bin/java"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int featureOf(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
