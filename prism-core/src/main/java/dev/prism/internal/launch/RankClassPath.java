package dev.prism.internal.launch;

import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The class path a rank's JVM starts with: what the loader that loaded PRISM sees, not only the JVM's own class path.
 * Under {@code mvn exec:java}, an IDE's runner or a plugin host, PRISM and the caller's workloads are loaded by a
 * class loader of the host's, and {@code java.class.path} names only the host's launcher jar: a rank started with it
 * could not find {@code RankWorker}. So the entries of every {@link URLClassLoader} from PRISM's loader up to the
 * system loader come first, in that order, then the JVM's class path; each once.
 */
final class RankClassPath {
    private RankClassPath() {
    }

    /** @return the class path for ranks of the JVM that loaded {@code anchor}, entries joined by the path separator */
    static String of(Class<?> anchor) {
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader loader = anchor.getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    fileOf(url).ifPresent(entries::add);
                }
            }
        }
        String jvm = System.getProperty("java.class.path", "");
        for (String entry : jvm.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static java.util.Optional<String> fileOf(URL url) {
        if (!"file".equals(url.getProtocol())) {
            return java.util.Optional.empty();   // a loader's http: or jar: entries are nothing a JVM's -cp takes
        }
        try {
            return java.util.Optional.of(Path.of(new URI(url.toString())).toAbsolutePath().toString());
        } catch (Exception e) {
            return java.util.Optional.empty();
        }
    }
}
