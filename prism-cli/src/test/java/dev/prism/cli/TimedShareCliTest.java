package dev.prism.cli;

import dev.prism.testing.FaultFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every run and suite ends saying how much of its wall time the timed phases took. The observer is an injected delay:
 * faultfs holds each create of the timed files 100 ms, so three repetitions of three files time at least 0.9 s (the
 * warm-up's phase is not counted: it is not kept), and the command took that and the warm-up's 0.3 s at least.
 */
class TimedShareCliTest {
    private static final Pattern LINE = Pattern.compile("time: timed phases (\\d+\\.\\d) s of (\\d+\\.\\d) s in all \\((\\d+)%\\)");

    /**
     * The observer: nine creates this test makes itself through faultfs, under the rule that holds each 100 ms, timed by
     * its own clock: what three timed phases of three such creates take on this host, its FUSE round trips and wake-ups
     * included, now.
     *
     * @return seconds
     */
    private static double nineHeldCreates(FaultFs fs) throws java.io.IOException {
        Path dir = Files.createDirectories(fs.mountPoint().resolve("observer").resolve("rank-0"));
        long start = System.nanoTime();
        for (int i = 0; i < 9; i++) {
            Files.createFile(dir.resolve("file-" + i));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Test
    void aRun_saysItsTimedPhasesShareOfTheWallTime(@TempDir Path work) throws Exception {
        Cli.Outcome o;
        double observed;
        try (FaultFs fs = FaultFs.mount(work.resolve("fault"))) {
            fs.rule("create", "*/rank-*/file-*", Duration.ofMillis(100), null);
            o = prism("run", "create_files", "-p", "files=3", "--reps", "3", "--warmups", "1",
                    "--target", fs.mountPoint().toString(), "--out", work.resolve("out").toString());
            observed = nineHeldCreates(fs);
        }
        assertThat(o.exit()).as(o.err()).isZero();
        Matcher m = LINE.matcher(o.err());
        assertThat(m.find()).as(o.err()).isTrue();
        double timed = Double.parseDouble(m.group(1));
        double all = Double.parseDouble(m.group(2));
        // at least the nine injected delays; at most what the same creates took the test, twice over (the two are
        // timed moments apart on a host that may be loaded)
        assertThat(timed).as("three timed phases of three 100 ms creates (the test's own: %.2f s)", observed)
                .isGreaterThanOrEqualTo(0.9).isLessThanOrEqualTo(2 * observed);
        assertThat(all).isGreaterThanOrEqualTo(timed + 0.3); // the warm-up's sleep is in the wall time, not in the timed
        assertThat(Integer.parseInt(m.group(3))).isCloseTo((int) Math.round(100 * timed / all), org.assertj.core.data.Offset.offset(1));
        Cli.Outcome quiet = prism("run", "create_files", "-p", "files=3", "--reps", "1", "-q", "--target", work.toString(),
                "--out", work.resolve("out").toString());
        assertThat(quiet.err()).doesNotContain("time:");
    }

    private static final Pattern STAGES = Pattern.compile("the ranks' untimed stages: start-up (\\d+\\.\\d) s, set-up "
            + "(\\d+\\.\\d) s, rehearsal and JIT wait (\\d+\\.\\d) s, validation (\\d+\\.\\d) s, teardown (\\d+\\.\\d) s");

    /**
     * The untimed stages are accounted too, each its slowest rank's total: delete_files creates its files in set-up,
     * where faultfs holds each create 100 ms (the rehearsal's own files, in rehearsal-N/, are not held): a warm-up and
     * two repetitions of three files at two ranks spend at least 0.9 s in set-up, and the timed unlinks are not held.
     */
    @Test
    void theRanksUntimedStages_areAccountedBesideTheTimedPhases(@TempDir Path work) throws Exception {
        Cli.Outcome o;
        double observed;
        try (FaultFs fs = FaultFs.mount(work.resolve("fault"))) {
            fs.rule("create", "*/rank-*/file-*", Duration.ofMillis(100), null);
            o = prism("run", "delete_files", "-p", "files=3", "--reps", "2", "--warmups", "1", "--tasks", "2",
                    "--target", fs.mountPoint().toString(), "--out", work.resolve("out").toString());
            observed = nineHeldCreates(fs);
        }
        assertThat(o.exit()).as(o.err()).isZero();
        Matcher all = LINE.matcher(o.err());
        Matcher m = STAGES.matcher(o.err());
        assertThat(all.find() && m.find()).as(o.err()).isTrue();
        double setUp = Double.parseDouble(m.group(2));
        // set-up also makes directories and the rehearsal's files: twice the test's own nine held creates bounds it
        assertThat(setUp).as("three executions of three 100 ms creates per rank (the test's own: %.2f s)", observed)
                .isGreaterThanOrEqualTo(0.9).isLessThanOrEqualTo(2 * observed);
        // nine unlinks a rank, none held: less than a third of what nine held creates take
        assertThat(Double.parseDouble(all.group(1))).as("timed unlinks, not held").isLessThan(observed / 3);
        double stages = setUp;
        for (int g : new int[]{1, 3, 4, 5}) {
            stages += Double.parseDouble(m.group(g));
        }
        assertThat(stages).isLessThanOrEqualTo(Double.parseDouble(all.group(2)));
    }
}
