package dev.prism.cli;

import dev.prism.testing.SchedulingDelay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

class CompareReportCliTest {
    @TempDir
    Path work;



    /** Runs create_files with 50 files and 3 repetitions unless {@code extra} gives its own -p files or --reps. */
    private Path run(String id, String... extra) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "create_files", "--target",
                work.toString(), "-q", "--out", work.resolve("out").toString(), "--run-id", id));
        java.util.List<String> given = java.util.List.of(extra);
        if (given.stream().noneMatch(a -> a.startsWith("files="))) {
            args.addAll(java.util.List.of("-p", "files=50"));
        }
        if (!given.contains("--reps")) {
            args.addAll(java.util.List.of("--reps", "3"));
        }
        args.addAll(given);
        Cli.Outcome o = prism(args.toArray(String[]::new));
        assertThat(o.exit()).as(o.err()).isZero();
        return work.resolve("out").resolve(id);
    }

    @Test
    void gate_judgesWrittenResults_andWritesJUnitXmlAndMarkdown_whileRunRecordsLabelsCommandAndMetrics() throws Exception {
        Path gate = Files.writeString(work.resolve("gate.json"), "{\"expectations\": ["
                + "{\"benchmark\": \"create_files\", \"op\": \"create\", \"stat\": \"p99\", \"below\": \"1h\"},"
                + "{\"benchmark\": \"create_files\", \"op\": \"create\", \"stat\": \"mean\", \"below\": \"1ns\"}]}");
        Path metrics = work.resolve("prism.prom");
        Path a = run("labelled", "--label", "firmware=4.3", "--metrics", metrics.toString());
        dev.prism.RunResult result = dev.prism.Results.load(a).get(0);
        assertThat(result.provenance().labels()).containsEntry("firmware", "4.3");
        assertThat(result.provenance().command()).startsWith("prism run create_files --target " + work)
                .endsWith("--label firmware=4.3 --metrics " + metrics);
        assertThat(Files.readString(metrics)).contains("label_firmware=\"4.3\"").endsWith("# EOF\n");

        Path junit = work.resolve("gate.xml");
        Path markdown = work.resolve("gate.md");
        Cli.Outcome o = prism("gate", gate.toString(), a.toString(), "--junit", junit.toString(), "--markdown", markdown.toString());
        assertThat(o.exit()).as(o.err()).isEqualTo(1);
        assertThat(o.out()).startsWith("gate FAILED").contains("FAIL create_files tasks=1 create mean");
        org.w3c.dom.Document xml = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertThat(xml.getElementsByTagName("testcase").getLength()).isEqualTo(2);
        assertThat(xml.getElementsByTagName("failure").getLength()).isEqualTo(1);
        assertThat(((org.w3c.dom.Element) xml.getElementsByTagName("failure").item(0)).getAttribute("message"))
                .startsWith("create_files tasks=1 create mean ").endsWith(" is not below 1 ns");
        assertThat(Files.readString(markdown)).startsWith("### Storage gate: FAILED (1 of 2 held)");
        // --junit without a gate, and a bad --push, are usage errors before any work
        Cli.Outcome noGate = prism("run", "create_files", "--target", work.toString(), "--junit", junit.toString());
        assertThat(noGate.exit()).isEqualTo(2);
        assertThat(noGate.err()).contains("--junit writes a gate's verdict; give the expectations with --gate FILE");
        Cli.Outcome badPush = prism("run", "create_files", "--target", work.toString(), "--push", "pushgateway:9091");
        assertThat(badPush.exit()).isEqualTo(2);
        assertThat(badPush.err()).contains("--push must be a Pushgateway's http:// or https:// address");
        Cli.Outcome badLabel = prism("run", "create_files", "--target", work.toString(), "--label", "4x=1");
        assertThat(badLabel.exit()).isEqualTo(2);
        assertThat(badLabel.err()).contains("label key must be").doesNotContain("Exception");
    }

    @Test
    void history_ofFourQuietRuns_movesNothing_andWritesItsPage() throws Exception {
        for (int i = 1; i <= 4; i++) {
            run("night-" + i, "--label", "night=" + i);
        }
        Path page = work.resolve("history.html");
        // 50 creates a night are too few to be quiet on a loaded machine (one night 8x faster than the three before it
        // when the class ran beside other work): the bar is 20x, what this test is about is the command, not the noise
        Cli.Outcome o = prism("history", work.resolve("out").toString(), "--window", "3", "--threshold", "2000", "-o", page.toString());
        assertThat(o.exit()).as(o.out() + o.err()).isZero();
        assertThat(o.out()).startsWith("4 run(s) from ").contains("each run judged against the 3 before it")
                .endsWith("0 series moved: 0 slower, 0 faster\n");
        assertThat(Files.readString(page)).contains("No series shifted slower").contains("night=4");
        assertThat(prism("history", work.resolve("nothing").toString()).exit()).isEqualTo(2);
        Cli.Outcome window = prism("history", work.resolve("out").toString(), "--window", "1");
        assertThat(window.exit()).isEqualTo(2);
        assertThat(window.err()).contains("window must be 3..100 runs, was 1");
    }

    @Test
    void compare_ofAResultWithItself_passesWhereEveryStatisticIsJudged_elseIsInconclusive() {
        Path a = run("a");
        // 50 creates a repetition: the mean is judged, p99 (which needs 100) is not, so the defaults cannot pass; and
        // three repetitions of 50 creates scatter too much to show even themselves within 10% (two one-sided tests), so
        // the pass asks "within 500%"
        Cli.Outcome o = prism("compare", a.toString(), a.toString(), "--stats", "mean", "--threshold", "500");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("create_files").contains("0 regression(s)").contains("outcome: passed");
        Cli.Outcome tails = prism("compare", a.toString(), a.toString());
        assertThat(tails.exit()).as(tails.err()).isEqualTo(PrismCommand.EXIT_INCONCLUSIVE);
        assertThat(tails.out()).contains("p99 needs ≥ 100").contains("outcome: INCONCLUSIVE");
        Cli.Outcome md = prism("compare", a.toString(), a.toString(), "--format", "md");
        assertThat(md.out()).startsWith("| benchmark |");
        assertThat(prism("compare", a.toString(), work.resolve("nothing").toString()).exit()).isEqualTo(2);
        assertThat(prism("compare", a.toString(), a.toString(), "--format", "pdf").exit()).isEqualTo(2);
    }

    @Test
    void compare_judgesOverRepetitions_tailsToo_andSaysWhenThereAreTooFew() {
        Path once = run("once", "--reps", "1", "-p", "files=200");
        Cli.Outcome o = prism("compare", once.toString(), once.toString());
        // nothing judged is no pass: exit 4, inconclusive
        assertThat(o.exit()).as(o.err()).isEqualTo(PrismCommand.EXIT_INCONCLUSIVE);
        assertThat(o.out()).contains(" p99 ").contains("n/a (1 rep; need ≥ 3)").doesNotContain(" same")
                .contains("outcome: INCONCLUSIVE (0 of ");
        Path thrice = run("thrice", "-p", "files=200");
        Cli.Outcome judged = prism("compare", thrice.toString(), thrice.toString(), "--threshold", "10,p99=25");
        assertThat(judged.out()).containsPattern("create_files +1 +create +p99 +3/3 .* (same|inconclusive)\n")
                .contains("mean 10%, p99 25%, p99.9 10%");
        assertThat(prism("compare", thrice.toString(), thrice.toString(), "--threshold", "p98=5").err())
                .contains("'p98'").doesNotContain("Exception");
        assertThat(prism("compare", thrice.toString(), thrice.toString(), "--threshold", "ten").exit()).isEqualTo(2);
        Cli.Outcome rates = prism("compare", thrice.toString(), thrice.toString(), "--stats", "ops/s,max");
        assertThat(rates.out()).contains(" ops/s ").contains(" max ").doesNotContain(" p99 ");
    }

    @Test
    void compare_namesATailRegression_injectedIntoTwoPercentOfCreates() throws Exception {
        try (dev.prism.testing.FaultFs fs = dev.prism.testing.FaultFs.mount(Files.createDirectories(work.resolve("fault")))) {
            String[] args = {"run", "create_files", "--target", fs.mountPoint().toString(), "-p", "files=500", "--reps", "5",
                    "-q", "--out", work.resolve("out").toString(), "--run-id"};
            Cli.Outcome base = prism(concat(args, "base"));
            assertThat(base.exit()).as(base.err()).isZero();
            // files 49, 99, 149, …: 2% of the creates take 30 ms more — far beyond what a loaded machine's own tail reaches
            fs.rule("create", "*/file-*[49]9.dat", java.time.Duration.ofMillis(30), null);
            Cli.Outcome slow = prism(concat(args, "slow"));
            assertThat(slow.exit()).as(slow.err()).isZero();
            Cli.Outcome c = prism("compare", work.resolve("out/base").toString(), work.resolve("out/slow").toString());
            assertThat(c.exit()).as(c.out()).isEqualTo(1);
            assertThat(c.out()).containsPattern("create_files +1 +create +p99 +5/5 .* REGRESSION p99\n");
            // the observer: the injected delay puts the candidate's p99 at 30 ms or more, the baseline's well below
            dev.prism.Measurement before = dev.prism.Results.load(work.resolve("out/base")).get(0).measurement("create");
            dev.prism.Measurement after = dev.prism.Results.load(work.resolve("out/slow")).get(0).measurement("create");
            assertThat(after.p99Nanos()).isGreaterThanOrEqualTo(30_000_000L);
            assertThat(before.p99Nanos()).isLessThan(30_000_000L);
        }
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void compare_pairsAnAOverBRunIgnoringOneParameter() {
        Path a = run("native", "-p", "files=200", "-p", "access=native");
        Path b = run("nio", "-p", "files=200", "-p", "access=nio");
        Cli.Outcome unpaired = prism("compare", a.toString(), b.toString());
        assertThat(unpaired.exit()).isEqualTo(2);
        assertThat(unpaired.err()).contains("share no benchmark").contains("differ in access")
                .contains("--pair-ignoring access");
        Cli.Outcome paired = prism("compare", a.toString(), b.toString(), "--pair-ignoring", "access");
        assertThat(paired.exit()).as(paired.err()).isIn(0, 1, PrismCommand.EXIT_INCONCLUSIVE);
        assertThat(paired.out()).contains("paired on").contains("access=native→nio").contains("create");
        assertThat(prism("compare", a.toString(), b.toString(), "--pair-ignoring", "acces").err())
                .contains("no run has a parameter 'acces'");
        Cli.Outcome report = prism("report", "native=" + a, "nio=" + b, "--pair-ignoring", "access", "-o",
                work.resolve("ab.html").toString());
        assertThat(report.exit()).as(report.err()).isZero();
    }

    @Test
    void aTwoValueSweep_isTwoConfigurationsInResultsTableCompareAndReport() throws IOException {
        Path swept = run("swept", "-p", "files=50,120");
        try (var docs = Files.list(swept)) {
            assertThat(docs.map(d -> d.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList())
                    .containsExactly("01-create_files-t1.json", "02-create_files-t1.json");
        }
        assertThat(dev.prism.Results.load(swept)).extracting(r -> r.parameters().get("files")).containsExactly("50", "120");
        Cli.Outcome table = prism("run", "create_files", "--target", work.toString(), "-p", "files=50,120", "-q",
                "--out", work.resolve("out").toString());
        assertThat(table.out()).contains("create_files access=native files=50 ").contains("create_files access=native files=120 ");
        Cli.Outcome c = prism("compare", swept.toString(), swept.toString(), "--stats", "mean");
        assertThat(c.out()).contains("8 statistic(s) compared");
        Cli.Outcome report = prism("report", "a=" + swept, "-o", work.resolve("x.html").toString(), "--x", "files");
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(Files.readString(work.resolve("x.html"))).contains("\"axis\":\"files\"").contains("\"labels\":[\"50\",\"120\"]");
        assertThat(prism("report", "a=" + swept, "-o", work.resolve("y.html").toString(), "--x", "nope").err())
                .contains("no run has a parameter 'nope'");
        // a list parameter keeps its commas: one configuration
        Cli.Outcome list = prism("run", "create_dataset", "--target", work.toString(), "-p", "size_classes=8KiB,64KiB",
                "-p", "files_per_class=1", "-p", "total_size=1MiB", "-q", "--out", work.resolve("out").toString());
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out().lines().filter(l -> l.startsWith("create_dataset"))).hasSize(1);
        assertThat(prism("run", "create_files", "--target", work.toString(), "-p", "files=5,5").err()).contains("sweeps '5' twice");
    }

    /**
     * Timing-dependent: how soon a time-based run ends, and how many operations fit in it, depend on how late the
     * host runs a rank's thread. The bounds are relative to observers measured in the same test: the run's own
     * operations, a fixed-work run of the same benchmark (set-up and clean-up), and {@link SchedulingDelay}.
     */
    @Test
    @org.junit.jupiter.api.Tag("timing")
    void aTimeBasedRun_endsAfterItsDuration_withIntervalsInJsonLogAndReport() throws IOException {
        // the observer of set-up, rank start and clean-up: the same benchmark and tasks with a fixed amount of work
        long fixedBegin = System.nanoTime();
        Cli.Outcome fixed = prism("run", "open_contention", "--target", work.toString(), "--tasks", "2", "-q",
                "--out", work.resolve("out").toString(), "--run-id", "fixed");
        double fixedSeconds = (System.nanoTime() - fixedBegin) / 1e9;
        assertThat(fixed.exit()).as(fixed.err()).isZero();
        Cli.Outcome o;
        double seconds;
        SchedulingDelay delay;
        try (SchedulingDelay watching = SchedulingDelay.watch()) {
            delay = watching;
            long begin = System.nanoTime();
            o = prism("run", "open_contention", "--target", work.toString(), "--duration", "2s", "--ramp", "500ms",
                    "--interval", "500ms", "--tasks", "2", "-q", "--out", work.resolve("out").toString(), "--run-id", "timed");
            seconds = (System.nanoTime() - begin) / 1e9;
        }
        assertThat(o.exit()).as(o.err()).isZero();
        double late = delay.longest().toNanos() / 1e9;
        dev.prism.RunResult run = dev.prism.Results.load(work.resolve("out/timed")).get(0);
        // the ramp and the duration, then no more than the fixed run's set-up and clean-up (twice over, as the two runs
        // meet the host at different moments) and the last operation
        double lastOp = run.measurement("open").maxNanos() / 1e9;
        assertThat(seconds).as("a 0.5 s ramp and 2 s of work, with set-up and clean-up (a fixed run took %.2f s)", fixedSeconds)
                .isBetween(2.5, 2.5 + 2 * fixedSeconds + lastOp + late);
        // the duration, the ramp left out: each rank stops within its operation under way at the end, and the host's
        // delay in running it before that operation and after it
        assertThat(run.repetitions().get(0).ranks()).allSatisfy(r -> assertThat(r.phaseNanos() / 1e9)
                .as("rank %d's phase (its longest open %.3f s, the host's longest delay %.3f s)", r.rank(),
                        r.measurements().get("open").maxNanos() / 1e9, late)
                .isBetween(1.99, 2.0 + r.measurements().get("open").maxNanos() / 1e9 + 2 * late + 0.02));
        // an interval of 500 ms with no open ended in it needs an open, or the host's delay between two, that long
        assertThat(run.repetitions().get(0).intervals().get("open")).hasSize(4)
                .allSatisfy(m -> assertThat(m.count() > 0 || lastOp + late >= 0.5)
                        .as("an interval's %d opens (the longest open %.3f s, the host's longest delay %.3f s)", m.count(),
                                lastOp, late).isTrue());
        assertThat(Files.readString(work.resolve("out/timed/01-open_contention-t2.hlog"))).contains("Tag=rep1/open,1.500,0.500");
        Cli.Outcome report = prism("report", "timed=" + work.resolve("out/timed"), "-o", work.resolve("t.html").toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(Files.readString(work.resolve("t.html"))).contains("seconds into the timed phase").contains("\"timeline\":[{");
        Cli.Outcome refused = prism("run", "delete_files", "--target", work.toString(), "--duration", "2s");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("delete_files runs a fixed amount of work");
        // files moved over and back again until the time is up; arrivals at 200/s for 1 s
        Cli.Outcome more;
        try (SchedulingDelay watching = SchedulingDelay.watch()) {
            delay = watching;
            more = prism("run", "move_files", "create_synthetic_workload", "--target", work.toString(), "-p", "files=50",
                    "-p", "create_synthetic_workload.arrival=fixed", "--duration", "1s", "-q", "--out",
                    work.resolve("out").toString(), "--run-id", "timed2");
        }
        assertThat(more.exit()).as(more.err()).isZero();
        long lateNanos = delay.longest().toNanos();
        List<dev.prism.RunResult> runs = dev.prism.Results.load(work.resolve("out/timed2"));
        // more than two passes of 50, or as many renames as fit in the phase when each takes as long as the longest
        // one and waits as long as the host's longest delay before it
        dev.prism.RankResult mover = runs.get(0).repetitions().get(0).ranks().get(0);
        long fit = mover.phaseNanos() / (mover.measurements().get("rename").maxNanos() + lateNanos);
        assertThat(runs.get(0).measurement("rename").count()).as("renames, %d fitting the phase at worst", fit)
                .isGreaterThanOrEqualTo(Math.min(101, fit));
        // one arrival each 5 ms from the workload's start: never more than 1 s holds (and one at its edge), and fewer
        // only by the arrivals still waiting when the time ran out, which the last one served had waited for, and by
        // the host's delay in starting the workload once the phase began
        long waited = runs.get(1).measurement("response").maxNanos();
        assertThat(runs.get(1).measurement("service").count()).as("arrivals served (the latest waited %d µs)", waited / 1000)
                .isBetween(200L - (waited + lateNanos) / 5_000_000 - 2, 202L);
        assertThat(prism("run", "open_contention", "--target", work.toString(), "--ramp", "1s").err()).contains("needs a duration");
    }

    @Test
    void gate_setsTheExitCode_andBaselineComparesInTheSameRun() throws IOException {
        Path a = run("base");
        Path pass = Files.writeString(work.resolve("pass.json"),
                "{\"expectations\":[{\"benchmark\":\"create_files\",\"op\":\"create\",\"stat\":\"p99\",\"below\":\"10s\"}]}");
        Path fail = Files.writeString(work.resolve("fail.json"),
                "{\"expectations\":[{\"benchmark\":\"create_files\",\"op\":\"create\",\"stat\":\"p50\",\"below\":\"1ns\"}]}");
        Cli.Outcome ok = prism("run", "create_files", "--target", work.toString(), "-p", "files=50", "--reps", "3", "-q",
                "--out", work.resolve("out").toString(), "--gate", pass.toString(), "--baseline", a.toString());
        assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("gate PASSED").contains("regression(s)");
        Cli.Outcome bad = prism("run", "create_files", "--target", work.toString(), "-p", "files=50", "-q",
                "--out", work.resolve("out").toString(), "--gate", fail.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("gate FAILED").contains("is not below 1 ns");
        assertThat(prism("run", "create_files", "--target", work.toString(), "--gate", work.resolve("none.json").toString()).exit())
                .isEqualTo(2);
    }

    @Test
    void aGateNamingWhatTheRunWillNotProduce_isAUsageError_beforeAnyWork() throws IOException {
        Path target = Files.createDirectories(work.resolve("gated"));
        Path out = work.resolve("gated-out");
        Path benchmark = Files.writeString(work.resolve("typo1.json"),
                "{\"expectations\":[{\"benchmark\":\"create_file\",\"op\":\"create\",\"stat\":\"p99\",\"below\":\"10s\"}]}");
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "--out", out.toString(), "--gate",
                benchmark.toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err().strip()).contains("names benchmark 'create_file', which this run does not include; it runs create_files")
                .hasLineCount(1);
        Path operation = Files.writeString(work.resolve("typo2.json"),
                "{\"expectations\":[{\"benchmark\":\"create_files\",\"op\":\"crate\",\"stat\":\"p99\",\"below\":\"10s\"}]}");
        Cli.Outcome op = prism("run", "create_files", "--target", target.toString(), "--out", out.toString(), "--gate",
                operation.toString());
        assertThat(op.exit()).isEqualTo(2);
        assertThat(op.err()).contains("names operation 'crate', which create_files does not measure; it measures close, create,"
                + " drop_cache, fsync, open, write");
        Path tasks = Files.writeString(work.resolve("typo3.json"), "{\"expectations\":[{\"benchmark\":\"create_files\","
                + "\"tasks\":4,\"op\":\"create\",\"stat\":\"p99\",\"below\":\"10s\"}]}");
        assertThat(prism("run", "create_files", "--target", target.toString(), "--out", out.toString(), "--gate",
                tasks.toString()).err()).contains("names 4 task(s); this run uses 1");
        // nothing ran: no run directory was made, no result written
        assertThat(target).isEmptyDirectory();
        assertThat(out).doesNotExist();
    }

    @Test
    void report_writesHtmlCsvAndHistogramLog() throws IOException {
        Path a = run("one");
        Path b = run("two");
        Cli.Outcome o = prism("report", "before=" + a, "after=" + b, "-o", work.resolve("r.html").toString(),
                "--csv", work.resolve("r.csv").toString(), "--hdr-log", work.resolve("r.hlog").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(Files.readString(work.resolve("r.html"))).contains("new Chart(canvas").contains("before").doesNotContain("<script src=")
                .contains("Summary against before");
        assertThat(Files.readAllLines(work.resolve("r.csv"))).hasSize(1 + 2 * 4).anySatisfy(l -> assertThat(l).startsWith("\"after\""));
        assertThat(Files.readString(work.resolve("r.hlog"))).contains("Tag=before/create_files/t1/create");
        assertThat(prism("report", "x=" + a, "x=" + b, "-o", work.resolve("r2.html").toString()).exit()).isEqualTo(2);
    }
}
