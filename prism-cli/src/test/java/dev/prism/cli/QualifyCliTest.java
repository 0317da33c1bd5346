package dev.prism.cli;

import dev.prism.DirectoryRemoval;
import dev.prism.Results;
import dev.prism.report.Qualification;
import dev.prism.report.Scorecard;
import dev.prism.testing.FaultFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint requirement — 8 MiB from 2 ranks within 1 s, about 4.2 MB/s per rank — passes on tmpfs and fails on
 * faultfs where every write waits 80 ms (long beside what a create, an fsync and a close cost through FUSE on one
 * loaded core: with 10 ms they took 10% of a save there). Both sides have a margin of 2.5 or more on a loaded
 * machine: with the test command's lanes beside it, tmpfs saved a 4 MiB shard in up to 0.4 s (the requirement was
 * 0.25 s then), and 32 writes of 80 ms take 2.6 s. The observer is faultfs: its log counts the writes each save made, and the
 * scorecard's figure is held to the rate those writes and the delay imply.
 * Timing-dependent: the tmpfs verdict needs the host to save a shard within the requirement.
 */
@org.junit.jupiter.api.Tag("timing")
class QualifyCliTest {
    private static final long DELAY_MS = 80;
    private static final String REQUIREMENTS = """
            // a small job: two ranks save 8 MiB (4 Mi parameters × 2 B) within 1 s
            {"name": "small-checkpoint", "job": {"ranks": 2},
             "checkpoint": {"parameters": 4194304, "bytesPerParameter": 2, "stallSeconds": 1, "writeSize": "128KiB"}}
            """;

    @TempDir
    Path work;

