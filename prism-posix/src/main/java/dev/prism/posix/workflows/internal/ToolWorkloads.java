package dev.prism.posix.workflows.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.PrismException;
import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.internal.ChildPaths;
import dev.prism.posix.internal.Programs;
import dev.prism.posix.internal.TracedPrograms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/** tar_extract, tar_create and fio. */
public final class ToolWorkloads {
    private static final Duration LIMIT = Duration.ofHours(1);

    private ToolWorkloads() {
    }

    /** {@code tar_extract} or {@code tar_create} of a configuration archive of many small files. */
    public static final class Tar implements Workload {
        private final boolean extract;
        private final String tarGiven;
        private final int files;
        private final int repeats;
        private String tar;
        private Path tree;
        private Path archive;
        private TracedPrograms programs;

        public Tar(boolean extract, String tar, int files, int repeats) {
            this.extract = extract;
            this.tarGiven = tar;
            this.files = files;
            this.repeats = repeats;
        }

        @Override
        public void setup(WorkloadContext ctx) throws Exception {
            tar = Programs.require(ctx, "tar", tarGiven, "apt-get install tar");
            // the tree tar_create reads and the archive tar_extract reads are only read: made once per configuration
            Path made = ctx.fixture(extract ? "archive" : "tree", dir -> {
                SourceTree.write(dir.resolve("tree"), files, new Random(ctx.rank()));
                if (extract) {
                    Programs.check(List.of(tar, "-cf", dir.resolve("config.tar").toString(), "-C",
                            dir.resolve("tree").toString(), "."), null, Map.of(), LIMIT);
                }
            });
            tree = made.resolve("tree");
            archive = made.resolve("config.tar");
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void run(WorkloadContext ctx) throws IOException {
            for (int i = 0; i < repeats; i++) {
                if (extract) {
                    Path into = ctx.workDirectory().resolve("extracted-" + i);
                    // made, and reached by tar, through the descriptor the rank holds for the run directory (ChildPaths)
                    Path reached = Files.createDirectories(ChildPaths.of(ctx, into));
                    ctx.measure("extract", into, () -> programs.check(List.of(tar, "-xf", ChildPaths.text(ctx, archive),
                            "-C", reached.toString()), null, Map.of(), LIMIT));
                    ctx.addBytes("extract", Files.size(archive));
                } else {
                    Path out = ctx.workDirectory().resolve("created-" + i + ".tar");
                    ctx.measure("create", out, () -> programs.check(List.of(tar, "-cf", ChildPaths.text(ctx, out), "-C",
                            ChildPaths.text(ctx, tree), "."), null, Map.of(), LIMIT));
                    ctx.addBytes("create", Files.size(out));
                }
            }
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }

        @Override
        public void validate(WorkloadContext ctx) throws IOException {
            if (extract) {
                try (Stream<Path> all = Files.walk(ctx.workDirectory().resolve("extracted-0"))) {
                    long count = all.filter(Files::isRegularFile).count();
                    if (count != files) {
                        throw new ValidationException("extracted-0 holds " + count + " files, the archive " + files);
                    }
                }
            }
        }
    }

    /** {@code fio}: runs fio with the given job and maps its JSON into PRISM measurements. */
    public static final class Fio implements Workload {
        private static final int MAX_SAMPLES = 20_000_000;
        private final String fioGiven;
        private final List<String> job;
        private String fio;
        private TracedPrograms programs;

        /** @param job fio's job options, e.g. {@code --rw=randread --bs=4k …} */
        public Fio(String fio, List<String> job) {
            this.fioGiven = fio;
            this.job = job;
        }

        @Override
        public void setup(WorkloadContext ctx) {
            fio = Programs.require(ctx, "fio", fioGiven, "apt-get install fio");
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }

        @Override
        public void run(WorkloadContext ctx) throws IOException {
            List<String> command = new ArrayList<>(List.of(fio, "--name=prism-r" + ctx.rank(),
                    // fio reaches the rank's directory through the descriptor the rank holds (ChildPaths)
                    "--directory=" + ChildPaths.text(ctx, ctx.workDirectory()), "--output-format=json"));
            command.addAll(job);
            String out;
            out = ctx.call("fio", ctx.workDirectory(), () -> programs.check(command, null, Map.of(), LIMIT).stdout());
            JsonNode result = new ObjectMapper().readTree(out.substring(Math.max(0, out.indexOf('{'))));
            // fio's jobs of one rank run side by side: an operation ran over its longest job's time
            Map<String, Long> elapsed = new java.util.LinkedHashMap<>();
            for (JsonNode jobResult : result.path("jobs")) {
                for (String direction : List.of("read", "write", "trim")) {
                    long nanos = map(ctx, direction, jobResult.path(direction));
                    if (nanos > 0) {
                        elapsed.merge("fio_" + direction, nanos, Math::max);
                    }
                }
            }
            elapsed.forEach(ctx::elapsed);
        }

        /**
         * fio reports a latency distribution as percentiles: each becomes as many samples as the share of
         * I/Os it covers (up to {@link #MAX_SAMPLES}), so PRISM's percentiles match fio's; fio's own I/O
         * count, IOPS and bandwidth are kept as counters (summed over ranks: aggregate figures).
         *
         * @return the time the samples ran over as fio saw it (samples / fio's IOPS), so that the
         *         table's ops/s is fio's IOPS and not samples over PRISM's process time; 0 for none
         */
        private static long map(WorkloadContext ctx, String direction, JsonNode d) {
            long ios = d.path("total_ios").asLong();
            if (ios == 0) {
                return 0;
            }
            String op = "fio_" + direction;
            TreeMap<Double, Long> percentiles = new TreeMap<>();
            d.path("clat_ns").path("percentile").fields().forEachRemaining(
                    e -> percentiles.put(Double.parseDouble(e.getKey()), e.getValue().asLong()));
            if (percentiles.isEmpty()) {
                throw new PrismException("fio reported " + ios + " " + direction + " I/Os without clat_ns percentiles");
            }
            long samples = Math.min(ios, MAX_SAMPLES);
            long recorded = 0;
            for (Map.Entry<Double, Long> e : percentiles.entrySet()) {
                // cumulative rounding, so the samples add up to exactly as many as fio counted
                long upTo = Math.min(samples, Math.round(samples * e.getKey() / 100.0));
                for (; recorded < upTo; recorded++) {
                    ctx.record(op, e.getValue());
                }
            }
            // beyond fio's last reported percentile: its maximum
            long max = d.path("clat_ns").path("max").asLong(percentiles.lastEntry().getValue());
            for (; recorded < samples; recorded++) {
                ctx.record(op, max);
            }
            ctx.addBytes(op, d.path("io_bytes").asLong());
            ctx.addCounter(op + "_ios", ios);
            ctx.addCounter(op + "_iops", Math.round(d.path("iops").asDouble()));
            ctx.addCounter(op + "_bw_bytes_per_s", d.path("bw_bytes").asLong());
            double iops = d.path("iops").asDouble();
            return iops > 0 ? Math.round(samples * 1e9 / iops) : 0;
        }
    }
}
