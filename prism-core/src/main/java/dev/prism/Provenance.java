package dev.prism;

import dev.prism.internal.coordination.HostProbe;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What produced a result, so that a result found months later says it: PRISM's version and the commit it was built
 * from, the command line (or the scenario as built in Java), the labels the user gave ({@code --label
 * firmware=4.3}), and the versions of the programs the benchmark ran (git, tar, fio, Python, torch…).
 *
 * <pre>{@code
 * import dev.prism.Provenance;
 * import java.util.Map;
 *
 * var p = Provenance.of("prism run create_files", Map.of("firmware", "4.3"));
 * System.out.println(p.prismVersion() + " built from " + p.commit() + ": " + p.command() + " " + p.labels());
 * }</pre>
 *
 * @param prismVersion PRISM's version
 * @param commit       the commit PRISM was built from; {@code unknown} for a build outside a git clone
 * @param command      the command line that ran it, or a description of the scenario as built in Java; URL user
 *                     information in it (a password) is replaced by {@code ***}
 * @param labels       the user's labels, such as {@code firmware=4.3}, sorted by key
 * @param programs     each program the benchmark ran and its version as the program printed it, sorted by name
 */
public record Provenance(String prismVersion, String commit, String command, Map<String, String> labels,
                         Map<String, String> programs) {
    /** Provenance of a result written before PRISM recorded it. */
    public static final Provenance UNKNOWN = new Provenance("unknown", "unknown", "", Map.of(), Map.of());

    /** Copies and sorts the maps. */
    public Provenance {
        Objects.requireNonNull(prismVersion, "prismVersion");
        Objects.requireNonNull(commit, "commit");
        // a command line may carry a URL with a password in it (--push http://user:secret@…): never recorded
        command = dev.prism.spi.Credentials.redact(Objects.requireNonNull(command, "command"));
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        programs = Collections.unmodifiableMap(new TreeMap<>(programs));
    }

    /** @return this build's version and commit with {@code command} and {@code labels}; no programs yet */
    public static Provenance of(String command, Map<String, String> labels) {
        return new Provenance(HostProbe.prismVersion(), HostProbe.prismCommit(), command, labels, Map.of());
    }

    /** @return this provenance with {@code programs} (name → version) */
    public Provenance withPrograms(Map<String, String> programs) {
        return new Provenance(prismVersion, commit, command, labels, programs);
    }

    /** @return the labels as {@code key=value, …}; empty when there are none */
    public String labelsText() {
        StringBuilder s = new StringBuilder();
        labels.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return s.toString();
    }

    /**
     * Checks a label as the builders and the CLI take it.
     *
     * @throws IllegalArgumentException naming the label and what is accepted
     */
    public static void checkLabel(String key, String value) {
        if (key == null || !key.matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}")) {
            throw new IllegalArgumentException("label key must be 1 to 64 of A-Z a-z 0-9 _ . - starting with a letter or _,"
                    + " was " + (key == null ? "null" : "'" + key + "'"));
        }
        if (value == null || value.length() > 256 || value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("label " + key + " must have a value of at most 256 characters without"
                    + " control characters, was " + (value == null ? "null" : "'" + value + "'"));
        }
    }
}