    @Test
    void aCheckpointRequirement_passesOnTmpfs_andFailsOnFaultfsWithDelayedWrites_byTheFigureTheDelayImplies() throws Exception {
        Path requirements = Files.writeString(work.resolve("requirements.json"), REQUIREMENTS);
        Qualification q = Qualification.fromJson(requirements);
        Qualification.Requirement checkpoint = q.requirements().get(0);
        assertThat(checkpoint.needed()).isCloseTo(8 * 1048576 / 1.0 / 2, org.assertj.core.data.Offset.offset(1.0));
        assertThat(checkpoint.derivation()).startsWith("8.39 MB/s aggregate, 4.19 MB/s per rank; each rank writes its 4.19 MB shard");

        Path shm = Files.createTempDirectory(Path.of("/dev/shm"), "prism-qualify-");
        try {
            Cli.Outcome fast = prism("qualify", requirements.toString(), "--target", shm.toString(), "--tasks", "2", "--reps", "5",
                    "-q", "--out", work.resolve("out").toString(), "--run-id", "tmpfs", "--junit", work.resolve("tmpfs.xml").toString());
            assertThat(fast.exit()).as(fast.out() + fast.err()).isZero();
            assertThat(fast.out()).contains("qualification small-checkpoint: a job of 2 rank(s), measured at 2")
                    .containsPattern("checkpoint +≥ 4.19 MB/s per rank .* PASS +tmpfs/01-create_files-t2.json\n")
                    .contains("QUALIFIED: 1 of 1 requirement(s) passed");
        } finally {
            DirectoryRemoval.of(shm);
        }

        try (FaultFs fs = FaultFs.mount(Files.createDirectories(work.resolve("fault")))) {
            // the saves' files only: the rehearsal's scratch files (rehearsal-N/) before the clock are not delayed
            fs.rule("write", "*/rank-*/file-*", Duration.ofMillis(DELAY_MS), null);
            fs.clearLog();
            Cli.Outcome slow = prism("qualify", requirements.toString(), "--target", fs.mountPoint().toString(), "--tasks", "2",
                    "--reps", "3", "-q", "--out", work.resolve("out").toString(), "--run-id", "faultfs",
                    "--junit", work.resolve("faultfs.xml").toString(), "--markdown", work.resolve("faultfs.md").toString());
            assertThat(slow.exit()).as(slow.out() + slow.err()).isEqualTo(1);
            assertThat(slow.out()).containsPattern("checkpoint +≥ 4.19 MB/s per rank .* FAIL +faultfs/01-create_files-t2.json")
                    .contains("NOT QUALIFIED: 0 of 1 requirement(s) passed");
            // the observer: faultfs served every write, each after the delay; a warm-up and 3 repetitions of 2 ranks saved
            long writes = fs.log().stream().filter(l -> l.matches("write .*/rank-\\d+/file-\\d+\\.dat")).count();
            long saves = 4 * 2;
            assertThat(writes % saves).as("writes per save alike").isZero();
            long perSave = writes / saves;
            double implied = 4194304 / (perSave * DELAY_MS / 1000.0);
            // and a plain loop's save through the same mount under the same rule, here and now: the delays plus the
            // host's share of each write (the FUSE round trip, the copies), which a loaded host stretches
            Path plain = Files.createDirectories(fs.mountPoint().resolve("observer/rank-0")).resolve("file-0.dat");
            byte[] chunk = new byte[(int) (4194304 / perSave)];
            long began = System.nanoTime();
            try (java.io.OutputStream out = Files.newOutputStream(plain)) {
                for (long w = 0; w < perSave; w++) {
                    out.write(chunk);
                }
            }
            double plainRate = 4194304 / ((System.nanoTime() - began) / 1e9);
            Scorecard card = q.judge(Results.load(work.resolve("out/faultfs")), 2);
            Scorecard.Row row = card.rows().get(0);
            assertThat(row.verdict()).isEqualTo(Scorecard.Verdict.FAIL);
            // never above what the delays allow; at most 10% below the plain loop's rate (two ranks at once, and the
            // repetition's clock around its save)
            assertThat(row.measured()).as("measured against %s implied by %d writes of %d ms", implied, perSave, DELAY_MS)
                    .isLessThanOrEqualTo(implied);
            assertThat(row.measured()).as("measured against a plain loop's %s", plainRate)
                    .isGreaterThanOrEqualTo(0.9 * Math.min(plainRate, implied));
            assertThat(row.high()).isLessThan(checkpoint.needed());
        }
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(work.resolve("faultfs.xml").toFile());
        assertThat(xml.getElementsByTagName("testcase").getLength()).isEqualTo(1);
        Element failure = (Element) xml.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("message")).startsWith("FAIL checkpoint a model (4.19 M parameters × 2 B = 8.39 MB)"
                + " from 2 rank(s) within 1 s: needed ≥ 4.19 MB/s per rank, measured ").contains("faultfs/01-create_files-t2.json");
        // the same verdict from the results alone, without running again
        Cli.Outcome again = prism("qualify", requirements.toString(), "--results", work.resolve("out/faultfs").toString(), "--tasks", "2");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.out()).containsPattern("checkpoint +≥ 4.19 MB/s per rank .* FAIL +faultfs/01-create_files-t2.json");
        Document passing = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(work.resolve("tmpfs.xml").toFile());
        assertThat(passing.getElementsByTagName("failure").getLength()).isZero();
        assertThat(Files.readString(work.resolve("faultfs.md"))).startsWith("### Qualification small-checkpoint: FAILED (0 of 1 held)");
    }

    @Test
    void badRequirements_areUsageErrorsNamingTheField() throws Exception {
        Path bad = Files.writeString(work.resolve("bad.json"), "{\"job\": {\"ranks\": 2}, \"checkpoint\": {\"parameters\": 1e9}}");
        Cli.Outcome o = prism("qualify", bad.toString(), "--target", work.toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("checkpoint.stallSeconds is required (0.001..86400)").doesNotContain("Exception");
        Path typo = Files.writeString(work.resolve("typo.json"), "{\"job\": {\"ranks\": 2}, \"interactive\": {\"statP9\": \"5ms\"}}");
        assertThat(prism("qualify", typo.toString(), "--target", work.toString()).err())
                .contains("unknown field interactive.statP9; interactive takes statP99, listP99, listDirectoryFiles, gitStatusP99");
        Cli.Outcome neither = prism("qualify", "--target", work.toString());
        assertThat(neither.exit()).isEqualTo(2);
        assertThat(neither.err()).contains("give the requirements as a file");
        Cli.Outcome printed = prism("qualify", "--print-profile", "project");
        assertThat(printed.exit()).isZero();
        Qualification project = Qualification.fromJson(printed.out());
        assertThat(project.jobRanks()).isEqualTo(512);
        assertThat(project.requirements()).extracting(Qualification.Requirement::id)
                .containsExactly("checkpoint", "data_bytes", "data_files", "stat_p99", "list_p99");
        Cli.Outcome plan = prism("qualify", "--profile", "home", "--plan", "--tasks", "2");
        assertThat(plan.exit()).isZero();
        assertThat(plan.out()).contains("measured by git_status files=5000 scans=10");
    }

    /**
     * A data requirement of "150KB" samples (150,000 B: not a whole number of pages) is measured, not failed: md5_check
     * read such chunks into a buffer one page short and both data rows said FAIL with a margin of NaN%.
     */
    @Test
    void aDataRequirementOf150KBSamples_isMeasured() throws Exception {
        Path requirements = Files.writeString(work.resolve("data.json"), """
                {"name": "data", "job": {"ranks": 1},
                 "data": {"samplesPerSecondPerGpu": 1, "bytesPerSample": "150KB", "filesPerSample": 1, "measureFiles": 16}}
                """);
        Cli.Outcome o = prism("qualify", requirements.toString(), "--target", Files.createDirectories(work.resolve("t")).toString(),
                "--tasks", "1", "-q", "--out", work.resolve("out").toString(), "--run-id", "data");
        assertThat(o.exit()).as(o.out() + o.err()).isZero();
        assertThat(o.out()).containsPattern("data_bytes +≥ 150 kB/s per rank .* PASS ")
                .containsPattern("data_files +≥ 1\\.000 files/s per rank .* PASS ").doesNotContain("NaN")
                .contains("× 150kB (1 file(s) of 150kB each)");
        var run = Results.load(work.resolve("out").resolve("data")).get(0);
        assertThat(run.measurement("read").bytes()).isEqualTo(run.repetitions().size() * 16L * 150_000);
    }
}
