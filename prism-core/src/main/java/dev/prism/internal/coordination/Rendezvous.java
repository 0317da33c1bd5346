package dev.prism.internal.coordination;

import java.nio.file.Path;

/**
 * Where ranks find the coordinator: a TCP address (rank 0 listens), or a directory on the shared
 * filesystem, for clusters where ranks cannot open sockets to each other (the paper's file-based method).
 *
 * @param host      the coordinator's host (TCP)
 * @param port      its port (TCP)
 * @param directory the shared directory (FILE), or null for TCP
 */
public record Rendezvous(String host, int port, Path directory) {
    /** @return a TCP rendezvous */
    public static Rendezvous tcp(String host, int port) {
        return new Rendezvous(host, port, null);
    }

    /** @return a rendezvous through files in {@code directory} */
    public static Rendezvous directory(Path directory) {
        return new Rendezvous(null, 0, directory.toAbsolutePath());
    }

    /** @return whether ranks meet through files */
    public boolean isDirectory() {
        return directory != null;
    }

    @Override
    public String toString() {
        return isDirectory() ? "directory " + directory : host + ":" + port;
    }
}
