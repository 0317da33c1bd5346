package dev.prism.junit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extension as users meet it: each case class below is run through the JUnit Platform (as
 * Maven's surefire runs a test class), and what it left on disk, what it was given and what JUnit
 * logged are looked at afterwards.
 */
class PrismTargetExtensionTest {
    /** Set while a case runs through the launcher; the cases do nothing when surefire finds them on its own. */
    private static volatile boolean running;
    private static volatile Path given;
    private static volatile Path outside;

    @ExtendWith(PrismTargetExtension.class)
    static class WritesIntoItsTarget {
        @Test
        void writesFilesAndALinkOut(@PrismTarget Path target) throws IOException {
            Assumptions.assumeTrue(running, "run by PrismTargetExtensionTest");
            given = target;
            Files.createDirectories(target.resolve("prism-run/rank-0"));
            Files.writeString(target.resolve("prism-run/rank-0/file-1.dat"), "data");
            // a link out of the target: removal takes the link, never what it points at
            Files.createSymbolicLink(target.resolve("prism-run/rank-0/out"), outside);
        }
    }

    private static TestExecutionSummary execute(Class<?> testClass, List<LogRecord> logged) {
        Logger junit = Logger.getLogger("org.junit");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    logged.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        junit.addHandler(capture);
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        running = true;
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectClass(testClass)).build(), listener);
        } finally {
            running = false;
            junit.removeHandler(capture);
        }
        return listener.getSummary();
    }

    @Test
    void withoutTheProperty_aTemporaryTargetIsRemovedAfterTheTest_withoutFollowingLinks_andJUnitWarnsOfNothing(
            @TempDir Path work) throws IOException {
        outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "precious");
        List<LogRecord> logged = new ArrayList<>();
        String before = System.clearProperty(PrismTargetExtension.PROPERTY);
        try {
            TestExecutionSummary summary = execute(WritesIntoItsTarget.class, logged);
            assertThat(summary.getTestsSucceededCount()).as(summary.getFailures().toString()).isEqualTo(1);
        } finally {
            if (before != null) {
                System.setProperty(PrismTargetExtension.PROPERTY, before);
            }
        }
        assertThat(given.getFileName().toString()).startsWith("prism-acceptance-");
        assertThat(given).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("precious");
        // JUnit 5.13+ warned "implements CloseableResource but not AutoCloseable" for the old store value
        assertThat(logged).extracting(LogRecord::getMessage).noneMatch(m -> m != null && m.contains("CloseableResource"));
    }

    @Test
    void withTheProperty_thatDirectoryIsGiven_andKept(@TempDir Path work) throws IOException {
        outside = Files.createDirectories(work.resolve("outside"));
        Path mount = Files.createDirectories(work.resolve("mnt-nfs-prism"));
        String before = System.setProperty(PrismTargetExtension.PROPERTY, mount.toString());
        try {
            TestExecutionSummary summary = execute(WritesIntoItsTarget.class, new ArrayList<>());
            assertThat(summary.getTestsSucceededCount()).as(summary.getFailures().toString()).isEqualTo(1);
        } finally {
            restore(before);
        }
        assertThat(given).isEqualTo(mount);
        assertThat(mount.resolve("prism-run/rank-0/file-1.dat")).hasContent("data");
    }

    @Test
    void aPropertyThatIsNoDirectory_failsTheTest_namingIt(@TempDir Path work) {
        outside = work;
        String before = System.setProperty(PrismTargetExtension.PROPERTY, work.resolve("no-such-dir").toString());
        try {
            TestExecutionSummary summary = execute(WritesIntoItsTarget.class, new ArrayList<>());
            assertThat(summary.getTotalFailureCount()).isEqualTo(1);
            assertThat(summary.getFailures().get(0).getException().getMessage())
                    .contains("-Dprism.target=" + work.resolve("no-such-dir")).contains("is not an existing directory");
        } finally {
            restore(before);
        }
    }

    private static void restore(String before) {
        if (before == null) {
            System.clearProperty(PrismTargetExtension.PROPERTY);
        } else {
            System.setProperty(PrismTargetExtension.PROPERTY, before);
        }
    }
}
