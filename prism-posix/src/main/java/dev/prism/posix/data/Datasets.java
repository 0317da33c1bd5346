package dev.prism.posix.data;

import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.data.internal.DatasetDirectory;
import dev.prism.posix.data.internal.DatasetIo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a dataset once, outside any benchmark run, so {@code md5_check} can read the same data
 * many times ({@code md5_check -p dataset=DIR}), and verifies a kept one against its manifest.
 *
 * <pre>{@code
 * import dev.prism.DataSize;
 * import dev.prism.posix.data.DatasetLayout;
 * import dev.prism.posix.data.DatasetSpec;
 * import dev.prism.posix.data.Datasets;
 * import java.nio.file.Files;
 * import java.util.List;
 *
 * var dir = Files.createTempDirectory("dataset");
 * var spec = new DatasetSpec(List.of(DataSize.ofKiB(8)), 4,
 *         DataSize.ofMiB(1), DatasetLayout.FLAT, 1, 42);
 * System.out.println(Datasets.create(dir, spec).entries().size());   // 4
 * System.out.println(Datasets.verify(dir));   // 4 files, 32.0 KiB: all match the manifest
 * }</pre>
 */
public final class Datasets {
    private Datasets() {
    }

    /**
     * What {@code prism dataset create} does: makes {@code directory} (or takes an empty one), refuses a symbolic link
     * or a directory with anything in it, checks the filesystem has the space and inodes the dataset needs, then
     * {@link #write}s it.
     *
     * @return the manifest written
     * @throws dev.prism.TargetException when the directory is a link or not empty, or another user could change a
     *                                   directory on its path (one others may write, not sticky)
     * @throws dev.prism.RefusedException when the dataset does not fit
     */
    public static DatasetManifest create(Path directory, DatasetSpec spec) throws IOException {
        Path dir = directory.toAbsolutePath().normalize();
        dev.prism.spi.Directories.refuseSwappable(dir, "dataset directory");
        if (Files.isSymbolicLink(dir)) {
            throw new dev.prism.TargetException("dataset directory " + dir + " is a symbolic link; give the directory itself");
        }
        if (Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new dev.prism.TargetException("dataset directory " + dir + " is not empty; give a new or empty directory");
                }
            }
        } else {
            Files.createDirectory(dir);
        }
        dev.prism.posix.internal.FileWork.requireSpaceForSizes(dir, spec.fileCount(), spec.bytes(), "the dataset");
        return write(dir, spec);
    }

    /**
     * Writes every file of {@code spec} under {@code directory} (which must exist and hold none of
     * them yet) and its {@code manifest.json}.
     *
     * @return the manifest written
     */
    public static DatasetManifest write(Path directory, DatasetSpec spec) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("directory " + directory + " is not an existing directory");
        }
        FileAccess files = Access.NIO.newFileAccess();
        DatasetContent content = new DatasetContent(spec.seed());
        ByteBuffer chunk = ByteBuffer.allocateDirect(DatasetIo.WRITE_CHUNK);
        List<DatasetManifest.Entry> entries = new ArrayList<>();
        // each directory of the dataset made here, exclusively: a name another user put there first (a link to a
        // directory of theirs, in a sticky project directory where they may add names) fails the write, never written
        // through as Files.createDirectories would
        java.util.Set<Path> made = new java.util.HashSet<>();
        for (DatasetSpec.File f : spec.files()) {
            Path relative = Path.of(f.path()).getParent();
            for (int i = 1; relative != null && i <= relative.getNameCount(); i++) {
                Path sub = directory.resolve(relative.subpath(0, i));
                if (made.add(sub)) {
                    Files.createDirectory(sub);
                }
            }
        }
        for (DatasetSpec.File f : spec.files()) {
            MessageDigest md5 = DatasetIo.md5();
            DatasetIo.write(files, directory, f, content, false, chunk, null, md5, true);
            entries.add(new DatasetManifest.Entry(f.path(), f.sizeBytes(), DatasetIo.hex(md5)));
        }
        DatasetManifest manifest = new DatasetManifest(spec.seed(), entries);
        manifest.write(directory.resolve(DatasetManifest.FILE_NAME));
        return manifest;
    }

    /**
     * What checking a kept dataset against its manifest found.
     *
     * @param files    files the manifest lists
     * @param bytes    bytes it lists
     * @param problems each file missing, of the wrong size, with the wrong MD5, or not listed, one line each
     */
    public record Verification(long files, long bytes, List<String> problems) {
        /** Copies. */
        public Verification {
            problems = List.copyOf(problems);
        }

        /** @return whether every listed file is there with its size and MD5, and nothing else is */
        public boolean passed() {
            return problems.isEmpty();
        }

        @Override
        public String toString() {
            return files + " files, " + dev.prism.spi.Formats.bytes(bytes) + ": " + (passed()
                    ? "all match the manifest" : problems.size() + " problem(s); the first: " + problems.get(0));
        }
    }

    /**
     * Reads every file {@code directory}'s manifest lists (never writing) and checks its size and MD5;
     * files the manifest does not list are problems too.
     *
     * @throws IllegalArgumentException when the directory holds no manifest
     */
    public static Verification verify(Path directory) throws IOException {
        if (!DatasetManifest.presentIn(directory)) {
            throw new IllegalArgumentException(directory + " holds no " + DatasetManifest.FILE_NAME
                    + ": not a dataset written by 'prism dataset create' or create_dataset");
        }
        DatasetManifest manifest = DatasetManifest.read(directory.resolve(DatasetManifest.FILE_NAME));
        List<String> problems = new ArrayList<>();
        ByteBuffer chunk = ByteBuffer.allocateDirect(DatasetIo.WRITE_CHUNK);
        long bytes = 0;
        try (DatasetDirectory beneath = DatasetDirectory.open(directory, false)) {
            // every entry found beneath the directory, and none a link or other than a file, before any file is read
            List<DatasetDirectory.Place> places = new ArrayList<>();
            for (DatasetManifest.Entry entry : manifest.entries()) {
                DatasetDirectory.Place place = beneath.place(entry.path());
                try {
                    beneath.requireRegular(place);
                } catch (dev.prism.posix.PosixException e) {
                    // missing (or a directory on its way missing): said as a problem below
                }
                places.add(place);
            }
            for (int i = 0; i < places.size(); i++) {
                DatasetManifest.Entry entry = manifest.entries().get(i);
                DatasetDirectory.Place place = places.get(i);
                Path file = place.shown();
                bytes += entry.sizeBytes();
                DatasetDirectory.Opened in;
                try {
                    in = beneath.openUntimed(place);
                } catch (dev.prism.posix.PosixException e) {
                    problems.add(file + ": missing");
                    continue;
                }
                MessageDigest md5 = DatasetIo.md5();
                long size = 0;
                try {
                    for (long n; (n = dev.prism.posix.Posix.read(in.fd(), chunk.clear(), file)) > 0; ) {
                        md5.update(chunk.flip());
                        size += n;
                    }
                } finally {
                    DatasetDirectory.close(in);
                }
                if (size != entry.sizeBytes()) {
                    problems.add(file + ": " + size + " bytes, the manifest says " + entry.sizeBytes());
                } else if (entry.md5() != null && !entry.md5().equals(DatasetIo.hex(md5))) {
                    problems.add(file + ": MD5 differs from the manifest's " + entry.md5());
                }
            }
        } catch (IllegalArgumentException e) {
            // an entry that leads outside the directory, or at a link or something not a file: refused, nothing read
            throw new IOException(e.getMessage(), e);
        }
        java.util.Set<String> listed = manifest.byPath().keySet();
        try (java.util.stream.Stream<Path> walk = Files.walk(directory)) {
            walk.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).sorted()
                    .map(p -> directory.relativize(p).toString())
                    .filter(r -> !r.equals(DatasetManifest.FILE_NAME) && !r.startsWith(".manifest-rank-") && !listed.contains(r))
                    .forEach(r -> problems.add(directory.resolve(r) + ": not in the manifest"));
        }
        return new Verification(manifest.entries().size(), bytes, problems);
    }
}
