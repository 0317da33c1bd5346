package dev.prism.posix;

import dev.prism.posix.data.Arrival;
import dev.prism.posix.data.DatasetContent;
import dev.prism.posix.data.SizeDistribution;
import dev.prism.posix.data.internal.ReadOrder;
import dev.prism.posix.data.internal.SyntheticWorkload;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DataPathProperties {
    private static final int B = DatasetContent.BLOCK_SIZE;

    @Property(tries = 60)
    void contentIsDeterministicAndPositionIndependent(@ForAll long seed, @ForAll @StringLength(min = 1, max = 40) String path,
                                                      @ForAll @IntRange(min = 0, max = 5) int block,
                                                      @ForAll @IntRange(min = 1, max = B) int length) {
        // block k alone, from a fresh generator
        ByteBuffer alone = ByteBuffer.allocate(length);
        new DatasetContent(seed).fill(path, block, alone);
        // block k as part of the file read from its start, by another generator instance
        ByteBuffer sequence = ByteBuffer.allocate((block + 1) * B);
        new DatasetContent(seed).fillFrom(path, 0, sequence);
        byte[] inSequence = Arrays.copyOfRange(sequence.array(), block * B, block * B + length);
        assertThat(alone.array()).isEqualTo(inSequence);
    }

    @Property(tries = 30)
    void contentDependsOnSeedPathAndBlock(@ForAll long seed, @ForAll @StringLength(min = 1, max = 20) String path) {
        ByteBuffer a = ByteBuffer.allocate(64);
        ByteBuffer b = ByteBuffer.allocate(64);
        ByteBuffer c = ByteBuffer.allocate(64);
        ByteBuffer d = ByteBuffer.allocate(64);
        new DatasetContent(seed).fill(path, 0, a);
        new DatasetContent(seed + 1).fill(path, 0, b);
        new DatasetContent(seed).fill(path + "x", 0, c);
        new DatasetContent(seed).fill(path, 1, d);
        assertThat(a.array()).isNotEqualTo(b.array()).isNotEqualTo(c.array()).isNotEqualTo(d.array());
    }

    @Property
    void randomOrderIsAPermutationSameForTheSeedAndReshuffledEachEpoch(@ForAll @IntRange(min = 8, max = 2000) int n,
                                                                        @ForAll long seed,
                                                                        @ForAll @IntRange(min = 0, max = 100) int epoch) {
        int[] order = ReadOrder.random(n, seed, epoch);
        assertThat(Arrays.stream(order).sorted().toArray()).isEqualTo(ReadOrder.sequential(n));
        assertThat(ReadOrder.random(n, seed, epoch)).isEqualTo(order);
        assertThat(ReadOrder.random(n, seed, epoch + 1)).isNotEqualTo(order);
    }

    @Property
    void stridedOrderVisitsEveryFileOnce(@ForAll @IntRange(min = 0, max = 3000) int n,
                                         @ForAll @IntRange(min = 1, max = 5000) int stride) {
        int[] order = ReadOrder.strided(n, stride);
        assertThat(Arrays.stream(order).sorted().toArray()).isEqualTo(ReadOrder.sequential(n));
        // the first pass is 0, s, 2s, …
        int firstPass = (n + stride - 1) / stride;
        for (int i = 0; i < Math.min(firstPass, n); i++) {
            assertThat(order[i]).isEqualTo(i * stride);
        }
    }

    @Property(tries = 50)
    void drawnSizesStayWithinTheirBounds(@ForAll SizeDistribution distribution, @ForAll long seed,
                                         @ForAll @LongRange(min = 1, max = 1000) long min,
                                         @ForAll @LongRange(min = 1000, max = 1_000_000) long max) {
        long mean = (min + max) / 2;
        long[] sizes = SyntheticWorkload.sizes(new Random(seed), 500, distribution, mean, min, max, 1.5);
        assertThat(Arrays.stream(sizes).boxed().toList()).allSatisfy(s -> assertThat(s).isBetween(min, max));
        assertThat(SyntheticWorkload.sizes(new Random(seed), 500, distribution, mean, min, max, 1.5)).isEqualTo(sizes);
    }

    @Property(tries = 30)
    void arrivalsAreOrderedReproducibleAndBurstsLeaveTheQuietEmpty(@ForAll Arrival arrival, @ForAll long seed) {
        long on = 10_000_000;
        long off = 30_000_000;
        long[] t = SyntheticWorkload.arrivals(new Random(seed), 2000, arrival, 5000, on, off);
        assertThat(SyntheticWorkload.arrivals(new Random(seed), 2000, arrival, 5000, on, off)).isEqualTo(t);
        for (int i = 1; i < t.length; i++) {
            assertThat(t[i]).isGreaterThanOrEqualTo(t[i - 1]);
        }
        if (arrival == Arrival.BURSTS) {
            // an arrival lands within a burst: its offset into the on+off period is at most 'on' (rounding aside)
            assertThat(Arrays.stream(t).boxed().toList()).allSatisfy(x -> assertThat(x % (on + off)).isLessThanOrEqualTo(on + 1));
        }
    }

    /**
     * md5_check reads and verifies every byte at any chunk size, page multiple or not: a chunk of 150 KiB lost a page to
     * the buffer's alignment and failed ({@code newLimit > capacity}). The MD5 of each file is checked against the
     * manifest the dataset was written with, so a read that skipped or repeated bytes fails the run.
     */
    @Property(tries = 12)
    void md5Check_readsAndVerifiesEveryByte_atAnyChunkSize(@ForAll @IntRange(min = 512, max = 64 << 20) int chunk,
                                                          @ForAll @IntRange(min = 1, max = 3_000_000) int fileBytes)
            throws java.io.IOException {
        java.nio.file.Path target = java.nio.file.Files.createTempDirectory("prism-md5-chunk-");
        try {
            dev.prism.posix.data.DatasetSpec spec = new dev.prism.posix.data.DatasetSpec(
                    java.util.List.of(dev.prism.DataSize.ofBytes(fileBytes)), 2, dev.prism.DataSize.ofGiB(1),
                    dev.prism.posix.data.DatasetLayout.FLAT, 1, 7);
            dev.prism.RunResult r = dev.prism.Scenario.builder().target(target)
                    .benchmark(PosixBenchmarks.md5Check().generate(spec).chunkSize(dev.prism.DataSize.ofBytes(chunk)))
                    .build().execute().runs().get(0);
            assertThat(r.passed()).as("chunk %d B, files of %d B: %s", chunk, fileBytes, r.failure()).isTrue();
            assertThat(r.repetitions()).allSatisfy(rep -> {
                assertThat(rep.measurements().get("read").bytes()).as("bytes read in a repetition").isEqualTo(2L * fileBytes);
                assertThat(rep.measurements().get("file").bytes()).as("bytes of the files hashed").isEqualTo(2L * fileBytes);
                assertThat(rep.measurements().get("read").count()).as("read calls: one a chunk (the size is known)")
                        .isEqualTo(2L * ((fileBytes + chunk - 1) / chunk));
            });
        } finally {
            dev.prism.DirectoryRemoval.of(target);
        }
    }
}
