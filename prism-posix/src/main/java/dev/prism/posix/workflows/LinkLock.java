package dev.prism.posix.workflows;

import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Workload;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.workflows.internal.LinkLockWorkload;

import java.util.List;

/**
 * {@code link_lock}: what conda and uv do to a package cache. Rank 0 fills a cache of packages
 * (untimed); every rank hard-links each package's files into its own environment ({@code mkdir},
 * {@code link}) and, holding an exclusive lock on the cache's lock file that all ranks contend for
 * ({@code lock}, {@code unlock}), writes the package's record ({@code record}). NATIVE locks with
 * {@code flock}; NIO with {@code FileChannel.lock}, which is an {@code fcntl} record lock.
 *
 * <pre>{@code
 * import dev.prism.posix.PosixBenchmarks;
 *
 * var b = PosixBenchmarks.linkLock().packages(50).filesPerPackage(200);
 * System.out.println(b.parameters());
 * }</pre>
 */
public final class LinkLock extends PosixBenchmark<LinkLock> {
    /** Packages in the cache. */
    public static final Parameter<Integer> PACKAGES =
            Parameter.ofInt("packages", 20, 1, 100_000, "packages", "packages in the cache, each linked by every rank");
    /** Files in each package. */
    public static final Parameter<Integer> FILES_PER_PACKAGE =
            Parameter.ofInt("files_per_package", 50, 1, 1_000_000, "files", "files in each package");

    /** Every parameter, in the order {@code prism describe} shows them. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ACCESS, PACKAGES, FILES_PER_PACKAGE, FILE_SIZE);

    /** A benchmark with exactly these parameters, every one declared: {@link #of} merges in the defaults. */
    private LinkLock(Parameters parameters) {
        super("link_lock", "hard-link a package cache into per-rank environments under a contended flock, as conda and uv do",
                parameters);
    }

    /** @return link_lock with these parameter values (missing ones at their defaults) */
    public static LinkLock of(Parameters parameters) {
        return new LinkLock(Parameters.defaults(PARAMETERS).withText(parameters.asText()));
    }

    @Override
    protected LinkLock with(Parameters parameters) {
        return new LinkLock(parameters);
    }

    /** @param packages packages in the cache, 1..100000 */
    public LinkLock packages(int packages) {
        return set(PACKAGES, packages);
    }

    /** @param filesPerPackage files in each package, 1..1000000 */
    public LinkLock filesPerPackage(int filesPerPackage) {
        return set(FILES_PER_PACKAGE, filesPerPackage);
    }

    /** @param fileSize bytes in each cached file, 1B..64GiB */
    public LinkLock fileSize(DataSize fileSize) {
        return set(FILE_SIZE, fileSize);
    }

    @Override
    public Workload newWorkload() {
        Parameters p = parameters();
        return new LinkLockWorkload(p.get(ACCESS), p.get(PACKAGES), p.get(FILES_PER_PACKAGE), p.get(FILE_SIZE).bytes());
    }
}
