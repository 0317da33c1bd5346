package dev.prism;

import dev.prism.internal.coordination.HostProbe;

/**
 * The host a run executed on, recorded in every result so numbers are never read without their
 * context.
 *
 * <pre>{@code
 * import dev.prism.HostInfo;
 *
 * System.out.println(HostInfo.current());
 * }</pre>
 *
 * @param hostname     the host's name
 * @param kernel       the kernel release ({@code uname -r})
 * @param os           the operating system name
 * @param arch         the CPU architecture
 * @param cpus         processors available to the JVM
 * @param memoryBytes  total memory ({@code MemTotal} of {@code /proc/meminfo}), 0 when unknown
 * @param java         the Java runtime's version and vendor
 * @param prismVersion PRISM's version
 */
public record HostInfo(String hostname, String kernel, String os, String arch, int cpus, long memoryBytes,
                       String java, String prismVersion) {
    /** @return this host, read now */
    public static HostInfo current() {
        return HostProbe.read();
    }

    /** @return memory available for new work now ({@code MemAvailable} of {@code /proc/meminfo}), 0 when unknown */
    public static long availableMemoryBytes() {
        return HostProbe.availableMemoryBytes();
    }
}
