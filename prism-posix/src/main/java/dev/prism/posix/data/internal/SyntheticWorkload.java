package dev.prism.posix.data.internal;

import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.spi.SplitMix;
import dev.prism.posix.Access;
import dev.prism.posix.FileAccess;
import dev.prism.posix.data.Arrival;
import dev.prism.posix.data.DataPattern;
import dev.prism.posix.data.SizeDistribution;
import dev.prism.posix.internal.FileWork;
import dev.prism.posix.internal.Rehearsal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/** One rank of {@code create_synthetic_workload}. */
public final class SyntheticWorkload implements Workload {
    private static final int BLOCK = 1 << 20;
    private static final int PAGE = 4096;
    private static final long LATE_NANOS = 1_000_000;
    private static final long SPIN_NANOS = 200_000;

    private final Access access;
    private final int files;
    private final Arrival arrival;
    private final double rate;
    private final long burstOnNanos;
    private final long burstOffNanos;
    private final SizeDistribution distribution;
    private final long meanSize;
    private final long minSize;
    private final long maxSize;
    private final double sigma;
    private final DataPattern pattern;
    private final double compressRatio;
    private FileAccess fileAccess;
    private ByteBuffer block;
    private long[] sizes;
    private long[] offsets;

    public SyntheticWorkload(Access access, int files, Arrival arrival, double rate, long burstOnNanos, long burstOffNanos,
                             SizeDistribution distribution, long meanSize, long minSize, long maxSize, double sigma,
                             DataPattern pattern, double compressRatio) {
        this.access = access;
        this.files = files;
        this.arrival = arrival;
        this.rate = rate;
        this.burstOnNanos = burstOnNanos;
        this.burstOffNanos = burstOffNanos;
        this.distribution = distribution;
        this.meanSize = meanSize;
        this.minSize = minSize;
        this.maxSize = maxSize;
        this.sigma = sigma;
        this.pattern = pattern;
        this.compressRatio = compressRatio;
    }

    @Override
    public void setup(WorkloadContext ctx) throws IOException {
        Random random = ctx.random();
        sizes = sizes(random, files, distribution, meanSize, minSize, maxSize, sigma);
        offsets = arrivals(random, files, arrival, rate, burstOnNanos, burstOffNanos);
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        FileWork.requireSpaceForSizes(ctx.workDirectory(), FileWork.product(sizes.length, ctx.worldSize(), 1),
                FileWork.product(total, ctx.worldSize(), 1), "the drawn file sizes × tasks");
        fileAccess = access.newFileAccess(ctx);
        block = fill(pattern, compressRatio, random);
    }

    /** @return {@code n} sizes drawn from the distribution, clamped to min..max */
    public static long[] sizes(Random random, int n, SizeDistribution distribution, long mean, long min, long max,
                               double sigma) {
        long[] sizes = new long[n];
        double mu = Math.log(mean) - sigma * sigma / 2; // a lognormal with this mu has the requested mean
        for (int i = 0; i < n; i++) {
            double drawn = switch (distribution) {
                case FIXED -> mean;
                case UNIFORM -> min + random.nextDouble() * (max - min);
                case EXPONENTIAL -> -mean * Math.log(1 - random.nextDouble());
                case LOGNORMAL -> Math.exp(mu + sigma * random.nextGaussian());
            };
            sizes[i] = Math.max(min, Math.min(max, Math.round(drawn)));
        }
        return sizes;
    }

    /** @return when each of {@code n} files should start, in nanoseconds after the timed phase begins */
    public static long[] arrivals(Random random, int n, Arrival arrival, double rate, long onNanos, long offNanos) {
        long[] offsets = new long[n];
        double meanGapNanos = 1e9 / rate;
        double active = 0;
        for (int i = 0; i < n; i++) {
            offsets[i] = switch (arrival) {
                case NONE -> 0;
                case FIXED -> Math.round(i * meanGapNanos);
                case POISSON -> Math.round(active);
                case BURSTS -> Math.round(active + Math.floor(active / onNanos) * offNanos);
            };
            active += -meanGapNanos * Math.log(1 - random.nextDouble());
        }
        return offsets;
    }

