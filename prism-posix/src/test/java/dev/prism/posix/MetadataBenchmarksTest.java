package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.TargetInfo;
import dev.prism.posix.metadata.DirectoryLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every POSIX benchmark on tmpfs and on the disk filesystem, through both access interfaces, at 1
 * and 2 ranks: it passes, counts what it should, and leaves nothing behind.
 */
class MetadataBenchmarksTest {
    private static final long SIZE = 4096;

    /** A benchmark, and the count (and bytes) each operation must show at a task count. */
    record Case(String label, Benchmark benchmark, IntFunction<Map<String, long[]>> expected) {
        @Override
        public String toString() {
            return label;
        }
    }

    private static Map<String, long[]> ops(Object... opCountBytes) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (int i = 0; i < opCountBytes.length; i += 3) {
            m.put((String) opCountBytes[i], new long[]{((Number) opCountBytes[i + 1]).longValue(),
                    ((Number) opCountBytes[i + 2]).longValue()});
        }
        return m;
    }

    static List<Case> cases(Access access) {
        return List.of(
                new Case("create_files", PosixBenchmarks.createFiles().files(20).access(access),
                        t -> ops("create", 20 * t, 0, "open", 20 * t, 0, "write", 20 * t, 20 * SIZE * t, "close", 20 * t, 0)),
                new Case("create_files shared fsync drop", PosixBenchmarks.createFiles().files(10).access(access)
                        .directory(DirectoryLayout.SHARED).fsync(true).dropCache(true),
                        t -> ops("create", 10 * t, 0, "fsync", 10 * t, 0, "drop_cache", 10 * t, 0)),
                new Case("list_files", PosixBenchmarks.listFiles().files(20).access(access),
                        t -> ops("readdir", t, 0, "stat", 20 * t, 0)),
                new Case("list_files shared", PosixBenchmarks.listFiles().files(20).directory(DirectoryLayout.SHARED).access(access),
                        t -> ops("readdir", t, 0, "stat", 20L * t * t, 0)),
                new Case("move_files", PosixBenchmarks.moveFiles().files(20).access(access),
                        t -> ops("rename", 20 * t, 0)),
                new Case("move_files shared", PosixBenchmarks.moveFiles().files(20).directory(DirectoryLayout.SHARED).access(access),
                        t -> ops("rename", 20 * t, 0)),
                new Case("delete_files", PosixBenchmarks.deleteFiles().files(20).access(access),
                        t -> ops("unlink", 20 * t, 0)),
                new Case("folder_bench", PosixBenchmarks.folderBench().depth(2).breadth(3).filesPerLeaf(2).access(access),
                        t -> ops("mkdir", 13 * t, 0, "create", 18 * t, 18 * SIZE * t, "readdir", 13 * t, 0,
                                "stat", 30 * t, 0, "unlink", 18 * t, 0, "rmdir", 13 * t, 0)),
                new Case("open_contention", PosixBenchmarks.openContention().opens(30).access(access),
                        t -> ops("open", 30 * t, 0, "read", 30 * t, 30 * SIZE * t, "close", 30 * t, 0)),
                new Case("link_lock", PosixBenchmarks.linkLock().packages(3).filesPerPackage(4).access(access),
                        t -> ops("mkdir", 3 * t, 0, "link", 12 * t, 0, "lock", 3 * t, 0, "record", 3 * t, 256 * 3 * t,
                                "unlock", 3 * t, 0)));
    }

    static Stream<Arguments> matrix() {
        List<Arguments> all = new ArrayList<>();
        for (String filesystem : List.of("disk", "tmpfs")) {
            // Java's two interfaces; the Python ones are PythonAccessTest's
            for (Access access : List.of(Access.NIO, Access.NATIVE)) {
                for (Case c : cases(access)) {
                    for (int tasks : new int[]{1, 2}) {
                        all.add(Arguments.of(filesystem, access, c, tasks));
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{2} on {0} through {1} with {3} rank(s)")
    @MethodSource("matrix")
    void benchmark_countsWhatItDidAndLeavesNothingBehind(String filesystem, Access access, Case c, int tasks)
            throws IOException {
        Path target = targetOn(filesystem);
        try {
            RunResult run = Scenario.builder().target(target).benchmark(c.benchmark()).tasks(tasks).repetitions(1)
                    .build().execute().runs().get(0);
            assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
            assertThat(run.parameters()).containsEntry("access", access.name().toLowerCase());
            c.expected().apply(tasks).forEach((op, countBytes) -> {
                assertThat(run.measurement(op).count()).as(op + " count").isEqualTo(countBytes[0]);
                if (countBytes[1] > 0) {
                    assertThat(run.measurement(op).bytes()).as(op + " bytes").isEqualTo(countBytes[1]);
                }
            });
            try (Stream<Path> left = Files.list(target)) {
                assertThat(left).as("left behind in " + target).isEmpty();
            }
        } finally {
            dev.prism.DirectoryRemoval.of(target);
        }
    }

    private static Path targetOn(String filesystem) throws IOException {
        if (filesystem.equals("disk")) {
            return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "prism-disk-");
        }
        Path shm = Path.of("/dev/shm");
        dev.prism.testing.Required.tmpfsAtDevShm();
        return Files.createTempDirectory(shm, "prism-tmpfs-");
    }
}
