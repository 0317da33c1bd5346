package dev.prism.posix.data.internal;

import dev.prism.PrismException;
import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.PageCacheResidency;
import dev.prism.posix.Posix;
import dev.prism.posix.data.DatasetContent;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.FileOrder;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.KernelCaches;
import dev.prism.posix.internal.NativeCalls;
import dev.prism.posix.internal.PythonFileCalls;
import dev.prism.posix.internal.Rehearsal;

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
    /** false: read only, no MD5 and nothing verified */
    private final boolean hash;
    private final boolean readOthers;
    private FileAccess files;
    private Path root;
    private List<DatasetManifest.Entry> mine;
    /** The dataset's directory, held open: every file of {@link #mine} is reached beneath it, never through a link */
    private DatasetDirectory dirs;
    /** Where each of {@link #mine} is beneath {@link #dirs}, checked before the timed pass */
    private DatasetDirectory.Place[] places;
    private Map<String, DatasetManifest.Entry> manifest;
    private ByteBuffer buffer;
    private long orderSeed;
    /** Each of {@link #mine}'s sizes: the manifest's, else found by stat before the timed pass. */
    private long[] sizes;
    /** Where the stat before the timed pass failed, why: that file's timed read meets it as its error */
    private RuntimeException[] unsized;
    private final List<String> mismatches = new ArrayList<>();
    /** The worker whose Python calls are timed, for access=python and fsspec; else null */
    private PythonFileCalls python;

    public Md5CheckWorkload(Access access, Path dataset, DatasetSpec generate, FileOrder order, int stride, int epochs,
                            int chunkSize, boolean drop, boolean direct, boolean hash, boolean readOthers) {
        this.access = access;
        this.dataset = dataset;
        this.generate = generate;
        this.order = order;
        this.stride = stride;
        this.epochs = epochs;
        this.chunkSize = chunkSize;
        this.drop = drop;
        this.direct = direct;
        this.hash = hash;
        this.readOthers = readOthers;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        if (access.inPython() && direct) {
            throw new IllegalArgumentException("direct=true reads with O_DIRECT into aligned buffers, which access="
                    + access.name().toLowerCase(java.util.Locale.ROOT) + " cannot: use access=native or nio");
        }
        files = access.newFileAccess(ctx);
        orderSeed = ctx.random().nextLong();
        List<DatasetManifest.Entry> all = dataset == null ? generated(ctx) : existing();
        if (dataset != null) {
            ctx.note("dataset_found", describe(all, manifest != null));
        }
        if (!hash) {
            ctx.note("hash", "off: every file was read to its end, none hashed or checked against a manifest");
        }
        int target = readOthers && ctx.worldSize() > 1 ? readFrom(ctx) : ctx.rank();
        mine = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i % ctx.worldSize() == target) {
                mine.add(all.get(i));
            }
        }
        // page-aligned for O_DIRECT; a whole number of pages plus one, so the aligned slice holds the chunk whatever its
        // size (a chunk of 150 KiB lost a page to the alignment and failed: newLimit > capacity)
        buffer = ByteBuffer.allocateDirect((chunkSize + 4095) / 4096 * 4096 + 4096).alignedSlice(4096);
        buffer.limit(chunkSize);
        buffer = buffer.slice();
        sizes = new long[mine.size()];
        unsized = new RuntimeException[mine.size()];
        for (int i = 0; i < mine.size(); i++) {
            sizes[i] = mine.get(i).sizeBytes();
        }
        placeEveryFile(ctx);
        prepareEpoch(ctx);
        python = access.inPython() ? PythonFileCalls.start(ctx, access) : null;
    }

    @Override
    public void teardown(WorkloadContext ctx) {
        try {
            PythonFileCalls.close(python);
        } finally {
            if (dirs != null) {
                dirs.close();
            }
        }
    }

    /**
     * Before anything is read: holds the dataset's directory open and finds each of this rank's files beneath it, one
     * component at a time without following a link. A name that would lead outside (absolute, {@code ..}, a link to a
     * file or a directory elsewhere) or at anything but a regular file (a FIFO, a device) fails the rank naming the
     * entry; a file that is missing or cannot be stat'ed is said beside the results and left for the timed pass, as
     * before, where its open meets the same error.
     */
    private void placeEveryFile(WorkloadContext ctx) throws IOException {
        dirs = DatasetDirectory.open(root, access == Access.NIO);
        places = new DatasetDirectory.Place[mine.size()];
        for (int i = 0; i < mine.size(); i++) {
            places[i] = dirs.place(mine.get(i).path());
        }
        for (int i = 0; i < mine.size(); i++) {
            try {
                long found = dirs.requireRegular(places[i]).sizeBytes();
                if (sizes[i] < 0) {
                    sizes[i] = found;
                }
            } catch (dev.prism.posix.PosixException e) {
                if (sizes[i] < 0) {
                    unsized[i] = e;
                }
                ctx.untimedProblem("finding " + places[i].shown() + " before the timed pass", e);
            }
        }
    }

    /**
     * With {@code read_others}: every rank says which node it runs on (a file in the shared directory), and all read
     * the share of the rank {@link #shift} places after them, on another node wherever the layout allows, so no read
     * comes through the page cache of the node that wrote it. Noted in the result: which rank, on which node.
     */
    private static int readFrom(WorkloadContext ctx) throws IOException {
        Path hosts = ctx.sharedDirectory().resolve(".read-others-hosts");
        Files.createDirectories(hosts);
        String mine = dev.prism.HostInfo.current().hostname();
        Files.writeString(hosts.resolve("rank-" + ctx.rank()), mine);
        ctx.barrier();
        List<String> nodes = new ArrayList<>();
        for (int r = 0; r < ctx.worldSize(); r++) {
            nodes.add(Files.readString(hosts.resolve("rank-" + r)));
        }
        int target = (ctx.rank() + shift(nodes)) % ctx.worldSize();
        boolean elsewhere = !nodes.get(target).equals(mine);
        ctx.note("read_others", "reads the files rank " + target + " wrote, on " + nodes.get(target)
                + (elsewhere ? " (another node)" : " (the same node: every rank runs on " + mine + ")"));
        return target;
    }

    /**
     * @return the shift {@code s} (1 ≤ s &lt; ranks) by which rank {@code r} reads rank {@code r + s}'s files: the
     *         smallest that puts the most ranks on another node than the one they read from (every rank, where nodes
     *         hold equal numbers of ranks). A shift, so every rank's files are read exactly once
     */
    static int shift(List<String> nodeOfRank) {
        int n = nodeOfRank.size();
        int best = 1;
        int bestCrossing = -1;
        for (int s = 1; s < n; s++) {
            int crossing = 0;
            for (int r = 0; r < n; r++) {
                if (!nodeOfRank.get(r).equals(nodeOfRank.get((r + s) % n))) {
                    crossing++;
                }
            }
            if (crossing > bestCrossing) {
                best = s;
                bestCrossing = crossing;
            }
            if (crossing == n) {
                break;
            }
        }
        return best;
    }

    /** Writes this rank's share of the dataset (untimed, synced) and returns every file from the merged manifest. */
    private List<DatasetManifest.Entry> generated(WorkloadContext ctx) throws IOException {
        root = ctx.sharedDirectory().resolve("dataset");
        Files.createDirectories(root);
        if (ctx.rank() == 0) {
            FileWork.requireSpaceForSizes(ctx.sharedDirectory(), generate.fileCount(), generate.bytes(),
                    "the dataset (size_classes × files_per_class, up to total_size)");
        }
        DatasetContent content = new DatasetContent(generate.seed());
        ByteBuffer chunk = ByteBuffer.allocateDirect(DatasetIo.WRITE_CHUNK);
        List<DatasetManifest.Entry> written = new ArrayList<>();
        DatasetIo.createDirectories(root, generate.files());
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

    /**
     * @return what a kept dataset holds, as found: {@code 800000 files in 1000 directories, 24.4 GiB (32KiB×800000),
     *         manifest} — sizes from its manifest, or "sizes unknown" without one (they are found by stat before timing)
     */
    static String describe(List<DatasetManifest.Entry> entries, boolean withManifest) {
        long directories = entries.stream().map(e -> e.path().contains("/") ? e.path().substring(0, e.path().lastIndexOf('/')) : "")
                .distinct().count();
        StringBuilder s = new StringBuilder(entries.size() + " files in " + directories
                + (directories == 1 ? " directory" : " directories"));
        if (withManifest && entries.stream().allMatch(e -> e.sizeBytes() >= 0)) {
            long bytes = entries.stream().mapToLong(DatasetManifest.Entry::sizeBytes).sum();
            java.util.Map<Long, Long> bySize = new java.util.TreeMap<>(entries.stream().collect(
                    java.util.stream.Collectors.groupingBy(DatasetManifest.Entry::sizeBytes, java.util.stream.Collectors.counting())));
            s.append(", ").append(dev.prism.spi.Formats.bytes(bytes)).append(" (");
            s.append(String.join(" ", bySize.entrySet().stream().map(e -> dev.prism.DataSize.ofBytes(e.getKey()) + "×" + e.getValue())
                    .toList())).append("), manifest");
        } else {
            s.append(", sizes unknown, no manifest");
        }
        return s.toString();
    }

    /**
     * @return whether every rank starts epoch {@code epoch}: its count decides, or, in a time-based run, rank 0's clock —
     *         written to the shared directory between two barriers, so that no rank waits at a barrier the others
     *         have left (each rank's own clock could decide differently near the end)
     */
    private boolean anotherEpoch(WorkloadContext ctx, int epoch) throws IOException {
        if (!ctx.timeBased()) {
            return epoch < epochs;
        }
        Path decision = ctx.sharedDirectory().resolve(".epoch-" + epoch);
        if (ctx.rank() == 0) {
            Files.writeString(decision, ctx.keepGoing(0, 1) ? "go" : "stop");
        }
        ctx.barrier();
        return Files.readString(decision).equals("go");
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

    /**
     * Gets every file ready for an epoch's timed pass, in passes of their own before it, so that no
     * untimed call on a path comes just before its timed open: sizes (stat, where no manifest says),
     * then the page-cache drop of every file, then the residency probe of every file, then, as root,
     * the kernel's dentry and inode caches (the probes and drops looked the paths up again).
     * This is PRISM's own untimed work: a file it cannot stat, drop or probe (gone, EIO) is said beside the
     * results ({@link WorkloadContext#untimedProblem}) and left for the timed pass, where its read meets the
     * same storage — an error of that file, counted under {@code --continue-on-error}, else the rank's failure.
     */
    private void prepareEpoch(WorkloadContext ctx) {
        for (int i = 0; i < mine.size(); i++) {
            if (sizes[i] < 0) {
                Path path = places[i].shown();
                try {
                    sizes[i] = dirs.requireRegular(places[i]).sizeBytes();
                    unsized[i] = null;
                } catch (dev.prism.posix.PosixException e) {
                    unsized[i] = e;
                    ctx.untimedProblem("finding the size of " + path + " before the timed pass", e);
                }
            }
        }
        if (drop) {
            for (DatasetDirectory.Place place : places) {
                try {
                    DatasetDirectory.Opened file = dirs.openUntimed(place);
                    try {
                        Posix.fdatasync(file.fd(), place.shown());
                        Posix.fadvise(file.fd(), 0, 0, Posix.POSIX_FADV_DONTNEED, place.shown());
                    } finally {
                        DatasetDirectory.close(file);
                    }
                } catch (dev.prism.posix.PosixException e) {
                    ctx.untimedProblem("dropping " + place.shown() + " from the page cache before the timed pass", e);
                }
            }
        }
        for (DatasetDirectory.Place place : places) {
            PageCacheResidency before;
            try {
                DatasetDirectory.Opened file = dirs.openUntimed(place);
                try {
                    before = NativeCalls.residency(file.fd(), file.sizeBytes(), place.shown());
                } finally {
                    DatasetDirectory.close(file);
                }
            } catch (dev.prism.posix.PosixException e) {
                ctx.untimedProblem("probing the page cache for " + place.shown() + " before the timed pass", e);
                continue;
            }
            ctx.addCounter("pages_before_read", before.pages());
            ctx.addCounter("resident_pages_before_read", before.residentPages());
            if (before.fraction() > RESIDENT_LIMIT) {
                ctx.addCounter("files_over_5pct_resident", 1);
            }
        }
        if (drop) {
            ctx.note("dentries_dropped", KernelCaches.dropDentriesAndInodes());
        }
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // the read path (open, reads, MD5, close) on a scratch file of its own
        Rehearsal.inScratchDirectory(ctx, scratch -> {
            Path own = scratch.resolve("rehearsal.bin");
            String name = own.getFileName().toString();
            long timedBytes = java.util.Arrays.stream(sizes).filter(b -> b > 0).sum();
            long size = Rehearsal.stepSize(4L * chunkSize, timedBytes);
            FileWork.populate(files, own, FileWork.blockFor(size), size);
            if (python != null) {
                python.rehearse(Map.of("op", "md5", "chunk", chunkSize, "hash", hash, "files",
                        java.util.Collections.nCopies(Rehearsal.steps(PythonFileCalls.REHEARSAL_FILES / 10, size, timedBytes),
                                List.of(own.toString(), size))));
                return;
            }
            MessageDigest md5 = DatasetIo.md5();
            // the same open as the timed pass's: beneath a held directory, one component, no link followed
            try (DatasetDirectory scratchDirectory = DatasetDirectory.open(scratch, access == Access.NIO)) {
                DatasetDirectory.Place place = scratchDirectory.place(name);
                DatasetDirectory.Directory directory = scratchDirectory.directory(place);
                Rehearsal.repeat(ctx, Rehearsal.steps(Rehearsal.ITERATIONS / 10, size, timedBytes), i -> {
                    readFile(ctx, scratchDirectory, directory, place, size, md5);
                    md5.reset();
                });
            }
        });
    }

    @Override
    public void run(WorkloadContext ctx) throws IOException {
        MessageDigest md5 = DatasetIo.md5();
        for (int epoch = 0; ; epoch++) {
            if (epoch > 0) {
                // the first epoch was prepared in setup; later ones meet here so that no rank's
                // preparation runs while another is in its timed pass
                ctx.barrier();
                if (!anotherEpoch(ctx, epoch)) {
                    break;
                }
                prepareEpoch(ctx);
                ctx.barrier();
            }
            int[] visit = switch (order) {
                case SEQUENTIAL -> ReadOrder.sequential(mine.size());
                case RANDOM -> ReadOrder.random(mine.size(), orderSeed, epoch);
                case STRIDED -> ReadOrder.strided(mine.size(), stride);
            };
            if (python != null) {
                readInPython(ctx, visit);
                continue;
            }
            for (int index : visit) {
                if (ctx.timeBased() && !ctx.keepGoing(0, 1)) {
                    break;   // the time is up in the middle of an epoch: the files read so far count
                }
                DatasetManifest.Entry entry = mine.get(index);
                DatasetDirectory.Place place = places[index];
                long size = sizes[index];
                RuntimeException unknown = unsized[index];
                if (ctx.continueOnError()) {
                    if (!ctx.attempt("file", place.shown(), () -> readOne(ctx, entry, place, size, unknown, md5))) {
                        md5.reset();   // a file cut short leaves a partial digest behind
                    }
                } else {
                    readOne(ctx, entry, place, size, unknown, md5);
                }
            }
        }
    }

    /** One epoch's files in {@code visit} order, read and hashed by the Python worker; checked here as Java checks its own. */
    private void readInPython(WorkloadContext ctx, int[] visit) {
        List<List<Object>> request = new ArrayList<>(visit.length);
        for (int index : visit) {
            if (unsized[index] != null) {
                Path path = places[index].shown();
                throw new PrismException("before the timed pass, finding the size of " + path + " failed: "
                        + unsized[index].getMessage(), unsized[index]);
            }
            request.add(List.of(places[index].shown().toString(), sizes[index]));
        }
        var found = python.run(ctx, Map.of("op", "md5", "chunk", chunkSize, "hash", hash, "files", request));
        for (int k = 0; k < visit.length; k++) {
            DatasetManifest.Entry entry = mine.get(visit[k]);
            Path path = places[visit[k]].shown();
            long read = found.path("read").path(k).asLong();
            if (read != sizes[visit[k]]) {
                throw new PrismException(path + (read < 0 ? " grew while being read: it holds more than the expected "
                        + sizes[visit[k]] + " bytes" : " shrank while being read: read " + read + " bytes, expected "
                        + sizes[visit[k]]));
            }
            ctx.addCounter("files_read", 1);
            if (!hash) {
                continue;
            }
            String actual = found.path("digests").path(k).asText();
            DatasetManifest.Entry listed = manifest == null ? null : manifest.get(entry.path());
            if (listed != null && listed.md5() != null && !listed.md5().isEmpty() && !listed.md5().equals(actual)) {
                mismatches.add(path + ": MD5 " + actual + ", manifest says " + listed.md5());
            }
        }
    }

    private void readOne(WorkloadContext ctx, DatasetManifest.Entry entry, DatasetDirectory.Place place, long expected,
                         RuntimeException unknown, MessageDigest md5) {
        Path path = place.shown();
        if (unknown != null) {
            // its size could not be found before the timed pass: that failure is this file's error
            throw new PrismException("before the timed pass, finding the size of " + path + " failed: " + unknown.getMessage(),
                    unknown);
        }
        // its directory found (held, or opened one component at a time without following a link) before the timer
        DatasetDirectory.Directory directory = dirs.directory(place);
        long read = readFile(ctx, dirs, directory, place, expected, md5);
        ctx.addBytes("file", read);
        ctx.addCounter("files_read", 1);
        if (!hash) {
            return;
        }
        String actual = DatasetIo.hex(md5);
        DatasetManifest.Entry listed = manifest == null ? null : manifest.get(entry.path());
        if (listed != null && listed.md5() != null && !listed.md5().isEmpty() && !listed.md5().equals(actual)) {
            mismatches.add(path + ": MD5 " + actual + ", manifest says " + listed.md5());
        }
    }

    /**
     * The timed work for one file: open, reads until {@code expected} bytes are in, close, all within
     * "file". A {@code read} sample is a read that returned data: the end-of-file read that a loader
     * makes to find the end (and that tells PRISM the file did not grow) is part of "file" but no
     * {@code read} sample.
     *
     * @return bytes read
     */
    private long readFile(WorkloadContext ctx, DatasetDirectory beneath, DatasetDirectory.Directory directory,
                          DatasetDirectory.Place place, long expected, MessageDigest md5) {
        Path path = place.shown();
        long read = ctx.call("file", path, () -> {
            FileAccess.OpenFile in = ctx.call("open", path, () -> beneath.openRead(files, directory, place, direct));
            long total = 0;
            try {
                while (total < expected) {
                    buffer.clear();
                    int n = ctx.call("read", path, () -> in.read(buffer));
                    if (n < 0) {
                        return total;
                    }
                    ctx.addBytes("read", n);
                    total += n;
                    if (hash) {
                        md5.update(buffer.flip());
                    }
                }
                buffer.clear();
                return in.read(buffer) > 0 ? -1 : total; // the end-of-file read; -1: there was more
            } finally {
                ctx.measure("close", path, in::close);
            }
        });
        boolean grew = read < 0;
        if (read != expected) {
            md5.reset();
            throw new PrismException(path + (grew ? " grew while being read: it holds more than the expected "
                    + expected + " bytes" : " shrank while being read: read " + read + " bytes, expected " + expected));
        }
        return read;
    }

    @Override
    public void validate(WorkloadContext ctx) {
        if (!mismatches.isEmpty()) {
            throw new ValidationException(mismatches.size() + " file(s) do not match the manifest; first: " + mismatches.get(0));
        }
    }
}