    @Override
    public void rehearse(WorkloadContext ctx) throws IOException {
        // the same service path for small files of its own
        long timedBytes = java.util.Arrays.stream(sizes).sum();
        long size = Math.min(sizes[0], PAGE);
        Rehearsal.inScratchDirectory(ctx, scratch -> Rehearsal.repeat(ctx, Rehearsal.steps(Rehearsal.ITERATIONS / 4, size, timedBytes),
                i -> writeFile(ctx, scratch.resolve("rehearsal-" + i + ".dat"), i, size)));
    }

    /** The timed work for one file, as {@code service}: create, write its content, close. */
    private void writeFile(WorkloadContext ctx, Path file, int index, long size) {
        ctx.measure("service", file, () -> {
            try (FileAccess.OpenFile out = fileAccess.create(file)) {
                writeContent(out, block, pattern != DataPattern.ZEROS, ctx.rank(), index, size);
            }
        });
    }

    /**
     * Writes {@code size} bytes of {@code block}'s content, stamping (when {@code unique}) the first 8
     * bytes of every 4 KiB page with a mix of (rank, file, offset), so that no two pages of any
     * file of any rank are equal: deduplicating storage finds nothing to fold, as with real data,
     * while the rest of each page keeps the pattern's compressibility. About 256 stores per MiB: the
     * content stays at generator speed.
     */
    static void writeContent(FileAccess.OpenFile out, ByteBuffer block, boolean unique, int rank, int file, long size) {
        long offset = 0;
        while (offset < size) {
            block.clear();
            int length = (int) Math.min(block.capacity(), size - offset);
            if (unique) {
                for (int page = 0; page < length; page += PAGE) {
                    block.putLong(page, pageStamp(rank, file, offset + page));
                }
            }
            block.limit(length);
            while (block.hasRemaining()) {
                out.write(block);
            }
            offset += length;
        }
    }

    /**
     * @return a 64-bit stamp of (rank, file, page): SplitMix64's finaliser (a bijection) of the file,
     *         plus the page number, finalised again — distinct pages collide only by 64-bit chance
     */
    static long pageStamp(int rank, int file, long offset) {
        return SplitMix.mix(SplitMix.mix(((long) rank << 32) | (file & 0xFFFFFFFFL)) + offset / PAGE);
    }

    /** @return the 1 MiB block the files are written from: per 4 KiB page, 1/ratio random bytes then zeros */
    static ByteBuffer fill(DataPattern pattern, double compressRatio, Random random) {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        byte[] page = new byte[PAGE];
        int randomPerPage = pattern == DataPattern.RANDOM ? PAGE
                : pattern == DataPattern.ZEROS ? 0 : (int) Math.max(1, Math.round(PAGE / compressRatio));
        for (int p = 0; p < BLOCK / PAGE; p++) {
            java.util.Arrays.fill(page, (byte) 0);
            byte[] noise = new byte[randomPerPage];
            random.nextBytes(noise);
            System.arraycopy(noise, 0, page, 0, randomPerPage);
            block.put(page);
        }
        return block.flip();
    }

    @Override
    public void run(WorkloadContext ctx) {
        long start = System.nanoTime();
        // a time-based run goes round the drawn sizes and arrivals again, a cycle later each time
        long cycleNanos = offsets.length == 0 ? 0 : offsets[offsets.length - 1] + Math.round(1e9 / rate);
        for (int n = 0; ctx.keepGoing(n, files); n++) {
            int i = n % files;
            long intended = arrival == Arrival.NONE ? System.nanoTime() : start + (long) (n / files) * cycleNanos + offsets[i];
            long now;
            while ((now = System.nanoTime()) < intended) {
                // park until close to the start, then spin: parking alone wakes up to ~100 µs late,
                // which would be PRISM's lateness, not the filesystem's
                if (intended - now > SPIN_NANOS) {
                    LockSupport.parkNanos(intended - now - SPIN_NANOS);
                } else {
                    Thread.onSpinWait();
                }
            }
            if (now - intended > LATE_NANOS) {
                ctx.addCounter("starts_late_over_1ms", 1);
            }
            Path file = ctx.workDirectory().resolve("synthetic-" + n + ".dat");
            int index = i;
            if (ctx.continueOnError()) {
                // a file it cannot write is counted per errno and the next arrival served on time
                if (!ctx.attempt("service", file, () -> writeFile(ctx, file, index, sizes[index]))) {
                    continue;
                }
            } else {
                writeFile(ctx, file, i, sizes[i]);
            }
            ctx.record("response", System.nanoTime() - intended);
            ctx.addBytes("service", sizes[i]);
        }
    }
}
