package dev.prism.internal.coordination;

import dev.prism.HostInfo;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Reads {@link HostInfo} from {@code /proc} and the JVM. */
public final class HostProbe {
    private static final Properties BUILD = readBuild();
    private static final String VERSION = BUILD.getProperty("version", "unknown");
    private static final String COMMIT = commitOf(BUILD);

    private HostProbe() {
    }

    /** @return this host */
    public static HostInfo read() {
        return new HostInfo(hostname(), firstLine(Path.of("/proc/sys/kernel/osrelease"), System.getProperty("os.version")),
                System.getProperty("os.name"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), memTotalBytes(),
                System.getProperty("java.runtime.version", System.getProperty("java.version")) + " ("
                        + System.getProperty("java.vendor") + ")", VERSION);
    }

    /** @return PRISM's version, from the build */
    public static String prismVersion() {
        return VERSION;
    }

    /** @return the commit PRISM was built from, or unknown */
    public static String prismCommit() {
        return COMMIT;
    }

    static String commitOf(Properties build) {
        String commit = build.getProperty("commit", "");
        if (commit.isBlank() || commit.startsWith("${")) {
            return "unknown";
        }
        // not whether the tree was modified: that flips with any file a test run leaves, and a rebuild under a running
        // JVM would then rewrite the jar it loads classes from
        return commit;
    }

    /** @return the kernel's host name, without a DNS lookup where {@code /proc} has it */
    public static String hostname() {
        String name = firstLine(Path.of("/proc/sys/kernel/hostname"), null);
        if (name != null) {
            return name;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long memTotalBytes() {
        return meminfo("MemTotal:");
    }

    /** @return MemAvailable of /proc/meminfo in bytes: what new processes can use without swapping; 0 when unknown */
    public static long availableMemoryBytes() {
        return meminfo("MemAvailable:");
    }

    private static long meminfo(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or an unusual /proc: memory stays unknown
        }
        return 0;
    }

    private static String firstLine(Path file, String fallback) {
        try {
            String text = Files.readString(file).trim();
            return text.isEmpty() ? fallback : text;
        } catch (IOException e) {
            return fallback;
        }
    }

    private static Properties readBuild() {
        Properties p = new Properties();
        try (InputStream in = HostInfo.class.getResourceAsStream("prism.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // version and commit stay unknown
        }
        return p;
    }
}
