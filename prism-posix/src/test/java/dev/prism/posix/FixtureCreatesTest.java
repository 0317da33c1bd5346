package dev.prism.posix;

import dev.prism.posix.internal.Programs;
import dev.prism.testing.Required;
import dev.prism.testing.ScenarioInChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read-only inputs of list_files, tar_create and tar_extract are made once per configuration, not once per
 * repetition (issue 39, item 5), under the processes launcher too, where every repetition's rank is a new JVM. The
 * observer is strace: the files created ({@code openat} with {@code O_CREAT}, or {@code creat}, as tar does) below the
 * run's {@code fixtures-0/} directory in a run of a warm-up and three repetitions.
 */
class FixtureCreatesTest {
    @TempDir
    Path dir;

    @Test
    void listFiles_createsItsDirectoryOfFilesOnce_forAWarmUpAndThreeRepetitions() throws IOException {
        assertThat(fixtureCreates("list_files", Map.of("files", "40"))).isEqualTo(40);
    }

    @Test
    void tarExtract_makesItsArchiveOnce_andTarCreateItsTreeOnce() throws IOException {
        // the tree of 30 files, and the archive tar writes from it
        assertThat(fixtureCreates("tar_extract", Map.of("files", "30", "repeats", "1"))).isEqualTo(30 + 1);
        assertThat(fixtureCreates("tar_create", Map.of("files", "30", "repeats", "1"))).isEqualTo(30);
    }

    /** @return files created below {@code fixtures-0/} in a run of one warm-up and three repetitions, as strace saw */
    private long fixtureCreates(String benchmark, Map<String, String> parameters) throws IOException {
        Required.require(Programs.missing("strace", "") == null, "PRISM_REQUIRE_BPF", "strace is not installed");
        Path log = dir.resolve("strace-" + benchmark + ".log");
        Path target = Files.createDirectories(dir.resolve("target-" + benchmark));
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-qq", "-o", log.toString(),
                "-e", "trace=openat,open,creat", "-e", "signal=none",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dprism.test.warmups=1",
                "-Dprism.test.repetitions=3", "-cp", System.getProperty("java.class.path"),
                ScenarioInChild.class.getName(), target.toString(), "fixture-" + benchmark, "1", benchmark));
        parameters.forEach((k, v) -> command.add(k + "=" + v));
        String out = Programs.check(command, dir, Map.of(), Duration.ofMinutes(5)).stdout();
        assertThat(out.lines().filter(l -> l.equals("phase 0 RUN")).count()).as("executions").isEqualTo(4);
        return Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream()
                // by path (/…/fixtures-0/…) or, as native access creates, relative to the held run directory ("fixtures-0/…")
                .filter(l -> (l.contains("O_CREAT") || l.matches("^\\d+\\s+creat\\(.*"))
                        && (l.contains("/fixtures-0/") || l.contains("\"fixtures-0/"))
                        && !l.contains("= -1"))
                .filter(l -> !l.contains("/.")) // the stamps beside each fixture
                .count();
    }
}
