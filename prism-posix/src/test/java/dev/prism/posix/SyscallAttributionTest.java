package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioListener;
import dev.prism.Stall;
import dev.prism.SyscallTracing;
import dev.prism.posix.internal.Programs;
import dev.prism.posix.workflows.DevWorkflows;
import dev.prism.posix.workflows.internal.SourceTree;
import dev.prism.spi.SyscallAttribution;
import dev.prism.spi.SyscallTrace;
import dev.prism.testing.FaultFs;
import dev.prism.testing.Required;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The file calls git and tar make, attributed in the kernel (syscalls=kernel), against strace's count of the same
 * command run on its own: the same calls on files, call by call. Skipped without bpftrace and root unless
 * PRISM_REQUIRE_BPF=1 (scripts/test.sh installs bpftrace and strace and sets it).
 */
class SyscallAttributionTest {
    /** strace -y annotates a descriptor with what it is: a path, or pipe:[…], socket:[…], anon_inode:… */
    private static final Pattern LINE = Pattern.compile("^\\d+\\s+(\\w+)\\((.*)$");
    private static final Pattern FILE_DESCRIPTOR = Pattern.compile("^\\d+</");

    @TempDir
    Path dir;

    @BeforeEach
    void traceable() {
        String why = SyscallTrace.unavailable();
        Required.require(why == null, "PRISM_REQUIRE_BPF", "no kernel trace: " + why);
        Required.require(Programs.missing("strace", "") == null, "PRISM_REQUIRE_BPF", "strace is not installed");
    }

