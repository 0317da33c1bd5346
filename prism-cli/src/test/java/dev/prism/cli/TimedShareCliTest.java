package dev.prism.cli;

import dev.prism.testing.FaultFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void aRun_saysItsTimedPhasesShareOfTheWallTime(@TempDir Path work) throws Exception {
        Cli.Outcome o;
        try (FaultFs fs = FaultFs.mount(work.resolve("fault"))) {
            fs.rule("create", "*/rank-*/file-*", Duration.ofMillis(100), null);
            o = prism("run", "create_files", "-p", "files=3", "--reps", "3", "--warmups", "1",
                    "--target", fs.mountPoint().toString(), "--out", work.resolve("out").toString());
        }
        assertThat(o.exit()).as(o.err()).isZero();
        Matcher m = LINE.matcher(o.err());
        assertThat(m.find()).as(o.err()).isTrue();
        double timed = Double.parseDouble(m.group(1));
        double all = Double.parseDouble(m.group(2));
        assertThat(timed).as("three timed phases of three 100 ms creates").isBetween(0.9, 1.5);
        assertThat(all).isGreaterThanOrEqualTo(timed + 0.3); // the warm-up's sleep is in the wall time, not in the timed
        assertThat(Integer.parseInt(m.group(3))).isCloseTo((int) Math.round(100 * timed / all), org.assertj.core.data.Offset.offset(1));
        Cli.Outcome quiet = prism("run", "create_files", "-p", "files=3", "--reps", "1", "-q", "--target", work.toString(),
                "--out", work.resolve("out").toString());
        assertThat(quiet.err()).doesNotContain("time:");
    }
}
