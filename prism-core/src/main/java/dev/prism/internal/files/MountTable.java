package dev.prism.internal.files;

import dev.prism.TargetInfo;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Parses {@code /proc/self/mountinfo} (proc(5)) to find the filesystem a path lives on. */
public final class MountTable {
    /** One line of mountinfo. */
    public record Mount(String mountPoint, String root, String mountOptions, String filesystemType, String source,
                        String superOptions) {
    }

    private final List<Mount> mounts;

    private MountTable(List<Mount> mounts) {
        this.mounts = mounts;
    }

    /** @return the table of this process's mount namespace, empty where there is no {@code /proc} */
    public static MountTable current() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            return new MountTable(List.of());
        }
    }

    /**
     * Parses mountinfo lines: {@code id parent major:minor root mountpoint options [optional…] - type source super}.
     * Lines that do not have that shape are skipped.
     */
    public static MountTable parse(List<String> lines) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split(" ");
            int dash = List.of(f).indexOf("-");
            if (dash < 6 || f.length < dash + 3) {
                continue;
            }
            mounts.add(new Mount(unescape(f[4]), unescape(f[3]), f[5], f[dash + 1], unescape(f[dash + 2]),
                    f.length > dash + 3 ? f[dash + 3] : ""));
        }
        return new MountTable(List.copyOf(mounts));
    }

    /** @return the mount that holds {@code absolutePath}: the longest matching mount point, the later one on ties */
    public Optional<Mount> find(String absolutePath) {
        Mount best = null;
        for (Mount m : mounts) {
            if (contains(m.mountPoint(), absolutePath)
                    && (best == null || m.mountPoint().length() >= best.mountPoint().length())) {
                best = m;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean contains(String mountPoint, String path) {
        return mountPoint.equals("/") || path.equals(mountPoint) || path.startsWith(mountPoint + "/");
    }

    /** mountinfo writes space, tab, newline and backslash as octal escapes such as {@code \040}. */
    static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** @return the target, its mount and its space; fields stay empty where they cannot be read */
    public static TargetInfo describe(Path target) {
        Path absolute = target.toAbsolutePath().normalize();
        String real;
        try {
            real = absolute.toRealPath().toString();
        } catch (IOException e) {
            real = absolute.toString();
        }
        Mount mount = current().find(real).orElse(new Mount("", "", "", "", "", ""));
        long total = 0;
        long free = 0;
        try {
            FileStore store = Files.getFileStore(absolute);
            total = store.getTotalSpace();
            free = store.getUsableSpace();
        } catch (IOException e) {
            // space stays unknown
        }
        return new TargetInfo(absolute.toString(), mount.mountPoint(), mount.filesystemType(), mount.source(),
                mount.mountOptions(), mount.superOptions(), total, free);
    }
}
