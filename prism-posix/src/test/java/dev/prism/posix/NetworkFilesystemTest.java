package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.Sshfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Benchmarks on a real network filesystem, sshfs over loopback, which reports inode numbers of its own making (one per
 * name, not the server's) and caches attributes: what a link or a file is must be judged by what it does there.
 */
class NetworkFilesystemTest {
    private static Path dir;
    private static Sshfs fs;

    @BeforeAll
    static void mount() throws Exception {
        dir = Files.createTempDirectory("prism-sshfs");
        fs = Sshfs.mount(dir);
    }

    @AfterAll
    static void unmount() throws Exception {
        if (fs != null) {
            fs.close();
        }
        dev.prism.DirectoryRemoval.of(dir);
    }

    @Test
    void linkLock_checksItsLinksByWhatTheyDo_whereInodeNumbersAreMadeUp() {
        Benchmark links = PosixBenchmarks.linkLock().packages(3).filesPerPackage(4);
        RunResult r = Scenario.builder().target(fs.mountPoint()).benchmark(links).tasks(2).build().execute().runs().get(0);
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.notes().get("inode_numbers")).as(r.notes().toString())
                .contains("checked as a hard link by a byte written through the link and read back");
        assertThat(r.measurement("link").count()).isEqualTo(2 * 3 * 4);
    }

    @Test
    void linkLock_refusesACopyWhereALinkShouldBe() {
        // a filesystem whose "link" copies: the cache's file and the environment's are two files, and the check says so
        Benchmark copying = Benchmark.builder("copy_not_link").workload(() -> new dev.prism.Workload() {
            @Override
            public void run(dev.prism.WorkloadContext ctx) throws Exception {
                Path original = Files.writeString(ctx.workDirectory().resolve("cache.py"), "print(1)\n");
                Path copy = Files.copy(original, ctx.workDirectory().resolve("env.py"));
                dev.prism.posix.workflows.internal.LinkCheck.requireSameFile(ctx, copy, original);
            }
        }).build();
        RunResult r = Scenario.builder().target(fs.mountPoint()).benchmark(copying).build().execute().runs().get(0);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().message()).contains("env.py is not a hard link of").contains("cache.py")
                .contains("a byte written through it at offset 0 was not read back");
    }
}
