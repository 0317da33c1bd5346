package dev.prism.cli;

import dev.prism.testing.Await;
import dev.prism.testing.FaultFs;
import dev.prism.testing.HostDelay;
import dev.prism.testing.RankProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real {@code ./prism}, whose process makes no call on the target ({@link Supervisor}): storage whose calls never
 * return cannot keep it from exiting at its deadline, and killing it still has its run stop and clean up.
 */
@org.junit.jupiter.api.Tag("timing")
class SupervisorIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();
    /**
     * README: after the timeout, stuck ranks take at most 5.5 s to be given up (threads: 2 s + 2 s; processes: 1.25 s +
     * 4.2 s), clean-up its grace, and prism 1 s to see that its run's process cannot exit.
     */
    private static final double HANG_ALLOWANCE_SECONDS = 5.5 + 1;
    /**
     * The wake-ups between the deadline and the test's seeing the exit: a loaded host may delay each by as much as the
     * longest delay {@link dev.prism.testing.SchedulingDelay} saw, which the bounds add to the README's figures.
     */
    @RegisterExtension
    final HostDelay host = new HostDelay(5);

    @TempDir
    Path work;

    private Process start(List<String> args) throws java.io.IOException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(args);
        return new ProcessBuilder(command).directory(work.toFile()).redirectOutput(work.resolve("out.txt").toFile())
                .redirectError(work.resolve("err.txt").toFile()).start();
    }

    /** @return the arguments of a one-rank md5_check over a small dataset it writes on {@code target} */
    private static List<String> md5Check(Path target, String launcher, Duration timeout, Path out) {
        return List.of("run", "md5_check", "-p", "size_classes=64KiB", "-p", "files_per_class=8",
                "--target", target.toString(), "--launcher", launcher, "--timeout", timeout.toSeconds() + "s",
                "--cleanup-grace", "1s", "--reps", "1", "--warmups", "0", "--out", out.toString());
    }

    @ParameterizedTest(name = "--launcher {0}")
    @ValueSource(strings = {"threads", "processes"})
    void aFileWhoseReadNeverReturns_cannotKeepPrismFromExitingByItsDeadline_andTheStuckCallIsNamed(String launcher)
            throws Exception {
        try (FaultFs fs = FaultFs.mount(work.resolve("fs"))) {
            // the observer of what is not a promise but this host's time: the same command with nothing held, its JVMs'
            // start, the dataset written and read, the clean-up and the exit, here and now
            long baseStarted = System.nanoTime();
            Process base = start(md5Check(fs.mountPoint(), launcher, Duration.ofSeconds(60), work.resolve("unheld")));
            assertThat(base.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the unheld run exited").isTrue();
            double baseline = (System.nanoTime() - baseStarted) / 1e9;
            assertThat(base.exitValue()).as(Files.readString(work.resolve("err.txt"))).isZero();
            // a read that outlasts the test: clean-up's unlink of the same file waits behind it in the FUSE daemon
            fs.rule("read", "/prism-*/shared/dataset/*/file-000003.bin", Duration.ofSeconds(600), null);
            // the timeout counts from the repetition's start, rank JVMs' start-up included: 5 s past what the whole
            // unheld run took, so the rank is reading the held file for seconds, long enough to be reported as a stall
            Duration timeout = Duration.ofSeconds(5 + (long) Math.ceil(baseline));
            Duration grace = Duration.ofSeconds(1);
            long started = System.nanoTime();
            Process prism = start(md5Check(fs.mountPoint(), launcher, timeout, work.resolve("results")));
            assertThat(prism.waitFor(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("prism exited").isTrue();
            double seconds = (System.nanoTime() - started) / 1e9;

            String out = Files.readString(work.resolve("out.txt"));
            String err = Files.readString(work.resolve("err.txt"));
            assertThat(prism.exitValue()).as(err).isEqualTo(1);
            assertThat(seconds).as("%s; the unheld run took %.1f s", err, baseline).isLessThan(baseline + timeout.toSeconds()
                    + HANG_ALLOWANCE_SECONDS + grace.toSeconds() + host.allowanceSeconds());
            assertThat(out).contains("FAIL TIMEOUT on rank 0").contains("file-000003.bin");
            assertThat(err).contains("has ended its work but cannot exit")
                    .containsPattern("in unlinkat\\(\"" + java.util.regex.Pattern.quote(fs.mountPoint().toString())
                            + "/prism-[^\"]*/file-000003\\.bin\"\\) \\(waiting on its FUSE daemon\\)")
                    .doesNotContain("Exception");
            try (Stream<Path> docs = Files.walk(work.resolve("results"))) {
                assertThat(docs.filter(p -> p.getFileName().toString().equals("01-md5_check-t1.json"))).hasSize(1);
            }
        }
    }

    /**
     * What the OOM killer does: the run's JVM killed outright, with no chance to clean up. Before, prism exited 137 at
     * once with nothing on stderr and thousands of entries left in the target (issue 38); now the supervisor says what
     * happened and removes the run directory the run had told it of.
     */
    @Test
    void theRunsProcessKilledOutright_isReported_andWhatItMadeInTheTargetIsRemoved() throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Process prism = start(List.of("run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--run-id", "oom"));
        Targets.awaitFiles(target, prism, work.resolve("err.txt"));
        ProcessHandle run = prism.toHandle().children().filter(p -> p.info().commandLine().orElse("")
                .contains("dev.prism.cli.PrismCommand")).findFirst().orElseThrow();
        run.destroyForcibly();
        assertThat(prism.waitFor(Await.PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        assertThat(prism.exitValue()).isEqualTo(137);
        String err = Files.readString(work.resolve("err.txt"));
        assertThat(err).contains("prism: the run's process " + run.pid() + " was killed by signal 9 (SIGKILL: out of memory?")
                .contains("prism: removed what it made in the target: " + target.resolve("prism-oom") + " (");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void killingPrism_hasItsRunStop_keepTheResults_andCleanUpTheTarget() throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Process prism = start(List.of("run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--launcher", "processes", "--tasks", "2", "--out", work.resolve("results").toString()));
        Targets.awaitFiles(target, prism, work.resolve("err.txt"));
        List<ProcessHandle> below = prism.descendants().toList();
        assertThat(below).as("the run's process and its ranks").hasSizeGreaterThanOrEqualTo(3);
        // the directory the supervisor made for the run to tell it where its run directory is (in java.io.tmpdir)
        Path scratch = Targets.supervisorScratch(prism);
        assertThat(scratch).isDirectory();
        prism.toHandle().destroyForcibly();
        long killed = System.nanoTime();
        Await.until("the run and its ranks have ended", () -> below.stream().allMatch(RankProcesses::ended));

        // README: the run stops as after a signal and cleans up within its grace (10 s) of the supervisor's death
        assertThat((System.nanoTime() - killed) / 1e9).isLessThan(10 + 1 + host.allowanceSeconds());
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
        // nobody else is left to remove it: the run's process did, as it exited
        assertThat(scratch).doesNotExist();
        Path result = Await.value("the run's result document", () -> {
            try (Stream<Path> docs = Files.walk(work.resolve("results"))) {
                return docs.filter(p -> p.getFileName().toString().equals("01-create_files-t2.json")).findFirst();
            }
        });
        assertThat(Files.readString(result)).contains("INTERRUPTED")
                .contains("interrupted by the death of its supervising prism process during repetition 1");
    }
}
