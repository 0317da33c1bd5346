package dev.prism.posix;

/**
 * Typed factories for the POSIX benchmarks, each starting from its defaults.
 *
 * <pre>{@code
 * var b = dev.prism.posix.PosixBenchmarks.createFiles().files(5000).fileSize(dev.prism.DataSize.ofKiB(4));
 * }</pre>
 */
public final class PosixBenchmarks {
    private PosixBenchmarks() {
    }

    /** @return {@code create_files} with defaults: 1000 files of 4KiB per rank, per-rank directories */
    public static CreateFiles createFiles() {
        return CreateFiles.defaults();
    }
}
