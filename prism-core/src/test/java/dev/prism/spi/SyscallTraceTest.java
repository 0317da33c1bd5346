package dev.prism.spi;

import dev.prism.testing.Await;
import dev.prism.testing.Required;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How traced calls become calls on files, and that a tracer never outlives the JVM that started it. */
class SyscallTraceTest {
    /** A JVM that holds a trace until it is killed: the test's subject. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            try (SyscallTrace trace = SyscallTrace.start(c -> { })) {
                System.out.println("attached " + trace.wrap(List.of("true")).get(2).split("'")[1]);
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    private static SyscallTrace.Raw raw(int pid, String name, long start, long result, long fd) {
        return new SyscallTrace.Raw(pid, pid, name, start, 1_000, result, fd);
    }

    @Test
    void descriptorCalls_takeThePathOfTheOpenThatMadeTheirDescriptor_inheritedAcrossFork_forgottenAtClose() {
        // pid 10 opens /a as fd 3 (its path printed under key 100), reads it, forks 11, which reads fd 3 too;
        // 10 closes fd 3 and reads it again (a reused descriptor it did not open: not a file as far as is known)
        List<SyscallTrace.Raw> raws = List.of(raw(10, "openat", 100, 3, -100), raw(10, "read", 200, 4096, 3),
                raw(11, "read", 400, 10, 3), raw(10, "close", 500, 0, 3), raw(10, "read", 600, 5, 3),
                raw(10, "read", 700, 5, 0));
        List<long[]> forks = List.<long[]>of(new long[]{10, 11, 300});
        List<SyscallTrace.Call> calls = SyscallTrace.joined(raws, forks, Map.of("10 100", "/a"));
        assertThat(calls).extracting(SyscallTrace.Call::path).containsExactly("/a", "/a", "/a", "/a", "", "");
        assertThat(calls).extracting(SyscallTrace.Call::onFile).containsExactly(true, true, true, true, false, false);
        assertThat(calls.get(1).bytes()).isEqualTo(4096);
        assertThat(SyscallAttribution.onFiles(calls)).hasSize(4);
        assertThat(SyscallAttribution.measurements(calls, 1_000_000).get("syscall:read").bytes()).isEqualTo(4106);
    }

    @Test
    void aJvmKilledOutright_leavesNoTracerBehind() throws Exception {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process holder = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Holder.class.getName()).redirectErrorStream(true).start();
        String procs;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).as("the holder's first line").startsWith("attached ");
            procs = line.substring("attached ".length());
            List<ProcessHandle> tracers = holder.descendants().filter(h -> h.info().command().orElse("").endsWith("bpftrace"))
                    .toList();
            assertThat(tracers).as("bpftrace under the holder").isNotEmpty();
            holder.destroyForcibly();
            Await.until("bpftrace ends after the JVM that started it was killed (SIGKILL)", Duration.ofSeconds(60),
                    () -> tracers.stream().noneMatch(ProcessHandle::isAlive));
        } finally {
            holder.destroyForcibly();
        }
        // the empty cgroup a killed JVM could not remove: harmless, and removable
        Files.deleteIfExists(Path.of(procs).getParent());
    }

    @Test
    void aCpuList_readsRangesAndSingles() {
        assertThat(SyscallTrace.cpuList("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(SyscallTrace.cpuList("0")).containsExactly(0);
        assertThat(SyscallTrace.allowedCpus()).isNotEmpty().allSatisfy(cpu -> assertThat(cpu).isNotNegative());
    }

    /**
     * A short program's calls are all delivered when the trace stops right after it: bpftrace is read to a marker on
     * every CPU first (it once delivered 300 of 567 openat, saying nothing). The observer is the program's own loop: a
     * shell that opens one file 200 times, on every CPU the test may use.
     */
    @Test
    void stoppedRightAfterAShortProgram_theTraceHoldsEveryCallItMade() throws Exception {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Path file = Files.createTempFile("prism-drain", ".txt");
        try {
            for (int run = 0; run < 3; run++) {
                SyscallTrace.Result result;
                try (SyscallTrace trace = SyscallTrace.start(c -> { })) {
                    Process p = new ProcessBuilder(trace.wrap(List.of("/bin/sh", "-c",
                            "i=0; while [ $i -lt 200 ]; do : < '" + file + "'; i=$((i+1)); done"))).redirectErrorStream(true).start();
                    assertThat(p.waitFor()).isZero();
                    result = trace.stop();
                }
                long opens = result.calls().stream().filter(c -> c.name().startsWith("open") && c.path().equals(file.toString()))
                        .count();
                assertThat(opens).as("run %d: opens of the file", run).isEqualTo(200);
                assertThat(result.complete()).as("run %d: lost %d, undrained %s", run, result.lost(), result.undrained()).isTrue();
                assertThat(result.calls()).noneMatch(c -> c.path().contains("prism-trace-marker"));
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Counting in the kernel gives the totals that every call delivered gives, and the calls on descriptors the
     * program moved: the same program ({@code dd} copying 40 KiB in 4 KiB blocks from one file to another, its report
     * to a pipe) traced both ways; what dd reads and writes is exactly its blocks — eleven reads of the source (ten
     * blocks and the end), ten writes of 40,960 bytes.
     */
    @Test
    void countingInTheKernel_givesTheTotalsOfEveryCall() throws Exception {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Path dir = Files.createTempDirectory("prism-count");
        try {
            Path source = Files.write(dir.resolve("source"), new byte[40 * 1024]);
            List<String> dd = List.of("dd", "if=" + source, "of=" + dir.resolve("copy"), "bs=4096");
            SyscallTrace.Result every = traced(false, dd);
            SyscallTrace.Result counted = traced(true, dd);
            assertThat(counted.countsExact()).isTrue();
            // dd moves its files onto descriptors 0 and 1 (dup2): every call delivered follows descriptors from the
            // opens it saw and loses those; the kernel asks the descriptor itself
            for (String name : List.of("openat", "newfstatat", "pread64")) {
                SyscallTrace.Totals t = every.totals().get(name);
                SyscallTrace.Totals k = counted.totals().get(name);
                assertThat(List.of(k.count(), k.errors(), k.bytes())).as(name).isEqualTo(List.of(t.count(), t.errors(), t.bytes()));
            }
            assertThat(counted.totals().get("read").count()).isEqualTo(every.totals().get("read").count() + 11);
            assertThat(counted.totals().get("read").bytes()).isEqualTo(every.totals().get("read").bytes() + 40_960);
            assertThat(counted.totals().get("write").count()).isEqualTo(10);
            assertThat(counted.totals().get("write").bytes()).isEqualTo(40_960);
            counted.totals().forEach((name, k) -> {
                assertThat(k.latencies().values().stream().mapToLong(Long::longValue).sum()).as(name).isEqualTo(k.count());
                assertThat(k.minNanos()).as(name).isPositive().isLessThanOrEqualTo(k.maxNanos());
                assertThat(k.sumNanos()).as(name).isBetween(k.count() * k.minNanos(), k.count() * k.maxNanos());
            });
            assertThat(counted.notOnFiles()).as("dd's report, written to a pipe").isPositive();
            assertThat(counted.calls()).allSatisfy(c -> assertThat(c.nanos()).isGreaterThanOrEqualTo(SyscallTrace.SLOW_CALL.toNanos()));
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static SyscallTrace.Result traced(boolean counting, List<String> command) throws Exception {
        try (SyscallTrace trace = counting ? SyscallTrace.counting(c -> { }) : SyscallTrace.start(c -> { })) {
            Process p = new ProcessBuilder(trace.wrap(command)).start();
            p.getInputStream().readAllBytes();
            p.getErrorStream().readAllBytes();
            assertThat(p.waitFor()).isZero();
            return trace.stop();
        }
    }

    /** The kernel's bucket of a latency, as {@link SyscallTrace#countingScript} works it out */
    static long bucketOf(long d) {
        long e = 63 - Long.numberOfLeadingZeros(d);
        return e >= 4 ? (e << 4) | ((d >> (e - 4)) & 15) : d;
    }

    @net.jqwik.api.Property
    void aBucketsMiddle_isWithinThreePointTwoPercentOfEveryLatencyInIt(
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.LongRange(min = 1, max = 86_400_000_000_000L) long nanos) {
        long middle = SyscallTrace.bucketMiddle(bucketOf(nanos));
        assertThat(Math.abs(middle - nanos)).isLessThanOrEqualTo(Math.max(0, (long) Math.ceil(nanos / 32.0)));
    }

    @Test
    void aDescriptorsFile_isNamedByItsLastComponents_upToTheRootOfItsFileSystem() {
        assertThat(SyscallTrace.lastComponents(List.of("objects", "pack", "pack-1.pack"))).isEqualTo("…/objects/pack/pack-1.pack");
        assertThat(SyscallTrace.lastComponents(List.of("/", "etc", "hostname"))).isEqualTo("…/etc/hostname");
        assertThat(SyscallTrace.lastComponents(List.of("/", "/", "null"))).isEqualTo("…/null");
        assertThat(SyscallTrace.lastComponents(List.of("", "", ""))).isEmpty();
    }

    /**
     * A slow call on a descriptor comes out one by one, named by the last components of its file's path: dd's fsync of
     * 32 MiB it has just written (on the disk under /var/tmp, not tmpfs: some milliseconds at least), against the
     * path dd was given.
     */
    @Test
    void aSlowDescriptorCall_isNamedByItsFile() throws Exception {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Path dir = Files.createTempDirectory(Path.of("/var/tmp"), "prism-slow");
        Path out = dir.resolve("out");
        try {
            List<SyscallTrace.Call> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            SyscallTrace.Result seen;
            try (SyscallTrace trace = SyscallTrace.counting(told::add)) {
                Process p = new ProcessBuilder(trace.wrap(List.of("dd", "if=/dev/zero", "of=" + out, "bs=1M", "count=32",
                        "conv=fsync"))).redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                assertThat(p.waitFor()).isZero();
                seen = trace.stop();
            }
            assertThat(seen.calls()).filteredOn(c -> c.name().equals("fsync")).singleElement().satisfies(c -> {
                assertThat(c.path()).startsWith("…/").endsWith("/" + dir.getFileName() + "/out");
                assertThat(c.nanos()).isGreaterThanOrEqualTo(SyscallTrace.SLOW_CALL.toNanos());
                assertThat(c.nanos()).isLessThanOrEqualTo(seen.totals().get("fsync").maxNanos());
            });
            assertThat(told).containsExactlyElementsOf(seen.calls());
            assertThat(seen.totals().get("fsync").count()).isEqualTo(1);
        } finally {
            Files.deleteIfExists(out);
            Files.delete(dir);
        }
    }

    /** Where the kernel has no BTF, a counting trace delivers every call instead, and its totals are the same. */
    @Test
    void withoutTheKernelsTypes_countingFallsBackToEveryCall_withTheSameTotals() throws Exception {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Path source = Files.write(Files.createTempFile("prism-nobtf", ".dat"), new byte[8192]);
        try {
            List<String> cat = List.of("cat", source.toString());
            SyscallTrace.Result counted = traced(true, cat);
            SyscallTrace.Result fallback;
            List<SyscallTrace.Call> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            try (SyscallTrace trace = SyscallTrace.counting(told::add, source.resolveSibling("no-such-btf"))) {
                assertThat(trace.countedInKernel()).isFalse();
                Process p = new ProcessBuilder(trace.wrap(cat)).start();
                p.getInputStream().readAllBytes();
                assertThat(p.waitFor()).isZero();
                fallback = trace.stop();
            }
            for (String name : List.of("openat", "read")) {
                assertThat(fallback.totals().get(name).count()).as(name).isEqualTo(counted.totals().get(name).count());
                assertThat(fallback.totals().get(name).bytes()).as(name).isEqualTo(counted.totals().get(name).bytes());
            }
            assertThat(told).allSatisfy(c -> assertThat(c.nanos()).isGreaterThanOrEqualTo(SyscallTrace.SLOW_CALL.toNanos()));
        } finally {
            Files.deleteIfExists(source);
        }
    }
}
