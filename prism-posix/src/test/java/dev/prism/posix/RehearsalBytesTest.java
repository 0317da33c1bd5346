package dev.prism.posix;

import dev.prism.Benchmarks;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.posix.internal.Programs;
import dev.prism.posix.internal.Rehearsal;
import dev.prism.testing.Required;
import dev.prism.testing.ScenarioInChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rehearsal is never bigger than a tenth of the timed work (at least 40 MiB, at most 64 MiB a rank): rehearsing one
 * 1 GiB file with fsync once wrote 32 GiB into {@code rehearsal-0/}. The observer is strace, counting the bytes every
 * write and read call moved on a file below {@code rehearsal-0/} in the processes of a run (its driver in a JVM of its
 * own, its rank under the processes launcher); PRISM's own {@code rehearsal_bytes} counter must say the same.
 */
class RehearsalBytesTest {
    /** {@code write(5</tmp/…/rehearsal-0/file-0.dat>, …) = 131072}, and pwrite64, read, pread64 */
    private static final Pattern CALL = Pattern.compile("^(?:p?write64|write|p?read64|read)\\(\\d+<([^>]*)>.*\\)\\s+=\\s+(\\d+)$");

    @TempDir
    Path dir;

    @Test
    void createFiles_ofTwo64MiBFiles_rehearsesItsByteBudget_asStraceCounts() throws Exception {
        long timed = 2L * (64 << 20);
        // a tenth of the timed bytes, never under the least budget (40 MiB) nor over the most (64 MiB)
        assertThat(Rehearsal.byteBudget(timed)).isEqualTo(Rehearsal.MIN_BYTES);
        assertThat(Rehearsal.byteBudget(512L << 20)).isEqualTo((512L << 20) / 10);
        assertThat(Rehearsal.byteBudget(1L << 30)).isEqualTo(Rehearsal.MAX_BYTES);
        long expected = Rehearsal.MIN_BYTES; // one step, of a file the size of the budget
        Map<String, String> p = Map.of("files", "2", "file_size", "64MiB", "fsync", "true");
        assertThat(rehearsalBytesByStrace("create_files", p)).isEqualTo(expected);
        assertThat(counter("create_files", p)).isEqualTo(expected);
    }

    @Test
    void createFiles_ofOne1GiBFile_rehearsesAtMost64MiB() {
        RunResult r = run("create_files", Map.of("files", "1", "file_size", "1GiB"));
        assertThat(r.counters().get("rehearsal_bytes")).isEqualTo(Rehearsal.MAX_BYTES);
        assertThat(r.measurement("write").bytes()).isEqualTo(1L << 30);
    }

    @Test
    void deleteFiles_andListFiles_ofLargeFiles_writeScratchFilesWithinTheBudget_asStraceCounts() throws Exception {
        // their calls (unlink, readdir, stat) do not read content: thousands of scratch files of file_size were written
        for (String benchmark : List.of("delete_files", "list_files")) {
            long written = rehearsalBytesByStrace(benchmark, Map.of("files", "10", "file_size", "1MiB"));
            assertThat(written).as(benchmark).isPositive().isLessThanOrEqualTo(Rehearsal.MIN_BYTES);
        }
    }

    @Test
    void folderBench_ofLargeLeafFiles_rehearsesWithinItsBudget() {
        // 2 levels of 2, one 16 MiB file a leaf: 64 MiB timed; its rehearsal trees (4 leaves) get 2 MiB files at most
        RunResult r = run("folder_bench", Map.of("depth", "2", "breadth", "2", "files_per_leaf", "1", "file_size", "16MiB"));
        assertThat(r.measurement("create").bytes()).isEqualTo(64L << 20);
        assertThat(r.counters().get("rehearsal_bytes")).isPositive().isLessThanOrEqualTo(Rehearsal.MIN_BYTES);
    }

    @Test
    void md5Check_andCreateDataset_rehearseWithinTheirBudgets_asStraceCounts() throws Exception {
        // a dataset of 16 files of 1 MiB: 16 MiB timed, so the least budget, 40 MiB, applies to each
        Map<String, String> dataset = Map.of("size_classes", "1MiB", "files_per_class", "16");
        long written = rehearsalBytesByStrace("create_dataset", dataset);
        assertThat(written).isPositive().isLessThanOrEqualTo(Rehearsal.MIN_BYTES);
        Map<String, String> md5 = Map.of("size_classes", "1MiB", "files_per_class", "16", "chunk_size", "1MiB");
        // md5_check's rehearsal writes its scratch file (4 chunks) untimed, then reads it: both are counted here
        long moved = rehearsalBytesByStrace("md5_check", md5);
        assertThat(moved).isPositive().isLessThanOrEqualTo(Rehearsal.MIN_BYTES + 4L * (1 << 20));
        assertThat(counter("md5_check", md5)).isPositive().isLessThanOrEqualTo(Rehearsal.MIN_BYTES);
    }

    private RunResult run(String benchmark, Map<String, String> parameters) {
        RunResult r = Scenario.builder().target(dir).benchmark(Benchmarks.create(benchmark, parameters)).build().execute()
                .runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        return r;
    }

    private long counter(String benchmark, Map<String, String> parameters) {
        return run(benchmark, parameters).counters().getOrDefault("rehearsal_bytes", 0L);
    }

    /**
     * @return the bytes moved by write and read calls on files below {@code rehearsal-0/}, in a run under strace -ff (a
     *         log per thread, so no call is split into an unfinished and a resumed line)
     */
    private long rehearsalBytesByStrace(String benchmark, Map<String, String> parameters) throws IOException {
        Required.require(Programs.missing("strace", "") == null, "PRISM_REQUIRE_BPF", "strace is not installed");
        Path logs = Files.createDirectories(dir.resolve("strace-" + benchmark));
        Path target = Files.createDirectories(dir.resolve("target-" + benchmark));
        List<String> command = new ArrayList<>(List.of("strace", "-ff", "-y", "-qq", "-o", logs.resolve("t").toString(),
                "-e", "trace=write,pwrite64,read,pread64", "-e", "signal=none",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ScenarioInChild.class.getName(), target.toString(),
                "strace-" + benchmark, "1", benchmark));
        parameters.forEach((k, v) -> command.add(k + "=" + v));
        Programs.check(command, dir, Map.of(), Duration.ofMinutes(5));
        long bytes = 0;
        try (var files = Files.list(logs)) {
            for (Path log : files.toList()) {
                for (String line : Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    Matcher m = CALL.matcher(line);
                    if (m.find() && m.group(1).contains("/rehearsal-0/")) {
                        bytes += Long.parseLong(m.group(2));
                    }
                }
            }
        }
        return bytes;
    }
}