    /** @return what strace counted of the traced calls on files: every path call, and descriptor calls on files */
    static Map<String, Long> strace(List<String> command, Map<String, String> environment) throws IOException {
        Path out = Files.createTempFile("prism-strace", ".txt");
        try {
            List<String> c = new ArrayList<>(List.of("strace", "-f", "-y", "-qq", "-o", out.toString(),
                    "-e", "trace=" + String.join(",", SyscallTrace.CALLS)));
            c.addAll(command);
            Programs.check(c, null, environment, Duration.ofMinutes(5));
            Map<String, Long> counts = new TreeMap<>();
            for (String line : Files.readAllLines(out)) {
                Matcher m = LINE.matcher(line);
                if (!m.matches() || line.contains(" resumed>")) {
                    continue;   // the second half of a call another process interrupted in the log
                }
                String name = m.group(1);
                boolean pathCall = m.group(2).startsWith("AT_FDCWD") || m.group(2).startsWith("\"")
                        || name.equals("newfstatat") || name.equals("statx") || name.startsWith("rename")
                        || name.startsWith("unlink") || name.startsWith("mkdir");
                if (pathCall || FILE_DESCRIPTOR.matcher(m.group(2)).find()) {
                    counts.merge(name, 1L, Long::sum);
                }
            }
            return counts;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** @return PRISM's count of each call on files: its samples and its errors */
    static Map<String, Long> attributed(RankResult rank) {
        Map<String, Long> counts = new TreeMap<>();
        rank.measurements().forEach((name, m) -> {
            if (name.startsWith(SyscallAttribution.PREFIX)) {
                counts.put(name.substring(SyscallAttribution.PREFIX.length()), m.count() + m.errors());
            }
        });
        return counts;
    }

    private static RunResult run(Path target, Benchmark b, ScenarioListener listener) {
        RunResult r = Scenario.builder().target(target).benchmark(b).timeout(Duration.ofMinutes(5))
                .stallThreshold(Duration.ofMillis(300)).listener(listener).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        return r;
    }

    @Test
    void tarExtract_callsOnFiles_areStracesCountOfTheSameExtraction() throws IOException {
        // the tracer attaches in setup, before the clock: bpftrace is up when the rank enters its timed phase
        java.util.List<Boolean> tracerUpAtRun = new java.util.concurrent.CopyOnWriteArrayList<>();
        RunResult r = run(Files.createDirectories(dir.resolve("a")), DevWorkflows.tarExtract().with(DevWorkflows.TAR_FILES, 60)
                .with(DevWorkflows.REPEATS, 1).with(DevWorkflows.SYSCALLS, SyscallTracing.KERNEL), new ScenarioListener() {
                    @Override
                    public void rankEntered(int rank, dev.prism.RankPhase phase) {
                        if (phase == dev.prism.RankPhase.RUN) {
                            tracerUpAtRun.add(ProcessHandle.current().descendants()
                                    .anyMatch(h -> h.info().command().orElse("").endsWith("bpftrace")));
                        }
                    }
                });
        assertThat(tracerUpAtRun).as("bpftrace attached when the timed phase began").containsExactly(true);
        // the same archive: the tree rank 0 writes, from the same seed
        Path tree = dir.resolve("b/tree");
        SourceTree.write(tree, 60, new Random(0));
        Path archive = dir.resolve("b/config.tar");
        Programs.check(List.of("tar", "-cf", archive.toString(), "-C", tree.toString(), "."), null, Map.of(), Duration.ofMinutes(1));
        Path into = Files.createDirectories(dir.resolve("b/prism-x/rank-0/extracted-0"));
        Map<String, Long> strace = strace(List.of(Programs.resolve("tar", "", ""), "-xf", archive.toString(), "-C",
                into.toString()), Map.of());
        Map<String, Long> prism = attributed(r.repetitions().get(0).ranks().get(0));
        // counted in the kernel: exact however loaded the machine (a full output buffer costs only names of slow calls)
        assertThat(r.repetitions().get(0).ranks().get(0).counters()).doesNotContainKey("syscall_counts_incomplete");
        assertThat(prism).as("strace counted " + strace).isEqualTo(strace);
        assertThat(prism.get("openat")).isGreaterThanOrEqualTo(60);
        assertThat(r.notes().get("syscalls")).startsWith("kernel (bpftrace)");
    }

    @Test
    void gitClone_callsOnFiles_areStracesCountOfTheSameClone() throws IOException {
        Path source = dir.resolve("source.git");
        String git = Programs.resolve("git", "", "");
        SourceTree.gitRepository(git, source, 40, 3, new Random(3));
        // into a directory as deep as the benchmark's clone-0: git looks at its parents
        Path into = dir.resolve("b/prism-x/rank-0/clone-0");
        Files.createDirectories(into.getParent());
        Map<String, Long> strace = strace(List.of(git, "clone", "-q", "file://" + source, into.toString()), SourceTree.GIT_ENV);
        RunResult r = run(Files.createDirectories(dir.resolve("a")), DevWorkflows.gitClone().with(DevWorkflows.SOURCE,
                "file://" + source).with(DevWorkflows.CLONES, 1).with(DevWorkflows.SYSCALLS, SyscallTracing.KERNEL),
                new ScenarioListener() { });
        Map<String, Long> prism = attributed(r.repetitions().get(0).ranks().get(0));
        // git's pack-objects reads the source's objects from parallel threads, and how many loose objects it opens
        // depends on their race, which strace (a stop at every call) changes: a handful of calls either way
        for (String call : List.of("openat", "newfstatat", "mkdir", "rename", "unlink", "getdents64", "fsync", "read",
                "write", "pread64", "close")) {
            long expected = strace.getOrDefault(call, 0L);
            assertThat(prism.getOrDefault(call, 0L)).as(call + ": PRISM " + prism + ", strace " + strace + "; the run: "
                            + r.status() + ", notes " + r.notes() + ", rank 0's counters " + r.repetitions().get(0).ranks().get(0).counters())
                    .isBetween(expected - Math.max(12, expected / 50), expected + Math.max(12, expected / 50));
        }
        assertThat(prism.get("openat")).isGreaterThan(400);
        assertThat(r.counters().get(SyscallAttribution.NOT_ON_FILES)).as("pipes between git's processes").isPositive();
    }

    /** Opening one file stalls: the stall names syscall:openat, the file and the rank, before the run has ended. */
    @Test
    void aCallPastTheStallThreshold_isToldAsItReturns_withItsPathAndRank() throws Exception {
        try (FaultFs fs = FaultFs.mount(Files.createDirectories(dir.resolve("fs")))) {
            // tar_create reads the tree: opening one of its files takes 800 ms more
            fs.rule("open", "*/tree/*/module_0.py", Duration.ofMillis(800), null);
            List<String> events = new CopyOnWriteArrayList<>();
            List<Stall> heard = new CopyOnWriteArrayList<>();
            RunResult r = run(fs.mountPoint(), DevWorkflows.tarCreate().with(DevWorkflows.TAR_FILES, 20)
                    .with(DevWorkflows.REPEATS, 1).with(DevWorkflows.SYSCALLS, SyscallTracing.KERNEL), new ScenarioListener() {
                @Override
                public void stallDetected(Stall stall) {
                    if (stall.operation().startsWith("syscall:")) {
                        heard.add(stall);
                        events.add("stall");
                    }
                }

                @Override
                public void runFinished(RunResult run) {
                    events.add("finished");
                }
            });
            assertThat(heard).anySatisfy(s -> {
                assertThat(s.operation()).isEqualTo("syscall:openat");
                assertThat(s.path()).endsWith("module_0.py");
                assertThat(s.rank()).isZero();
                assertThat(s.durationNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(800).toNanos());
            });
            assertThat(events).startsWith("stall");
            assertThat(r.repetitions().get(0).ranks().get(0).stalls()).anySatisfy(s -> assertThat(s.path()).endsWith("module_0.py"));
            Measurement open = r.measurement("syscall:openat");
            assertThat(open.maxNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(800).toNanos());
            assertThat(r.notes().get("syscalls_slowest")).startsWith("openat ").contains("module_0.py");
        }
    }

    @Test
    void syscallsOff_tracesNothing_andKernelRefusesWhereItCannotServe() {
        RunResult off = run(dir, DevWorkflows.tarExtract().with(DevWorkflows.TAR_FILES, 5).with(DevWorkflows.REPEATS, 1),
                new ScenarioListener() { });
        assertThat(off.measurements().keySet()).noneMatch(k -> k.startsWith("syscall:"));
        assertThat(off.notes()).doesNotContainKey("syscalls");
        assertThatThrownBy(() -> DevWorkflows.tarExtract().withText(Map.of("syscalls", "python")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("syscalls")
                .hasMessageContaining("off, auto, kernel");
    }
}
