package dev.prism.posix.metadata;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.metadata.internal.OpenContentionWorkload;

import java.util.List;

/**
 * {@code open_contention}: every rank opens, optionally reads 4 KiB of, and closes the same shared
 * file again and again — the pattern that exposed a 5-second {@code openat} stall on a vendor NFS
 * (§4.3 of the paper). Each {@code open}, {@code read} and {@code close} is timed; opens slower
 * than the stall threshold are listed with the file.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.openContention().opens(5000);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class OpenContention extends PosixBenchmark<OpenContention> {
    /** The operation opening the shared file: {@value}, for gates and look-ups ({@code run.measurement(OpenContention.OP_OPEN)}). */
    public static final String OP_OPEN = "open";
    /** The operation reading it: {@value}, for gates and look-ups ({@code run.measurement(OpenContention.OP_READ)}). */
    public static final String OP_READ = "read";
    /** The operation closing it: {@value}, for gates and look-ups ({@code run.measurement(OpenContention.OP_CLOSE)}). */
    public static final String OP_CLOSE = "close";

    /** Opens per rank. */
    public static final Parameter<Integer> OPENS =
            Parameter.ofInt("opens", 1000, 1, 100_000_000, "opens", "times each rank opens and closes the shared file");
    /** Whether each open reads the file's first 4 KiB. */
    public static final Parameter<Boolean> READ =
            Parameter.ofBoolean("read", true, "read the first 4 KiB after each open, timed as 'read'");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(JAVA_ACCESS, OPENS, FILE_SIZE, READ);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private OpenContention(Parameters parameters) {
        super("open_contention", "every rank opens (reads) and closes the same file again and again", parameters);
    }

    /** @return open_contention with these parameter values (missing ones at their defaults) */
    public static OpenContention of(Parameters parameters) {
        return new OpenContention(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    /** @return true: with a duration it works until the time is up ({@link dev.prism.Pacing}) */
    @Override
    public boolean runsByTime() {
        return true;
    }

    @Override
    protected OpenContention with(Parameters parameters) {
        return new OpenContention(parameters);
    }

    /** @param opens times each rank opens the file, 1..100000000 */
    public OpenContention opens(int opens) {
        return set(OPENS, opens);
    }

    /** @param fileSize bytes in the shared file, 1B..64GiB */
    public OpenContention fileSize(DataSize fileSize) {
        return set(FILE_SIZE, fileSize);
    }

    /** @param read whether each open reads the first 4 KiB */
    public OpenContention read(boolean read) {
        return set(READ, read);
    }

    @Override
    public java.util.Set<String> operations() {
        return java.util.Set.of(OP_OPEN, OP_READ, OP_CLOSE);
    }

    @Override
    public java.util.Optional<String> passesOverOnError() {
        return java.util.Optional.of("an open (or read) that fails");
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new OpenContentionWorkload(p.get(JAVA_ACCESS), p.get(OPENS), p.get(FILE_SIZE).bytes(), p.get(READ));
    }
}
