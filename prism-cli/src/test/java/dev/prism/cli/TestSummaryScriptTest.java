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
 * {@code pipefail}, whose find got SIGPIPE when it had more names to write than head took.
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
        Files.writeString(reports.resolve("TEST-a.OneTest.xml"), "<?xml version=\"1.0\"?>\n<testsuite name=\"a.OneTest\""
                + " tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"1\">\n<testcase name=\"x\" classname=\"a.OneTest\"/>\n"
                + "</testsuite>\n");
        for (int run = 0; run < 10; run++) {
            Process p = new ProcessBuilder("bash", scripts.resolve("test-summary.sh").toString()).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("run %d: %s", run, out).isZero();
            assertThat(out).as("run %d", run).containsPattern("big +3 +0 +1").containsPattern("all +3 +0 +1");
        }
    }
}
