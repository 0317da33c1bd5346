package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/test-summary.sh}, which decides the test command's exit code: on a checkout of its own (a pom naming
 * one module with thousands of test sources and one passing report), every run prints the module's line and the total
 * and exits 0. It once ended after its header with exit 141 in most runs: a {@code find | head -1} under
 * {@code pipefail}, whose find got SIGPIPE when it had more names to write than head took. The counts are the
 * report's test cases, not its testsuite line's attributes.
 */
class TestSummaryScriptTest {
    private static final Path SCRIPT = Path.of("..", "scripts", "test-summary.sh").toAbsolutePath().normalize();

    @Test
    void aModuleWithManyTestSources_isSummedUp_everyTime(@TempDir Path checkout) throws Exception {
        Path scripts = Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(SCRIPT, scripts.resolve("test-summary.sh"));
        Files.writeString(checkout.resolve("pom.xml"), "<project>\n  <modules>\n    <module>big</module>\n  </modules>\n</project>\n");
        Path sources = Files.createDirectories(checkout.resolve("big/src/test/java/a"));
        for (int i = 0; i < 3_000; i++) {
            Files.writeString(sources.resolve("SomeRatherLongTestClassName" + i + "Test.java"), "");
        }
        Path reports = Files.createDirectories(checkout.resolve("big/target/surefire-reports"));
        // three cases, one skipped, under a testsuite line that says one: surefire writes tests="1" for a class that
        // runs on two engines (jqwik's properties beside Jupiter's tests), so the cases themselves are counted
        Files.writeString(reports.resolve("TEST-a.OneTest.xml"), "<?xml version=\"1.0\"?>\n<testsuite name=\"a.OneTest\""
                + " tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n<testcase name=\"x\" classname=\"a.OneTest\"/>\n"
                + "<testcase name=\"y\" classname=\"a.OneTest\">\n<skipped/>\n</testcase>\n"
                + "<testcase name=\"z\" classname=\"OneTest\" time=\"1.0\">\n</testcase>\n</testsuite>\n");
        for (int run = 0; run < 10; run++) {
            Process p = new ProcessBuilder("bash", scripts.resolve("test-summary.sh").toString()).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("run %d: %s", run, out).isZero();
            assertThat(out).as("run %d", run).containsPattern("big +3 +0 +1").containsPattern("all +3 +0 +1");
        }
    }

    @Test
    void aFailedCase_isCountedAndNamed_andFailsTheCommand(@TempDir Path checkout) throws Exception {
        Path scripts = Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(SCRIPT, scripts.resolve("test-summary.sh"));
        Files.writeString(checkout.resolve("pom.xml"), "<project>\n  <modules>\n    <module>m</module>\n  </modules>\n</project>\n");
        Files.createDirectories(checkout.resolve("m/src/test/java"));
        Path reports = Files.createDirectories(checkout.resolve("m/target/surefire-reports"));
        Files.writeString(reports.resolve("TEST-a.TwoTest.xml"), "<?xml version=\"1.0\"?>\n<testsuite name=\"a.TwoTest\""
                + " tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n<testcase name=\"fine\" classname=\"a.TwoTest\"/>\n"
                + "<testcase name=\"broken\" classname=\"a.TwoTest\">\n<failure message=\"no\">expected</failure>\n</testcase>\n"
                + "</testsuite>\n");
        Process p = new ProcessBuilder("bash", scripts.resolve("test-summary.sh").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).containsPattern("m +2 +1 +0").containsPattern("all +2 +1 +0").contains("m: a.TwoTest#broken");
    }
}
