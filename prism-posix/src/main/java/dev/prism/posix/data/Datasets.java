package dev.prism.posix.data;

import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
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
 * many times ({@code md5_check -p dataset=DIR}).
 *
 * <pre>{@code
 * var dir = java.nio.file.Files.createTempDirectory("dataset");
 * var spec = new dev.prism.posix.data.DatasetSpec(java.util.List.of(dev.prism.DataSize.ofKiB(8)), 4,
 *         dev.prism.DataSize.ofMiB(1), dev.prism.posix.data.DatasetLayout.FLAT, 1, 42);
 * System.out.println(dev.prism.posix.data.Datasets.write(dir, spec).entries().size());
 * }</pre>
 */
public final class Datasets {
    private Datasets() {
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
        DatasetIo.createDirectories(directory, spec.files());
        for (DatasetSpec.File f : spec.files()) {
            MessageDigest md5 = DatasetIo.md5();
            DatasetIo.write(files, directory, f, content, false, chunk, null, md5, true);
            entries.add(new DatasetManifest.Entry(f.path(), f.sizeBytes(), DatasetIo.hex(md5)));
        }
        DatasetManifest manifest = new DatasetManifest(spec.seed(), entries);
        manifest.write(directory.resolve(DatasetManifest.FILE_NAME));
        return manifest;
    }
}
