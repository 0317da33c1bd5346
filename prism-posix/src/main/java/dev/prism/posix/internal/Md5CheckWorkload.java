package dev.prism.posix.internal;

import dev.prism.PrismException;
import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.DatasetContent;
import dev.prism.posix.DatasetManifest;
import dev.prism.posix.DatasetSpec;
import dev.prism.posix.FileAccess;
import dev.prism.posix.FileOrder;
import dev.prism.posix.PageCacheResidency;
import dev.prism.posix.Posix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** One rank of {@code md5_check}. */
public final class Md5CheckWorkload implements Workload {
    /** Above this share of its pages cached, a file counts as not bypassed. */
    private static final double RESIDENT_LIMIT = 0.05;

    private final Access access;
    private final Path dataset;
    private final DatasetSpec generate;
    private final FileOrder order;
    private final int stride;
    private final int epochs;
    private final int chunkSize;
    private final boolean drop;
    private final boolean direct;
    private final boolean readOthers;
    private FileAccess files;
    private Path root;
    private List<DatasetManifest.Entry> mine;
    private Map<String, DatasetManifest.Entry> manifest;
    private ByteBuffer buffer;
    private long orderSeed;
    private final List<String> mismatches = new ArrayList<>();

    public Md5CheckWorkload(Access access, Path dataset, DatasetSpec generate, FileOrder order, int stride, int epochs,
                            int chunkSize, boolean drop, boolean direct, boolean readOthers) {
        this.access = access;
        this.dataset = dataset;
        this.generate = generate;
        this.order = order;
        this.stride = stride;
        this.epochs = epochs;
        this.chunkSize = chunkSize;
        this.drop = drop;
        this.direct = direct;
        this.readOthers = readOthers;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        files = access.newFileAccess();
        orderSeed = ctx.random().nextLong();
        List<DatasetManifest.Entry> all = dataset == null ? generated(ctx) : existing();
        int target = readOthers && ctx.worldSize() > 1 ? (ctx.rank() + 1) % ctx.worldSize() : ctx.rank();
        mine = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i % ctx.worldSize() == target) {
                mine.add(all.get(i));
            }
        }
        buffer = ByteBuffer.allocateDirect(chunkSize + 4096).alignedSlice(4096);
        buffer.limit(chunkSize);
        buffer = buffer.slice();
    }

    /** Writes this rank's share of the dataset (untimed, synced) and returns every file from the merged manifest. */
    private List<DatasetManifest.Entry> generated(WorkloadContext ctx) throws IOException {
        root = ctx.sharedDirectory().resolve("dataset");
        Files.createDirectories(root);
        if (ctx.rank() == 0) {
            FileWork.requireSpace(ctx.sharedDirectory(), generate.bytes(), "the dataset (size_classes × files_per_class, up to total_size)");
        }
        DatasetContent content = new DatasetContent(generate.seed());
        ByteBuffer chunk = ByteBuffer.allocateDirect(DatasetIo.WRITE_CHUNK);
        List<DatasetManifest.Entry> written = new ArrayList<>();
        for (DatasetSpec.File f : generate.files()) {
            if (f.index() % ctx.worldSize() == ctx.rank()) {
                MessageDigest md5 = DatasetIo.md5();
                DatasetIo.write(files, root, f, content, false, chunk, null, md5, true);
                written.add(new DatasetManifest.Entry(f.path(), f.sizeBytes(), DatasetIo.hex(md5)));
            }
        }
        new DatasetManifest(generate.seed(), written).write(root.resolve(".manifest-rank-" + ctx.rank() + ".json"));
        ctx.barrier();
        List<Path> parts = new ArrayList<>();
        for (int r = 0; r < ctx.worldSize(); r++) {
            parts.add(root.resolve(".manifest-rank-" + r + ".json"));
        }
        DatasetManifest merged = DatasetManifest.merge(generate.seed(), parts);
        manifest = merged.byPath();
        return byIndex(merged.entries());
    }

    /** Files sorted by index (file-NNNNNN), which is how ranks wrote them: rank = index mod tasks. */
    private static List<DatasetManifest.Entry> byIndex(List<DatasetManifest.Entry> entries) {
        List<DatasetManifest.Entry> sorted = new ArrayList<>(entries);
        sorted.sort(java.util.Comparator.comparing(e -> e.path().substring(e.path().lastIndexOf('/') + 1)));
        return sorted;
    }

    /** Lists an existing dataset (never writing to it) and loads its manifest when there is one. */
    private List<DatasetManifest.Entry> existing() throws IOException {
        root = dataset;
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("dataset " + root + " is not an existing directory");
        }
        if (DatasetManifest.presentIn(root)) {
            DatasetManifest m = DatasetManifest.read(root.resolve(DatasetManifest.FILE_NAME));
            manifest = m.byPath();
            if (!m.entries().isEmpty()) {
                return m.seed() >= 0 ? byIndex(m.entries()) : m.entries();
            }
        }
        List<DatasetManifest.Entry> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().forEach(p -> {
                String relative = root.relativize(p).toString();
                if (!relative.equals(DatasetManifest.FILE_NAME) && !relative.startsWith(".manifest-rank-")) {
                    found.add(new DatasetManifest.Entry(relative, -1, null));
                }
            });
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("dataset " + root + " has no files to read");
        }
        return found;
    }

    @Override
    public void run(WorkloadContext ctx) {
        MessageDigest md5 = DatasetIo.md5();
        for (int epoch = 0; epoch < epochs; epoch++) {
            int[] visit = switch (order) {
                case SEQUENTIAL -> ReadOrder.sequential(mine.size());
                case RANDOM -> ReadOrder.random(mine.size(), orderSeed, epoch);
                case STRIDED -> ReadOrder.strided(mine.size(), stride);
            };
            for (int index : visit) {
                readOne(ctx, mine.get(index), md5);
            }
        }
    }

    private void readOne(WorkloadContext ctx, DatasetManifest.Entry entry, MessageDigest md5) {
        Path path = root.resolve(entry.path());
        if (drop) {
            try (var t = ctx.time("drop", path)) {
                Posix.dropFromPageCache(path);
            }
        }
        PageCacheResidency before = Posix.residency(path);
        ctx.addCounter("pages_before_read", before.pages());
        ctx.addCounter("resident_pages_before_read", before.residentPages());
        if (before.fraction() > RESIDENT_LIMIT) {
            ctx.addCounter("files_over_5pct_resident", 1);
        }
        long expected = entry.sizeBytes() >= 0 ? entry.sizeBytes() : files.stat(path).sizeBytes();
        long read = 0;
        try (var file = ctx.time("file", path)) {
            FileAccess.OpenFile in;
            try (var t = ctx.time("open", path)) {
                in = direct ? files.openReadDirect(path) : files.openRead(path);
            }
            try {
                while (true) {
                    buffer.clear();
                    int n;
                    try (var t = ctx.time("read", path)) {
                        n = in.read(buffer);
                    }
                    if (n < 0) {
                        break;
                    }
                    ctx.addBytes("read", n);
                    read += n;
                    md5.update(buffer.flip());
                }
            } finally {
                try (var t = ctx.time("close", path)) {
                    in.close();
                }
            }
        }
        ctx.addBytes("file", read);
        ctx.addCounter("files_read", 1);
        if (read != expected) {
            md5.reset();
            throw new PrismException(path + " " + (read < expected ? "shrank" : "grew") + " while being read: read "
                    + read + " bytes, expected " + expected);
        }
        String actual = DatasetIo.hex(md5);
        DatasetManifest.Entry listed = manifest == null ? null : manifest.get(entry.path());
        if (listed != null && listed.md5() != null && !listed.md5().isEmpty() && !listed.md5().equals(actual)) {
            mismatches.add(path + ": MD5 " + actual + ", manifest says " + listed.md5());
        }
    }

    @Override
    public void validate(WorkloadContext ctx) {
        if (!mismatches.isEmpty()) {
            throw new ValidationException(mismatches.size() + " file(s) do not match the manifest; first: " + mismatches.get(0));
        }
    }
}
