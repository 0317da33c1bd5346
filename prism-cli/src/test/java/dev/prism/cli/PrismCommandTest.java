package dev.prism.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Suite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

class PrismCommandTest {
    @TempDir
    Path target;
    @TempDir
    Path out;



    @Test
    void list_showsBenchmarksAndSuites() {
        Cli.Outcome o = prism("list");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("create_files").contains("quick");
    }

    @Test
    void aVerdictFile_holdsOneVerdict_andNeedsOne() {
        Path junit = target.resolve("verdict.xml");
        // the scorecard and a gate would both write it: refused before any work, where one overwrote the other
        Cli.Outcome both = prism("qualify", "--profile", "home", "--target", target.toString(), "--gate",
                target.resolve("gate.json").toString(), "--junit", junit.toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--junit holds one verdict, and here both the scorecard and --gate would write it");
        // and with no verdict to write, it is refused too, in run, suite and gate alike
        assertThat(prism("run", "create_files", "--target", target.toString(), "--markdown", junit.toString()).err())
                .contains("--markdown writes a gate's verdict; give the expectations with --gate FILE");
        assertThat(prism("gate", target.resolve("none.json").toString(), target.toString()).err())
                .contains("gate file " + target.resolve("none.json") + " does not exist");
        assertThat(junit).doesNotExist();
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(target)) {
            assertThat(left).noneMatch(p -> p.getFileName().toString().startsWith("prism-"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void torchNodes_mustDivideEveryTaskCount() {
        Cli.Outcome o = prism("run", "ddp_save", "--target", target.toString(), "--torch-nodes", "2", "--tasks", "2,3");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("nodes 2: torchrun runs the same number of ranks on each node, so the task count"
                + " must be a multiple of 2, was 3");
        assertThat(prism("run", "ddp_save", "--target", target.toString(), "--torch-nodes", "0").err())
                .contains("--torch-nodes must be in 1..100000, was 0");
        // it is the torch benchmarks' own parameter: the same check through -p, and nothing else takes it
        assertThat(prism("run", "ddp_save", "--target", target.toString(), "-p", "nodes=2", "--tasks", "3").err())
                .contains("must be a multiple of 2, was 3");
        assertThat(prism("run", "create_files", "--target", target.toString(), "--torch-nodes", "2").err())
                .contains("--torch-nodes spreads torch benchmarks over nodes; none of create_files is one");
        assertThat(prism("run", "ddp_save", "--target", target.toString(), "--torch-nodes", "2", "-p", "nodes=2").err())
                .contains("--torch-nodes 2 and -p nodes say the same; give one of them");
    }

    /**
     * A command line gets only the subcommand it names (picocli reads each one's annotations when it is added, most of
     * a start), and help, a bare prism or a mistyped name get them all, so usage lists and suggestions stay whole.
     */
    @Test
    void aCommandLineBuildsOnlyTheSubcommandItNames_andHelpStillListsThemAll() {
        assertThat(PrismCommand.commandLine("list").getSubcommands()).containsOnlyKeys("list");
        assertThat(PrismCommand.commandLine("--verbose", "run", "create_files").getSubcommands()).containsOnlyKeys("run");
        assertThat(PrismCommand.commandLine("--version").getSubcommands()).isEmpty();
        List<String> all = List.of("list", "describe", "run", "suite", "sbatch", "compare", "gate", "history", "qualify",
                "report", "dataset", "merge", "help");
        assertThat(PrismCommand.commandLine().getSubcommands()).containsOnlyKeys(all);
        assertThat(PrismCommand.commandLine("help", "run").getSubcommands()).containsOnlyKeys(all);
        assertThat(PrismCommand.commandLine("--help").getSubcommands()).containsOnlyKeys(all);

        Cli.Outcome help = prism("--help");
        assertThat(help.exit()).isZero();
        all.forEach(name -> assertThat(help.out()).contains("  " + name + " "));
        assertThat(prism("help", "run").out()).contains("Usage: prism run");
        assertThat(prism("--version").out()).startsWith("prism ");
        Cli.Outcome typo = prism("lsit");
        assertThat(typo.exit()).isEqualTo(2);
        assertThat(typo.err()).contains("'lsit'").contains("prism --help");
        Cli.Outcome bare = prism();
        assertThat(bare.out()).contains("Usage: prism").contains("  qualify ");
    }

    /** Every error message ends with "Try 'prism <command> --help'": that advice must work. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"list", "describe", "run", "suite", "sbatch", "compare", "gate",
            "history", "qualify", "report", "dataset"})
    void everyCommand_answersHelp(String command) {
        // picocli warns on System.err, not on the command line's writer, when a description's % is not escaped
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        Cli.Outcome o;
        System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            o = prism(command, "--help");
        } finally {
            System.setErr(stderr);
        }
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.err() + warnings.toString(java.nio.charset.StandardCharsets.UTF_8)).as("what help printed on stderr").isEmpty();
        assertThat(o.out()).contains("Usage: prism " + command);
    }

    @Test
    void describe_showsParametersWithDefaultsAndRanges() {
        Cli.Outcome o = prism("describe", "create_files");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("files").contains("1000").contains("1..100000000").contains("per-rank|shared");
    }

    @Test
    void run_measuresWritesJsonAndPrintsTheTable() throws IOException {
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "--tasks", "1,2", "--reps", "2",
                "-p", "files=20", "-p", "create_files.file_size=1KiB", "--out", out.toString(), "--run-id", "cli", "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("create_files access=native files=20 file_size=1KiB")
                .contains("tasks").contains("op").contains("p99").contains("ops/s").contains("open").contains("close");
        List<Path> docs;
        try (Stream<Path> files = Files.list(out.resolve("cli"))) {
            docs = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        // and every rank's own document beside them
        assertThat(out.resolve("cli/02-create_files-t2/rep-1/rank-1.json")).exists();
        assertThat(docs).extracting(p -> p.getFileName().toString())
                .containsExactly("01-create_files-t1.json", "02-create_files-t2.json");
        JsonNode doc = new ObjectMapper().readTree(docs.get(1).toFile());
        assertThat(doc.at("/measurements/open/count").asLong()).isEqualTo(20 * 2 * 2);
    }

    @Test
    void json_printsAnArrayOfRunDocuments() throws IOException {
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "-p", "files=5",
                "--out", out.toString(), "--json", "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode docs = new ObjectMapper().readTree(o.out());
        assertThat(docs.isArray()).isTrue();
        assertThat(docs.get(0).get("schema").asText()).isEqualTo("prism.run/1");
    }

    @Test
    void access_isChosenWithAParameter_andEveryPosixBenchmarkIsListed() throws IOException {
        assertThat(prism("list").out()).contains("list_files", "move_files", "delete_files", "folder_bench",
                "open_contention", "link_lock");
        assertThat(prism("describe", "link_lock").out()).contains("access").contains("nio|native").contains("packages");
        Cli.Outcome o = prism("run", "list_files", "move_files", "--target", target.toString(), "-p", "files=10",
                "-p", "access=nio", "--json", "-q", "--out", out.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode docs = new ObjectMapper().readTree(o.out());
        assertThat(docs.get(0).at("/parameters/access").asText()).isEqualTo("nio");
        assertThat(docs.get(1).at("/measurements/rename/count").asLong()).isEqualTo(10);
    }

    @Test
    void launcherProcesses_runsRanksAsProcesses_andBadLaunchersAreUsageErrors() throws IOException {
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "--tasks", "2", "-p", "files=10",
                "--launcher", "processes", "--json", "-q", "--out", out.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(o.out()).get(0);
        assertThat(doc.get("launcher").asText()).isEqualTo("processes");
        assertThat(doc.at("/measurements/open/count").asLong()).isEqualTo(20);
        Cli.Outcome bad = prism("run", "create_files", "--target", target.toString(), "--launcher", "mpi");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("'mpi' is not a launcher");
        Cli.Outcome noSlurm = prism("run", "create_files", "--target", target.toString(), "--launcher", "slurm");
        assertThat(noSlurm.exit()).isEqualTo(2);
        assertThat(noSlurm.err()).contains("SLURM_PROCID is not set");
    }

    @Test
    void sbatch_writesOneSrunStepPerTaskCount() {
        Cli.Outcome o = prism("sbatch", "--tasks", "1,4,16", "--nodes", "2", "--", "create_files", "--target", "/mnt/a b");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("#SBATCH --ntasks=16").contains("#SBATCH --nodes=2").contains("for n in 1 4 16; do")
                .contains("run create_files --target '/mnt/a b' --launcher slurm --tasks \"$n\"");
        assertThat(prism("sbatch", "--tasks", "2", "--time", "soon", "--", "create_files").exit()).isEqualTo(2);
    }

    @Test
    void sbatch_asksForTheOvercommitItsStepsUse_andWarnsAboutANodeLocalTargetAndAPrismOffTheSharedFilesystem()
            throws java.io.IOException {
        Cli.Outcome o = prism("sbatch", "--tasks", "16", "--nodes", "4", "--", "create_files", "--target", "/tmp/prism");
        assertThat(o.exit()).as(o.err()).isZero();
        // sbatch refuses 16 tasks on 4 small nodes unless the allocation itself overcommits
        assertThat(o.out()).contains("#SBATCH --ntasks=16").contains("#SBATCH --overcommit");
        assertThat(o.err()).contains("warning: the target /tmp/prism is node-local on most clusters");
        Cli.Outcome suite = prism("sbatch", "--suite", "quick", "--tasks", "4", "--", "--target", "/lustre/p");
        assertThat(suite.out()).contains("#SBATCH --overcommit");
        assertThat(suite.err()).doesNotContain("node-local");
        Cli.Outcome untargeted = prism("sbatch", "--tasks", "4", "--", "create_files");
        assertThat(untargeted.err()).contains("warning: no --target given");
        // a ./prism on this machine's own tmpfs: the nodes would not see it
        dev.prism.testing.Required.tmpfsAtDevShm();
        Path shm = Files.createTempDirectory(Path.of("/dev/shm"), "prism-script-");
        Path script = Files.writeString(shm.resolve("prism"), "#!/bin/sh\n");
        System.setProperty("prism.script", script.toString());
        try {
            Cli.Outcome local = prism("sbatch", "--tasks", "4", "--", "create_files", "--target", "/lustre/p");
            assertThat(local.err()).contains("PRISM at " + script + " is on tmpfs, a filesystem of this machine's own");
        } finally {
            System.clearProperty("prism.script");
            Files.delete(script);
            Files.delete(shm);
        }
    }

    @Test
    void sbatch_forASuite_writesOneRunPerConfigurationAndTaskCount() {
        Cli.Outcome o = prism("sbatch", "--suite", "standard", "--tasks", "2,4", "--nodes", "2", "--", "--target", "/mnt/a b");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).startsWith("#!/bin/bash").contains("#SBATCH --ntasks=4").contains("for n in 2 4; do")
                .contains("srun --ntasks=\"$n\" --overcommit --kill-on-bad-exit=0 \"$PRISM\" run create_files -p files=5000 --target '/mnt/a b'"
                        + " --launcher slurm --tasks \"$n\" --reps 3 --warmups 1 --run-id \"${SLURM_JOB_ID}-t$n-02\"")
                .contains("\"$PRISM\" run ddp_save --target '/mnt/a b' --tasks \"$n\" --torch-nodes 2 --reps 3 --warmups 1");
        assertThat(o.out().lines().filter(l -> l.contains("\"$PRISM\" run ")).count()).isEqualTo(Suite.STANDARD.plan().size());
        assertThat(prism("sbatch", "--suite", "standard", "--tasks", "3", "--nodes", "2", "--", "--target", "/x").err())
                .contains("multiples of 2");
        assertThat(prism("sbatch", "--tasks", "2").err()).contains("or give --suite NAME");
    }

    @Test
    void sbatch_forTorch_runsPrismOncePerCount_withOneAgentPerNode() {
        Cli.Outcome o = prism("sbatch", "--tasks", "8,16", "--nodes", "4", "--", "fsdp_save", "fsdp_load", "--target", "/lustre/p");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("#SBATCH --nodes=4").contains("#SBATCH --ntasks-per-node=1").doesNotContain("srun ")
                .contains("run fsdp_save fsdp_load --target /lustre/p --tasks \"$n\" --torch-nodes 4");
        Cli.Outcome uneven = prism("sbatch", "--tasks", "6", "--nodes", "4", "--", "ddp_save", "--target", "/l");
        assertThat(uneven.exit()).isEqualTo(2);
        assertThat(uneven.err()).contains("must be multiples of 4, was 6");
        Cli.Outcome mixed = prism("sbatch", "--tasks", "4", "--", "ddp_save", "create_files", "--target", "/l");
        assertThat(mixed.exit()).isEqualTo(2);
        assertThat(mixed.err()).contains("one sbatch script for each kind");
    }

    @Test
    void folderBenchTooLarge_isAUsageError() {
        Cli.Outcome o = prism("run", "folder_bench", "--target", target.toString(), "-p", "depth=20", "-p", "breadth=10");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("depth=20 and breadth=10").contains("lower depth or breadth");
    }

    @Test
    void rootTarget_exitsTwoWithOneLineAndNoStackTrace() {
        Cli.Outcome o = prism("run", "create_files", "--target", "/");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("root directory").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(o.err().strip().lines()).hasSize(1);
    }

    @Test
    void usageErrors_exitTwo() {
        assertThat(prism("run", "create_files", "--target", target.resolve("missing").toString()).err())
                .contains("does not exist");
        assertThat(prism("run", "create_files", "--target", target.resolve("missing").toString()).exit()).isEqualTo(2);
        Cli.Outcome unknown = prism("run", "create_filez", "--target", target.toString());
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown benchmark 'create_filez'").contains("create_files");
        Cli.Outcome badValue = prism("run", "create_files", "--target", target.toString(), "-p", "files=-3");
        assertThat(badValue.exit()).isEqualTo(2);
        assertThat(badValue.err()).contains("files must be in 1..100000000, was -3");
        Cli.Outcome badKey = prism("run", "create_files", "--target", target.toString(), "-p", "filez=3");
        assertThat(badKey.exit()).isEqualTo(2);
        assertThat(badKey.err()).contains("'filez'").contains("known: access, files");
        assertThat(prism("run", "create_files", "--target", target.toString(), "--tasks", "0").exit()).isEqualTo(2);
        assertThat(prism("run", "create_files", "--target", target.toString(), "--bogus").exit()).isEqualTo(2);
        assertThat(prism("run", "create_files", "--target", target.toString(), "--timeout", "soon").exit()).isEqualTo(2);
        assertThat(prism("suite", "enormous").err()).contains("unknown suite 'enormous'").contains("quick");
    }

    @Test
    void aRunThatCannotFitTheTarget_isRefusedWithExit2OnOneLine() {
        // 100M files of 64GiB cannot fit: refused before anything is written, as bad input
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "-p", "files=100000000",
                "-p", "file_size=64GiB", "--out", out.toString(), "-q");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err().strip().lines()).singleElement().asString()
                .startsWith("prism: create_files with 1 task(s) refused to start: files × file_size × tasks need");
    }

    @Test
    void failedRun_exitsOne() {
        // a second: the start-up's bounded storage calls (statfs, mkdir) fit, 3,000,000 creates do not
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--timeout", "1s", "--out", out.toString(), "-q");
        assertThat(o.exit()).isEqualTo(1);
        assertThat(o.err()).contains("FAIL create_files with 1 task(s): TIMEOUT");
    }

    @Test
    void suitePlan_listsEveryConfigurationWithoutRunningIt_torchIncluded() {
        Cli.Outcome standard = prism("suite", "standard", "--plan", "--target", target.toString());
        assertThat(standard.exit()).as(standard.err()).isZero();
        assertThat(standard.out()).contains("suite standard:").contains("needs: the JDK, Python with torch").contains("takes:")
                .containsPattern("tasks 1,2; 3 repetitions after 1 warm-up\\(s\\); \\d+ configurations")
                .contains("ddp_save").contains("fsdp_load").contains("rl_load").contains("fio").contains("env_create")
                .contains("md5_check").contains("create_files               files=5000 directory=shared");
        // scripts/test.sh makes the venv with torch: here nothing is left out
        assertThat(standard.out()).doesNotContain("   left out: ");
        assertThat(target).isEmptyDirectory();
        Cli.Outcome paper = prism("suite", "paper", "--plan", "--tasks", "8,64");
        assertThat(paper.out()).contains("tasks 8,64;").contains("model=gpt2 params=124000000")
                .contains("size_classes=32KiB files_per_class=800000").contains("layout=flat");
        assertThat(prism("list").out()).contains("standard").contains("paper").contains("needs:");
        assertThat(prism("suite", "quick", "--tasks", "0").err()).contains("tasks must each be in 1..100000, was 0");
    }

    @Test
    void suitePlans_sayWhatEachPresetWritesAndHolds_andThePaperSuiteHoldsItsSection4() {
        Cli.Outcome frontier = prism("suite", "frontier", "--plan");
        assertThat(frontier.exit()).as(frontier.err()).isZero();
        assertThat(frontier.out()).contains("tasks 8; 3 repetitions after 0 warm-up(s); 6 configurations")
                // MLPerf Storage v3's layouts; rank 0 of 405B at 8×32×2 holds the embedding and 4 of 126 layers,
                // an eighth (tp) of a half (dp) of 14.85 G parameters, 14 bytes each
                .contains("fsdp_load  model=llama3-405b tp=8 pp=32 dp=2 saves=10 loads=10 drop_cache=true")
                .contains("at 8 tasks: writes 193.7 GiB at its peak, holds 104.8 GiB of memory per node (ranks 0-7 of 512,"
                        + " llama3-405b tp=8 pp=32 dp=2: up to 12.1 GiB per rank (13.1 GiB of memory)")
                // the 8B job is whole at 8 tasks: MLPerf's own procedure, its 10 checkpoints all on the target
                .contains("fsdp_load  model=llama3-8b dp=8 saves=10 procedure=mlperf drop_cache=true\n"
                        + "                at 8 tasks: writes 1.0 TiB at its peak")
                .contains("ddp_load   model=llama3-70b tp=8 pp=4 dp=2 saves=10 loads=10 mmap=true drop_cache=true")
                .doesNotContain("create_files");
        // the 8B job has 8 ranks: at 16 tasks it is refused, saying why, and the plan goes on
        assertThat(prism("suite", "frontier", "--plan", "--tasks", "16").out())
                .contains("at 16 tasks: refused: ranks 0-15 are not all ranks of the 8-rank job tp=1 pp=1 dp=8");
        Cli.Outcome paper = prism("suite", "paper", "--plan");
        assertThat(paper.out()).contains("md5_check                  chunk_size=8KiB\n")
                .contains("md5_check                  chunk_size=8KiB cache=drop\n")
                .contains("md5_check                  order=random chunk_size=8KiB cache=drop\n")
                .contains("md5_check                  order=random chunk_size=32KiB cache=drop\n")
                .contains("git_status").contains("env_create").contains("env_activate")
                .contains("fsdp_load                  model=llama3-405b tp=8 pp=16 dp=4 drop_cache=true");
    }

    @Test
    void aPresetTheTargetCannotHold_isRefusedBeforeAnythingIsWritten_inPlainWords() {
        Cli.Outcome o = prism("run", "fsdp_save", "--target", target.toString(), "--tasks", "512",
                "-p", "model=llama3-405b", "-p", "tp=8", "-p", "pp=16", "-p", "dp=4");
        assertThat(o.exit()).isNotZero();
        assertThat(o.err()).contains("fsdp_save at 512 tasks (ranks 0-511 of 512, llama3-405b tp=8 pp=16 dp=4")
                .contains("needs 5.2 TiB on " + target).contains("free; nothing was written")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(target).isEmptyDirectory();
        assertThat(prism("run", "fsdp_save", "--target", target.toString(), "-p", "model=llama3-8b", "-p", "tp=16").err())
                .contains("fsdp_save at 1 task: tp=16 does not divide llama3-8b's 8 KV heads; nothing was written");
    }

    @Test
    void suiteQuick_againstAGivenTarget_passes() {
        Cli.Outcome o = prism("suite", "quick", "--target", target.toString(), "--out", out.toString(), "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("directory=per-rank").contains("directory=shared");
        assertThat(target).isEmptyDirectory();
    }

    @Test
    void javasViewOfAFailure_isShownOnlyWithVerbose() throws IOException {
        Path notAResult = Files.writeString(out.resolve("not-a-result.json"), "{}");
        Cli.Outcome plain = prism("compare", notAResult.toString(), notAResult.toString());
        assertThat(plain.exit()).isEqualTo(2);
        assertThat(plain.err().strip()).isEqualTo("prism: " + notAResult + " is not a prism.run/1 document");
        Cli.Outcome verbose = prism("compare", notAResult.toString(), notAResult.toString(), "--verbose");
        assertThat(verbose.exit()).isEqualTo(2);
        assertThat(verbose.err()).contains("java.lang.IllegalArgumentException").contains("\tat dev.prism.");
        assertThat(prism("compare", notAResult.toString(), notAResult.toString()).err()).doesNotContain("\tat ");
    }

    @Test
    void continueOnError_countsFailedOperationsPerErrno_andTheRunPasses() throws Exception {
        try (dev.prism.testing.FaultFs fs = dev.prism.testing.FaultFs.mount(target)) {
            // files 7, 17, …, 97 of each repetition: 10 of 100 creates fail with EIO, every time
            fs.rule("create", "*/file-*7.dat", java.time.Duration.ZERO, "EIO");
            String[] args = {"run", "create_files", "--target", fs.mountPoint().toString(), "-p", "files=100", "--reps", "2",
                    "--out", out.toString(), "-q"};
            Cli.Outcome strict = prism(args);
            assertThat(strict.exit()).isEqualTo(1);
            assertThat(strict.err()).contains("FAIL").contains("EIO");
            String[] continuing = java.util.Arrays.copyOf(args, args.length + 3);
            continuing[args.length] = "--continue-on-error";
            continuing[args.length + 1] = "--run-id";
            continuing[args.length + 2] = "flaky";
            Cli.Outcome o = prism(continuing);
            assertThat(o.exit()).as(o.err()).isZero();
            // the table: an errors column, and the counter per repetition
            assertThat(o.out()).containsPattern("create +180 +20 ").contains("errors:create:EIO=10");
            dev.prism.RunResult run = dev.prism.Results.load(out.resolve("flaky")).get(0);
            assertThat(run.passed()).isTrue();
            assertThat(run.measurement("create").errors()).isEqualTo(20);
            assertThat(run.measurement("create").count()).isEqualTo(180);
            assertThat(run.repetitions()).allSatisfy(rep -> assertThat(rep.counters()).containsEntry("errors:create:EIO", 10L));
            // the observer: faultfs served every create it was asked for, the 20 it failed among them
            assertThat(fs.log().stream().filter(l -> l.startsWith("create ") && l.matches(".*/file-\\d*7\\.dat")).count())
                    .isGreaterThanOrEqualTo(20);
        }
    }

    @Test
    void aCleanUpError_isSaidAfterTheResults_withExit3() throws Exception {
        try (dev.prism.testing.FaultFs fs = dev.prism.testing.FaultFs.mount(target)) {
            fs.rule("unlink", "/prism-eio/rank-0/file-3.dat", java.time.Duration.ZERO, "EIO");
            Cli.Outcome o = prism("run", "create_files", "--target", fs.mountPoint().toString(), "-p", "files=10",
                    "--run-id", "eio", "--out", out.toString(), "-q");
            assertThat(o.exit()).as(o.err()).isEqualTo(3);
            assertThat(o.out()).contains("create_files").contains("open"); // the results, in full
            assertThat(o.err().strip().lines().reduce((a, b) -> b).orElseThrow())
                    .startsWith("prism: clean-up left files in the target: 3 entries could not be removed from")
                    .contains("unlinkat(\"" + fs.mountPoint().resolve("prism-eio/rank-0/file-3.dat") + "\"): Input/output error (EIO)");
            assertThat(out.resolve("eio/01-create_files-t1.json")).exists();
        }
    }

    @Test
    void continueOnError_coversAKeptDatasetsMissingFile_andTheUntimedProbeBeforeItNeverFailsTheRun() throws Exception {
        Path dataset = target.resolve("kept");
        Cli.Outcome made = prism("dataset", "create", dataset.toString(), "-p", "size_classes=8KiB", "-p", "files_per_class=6");
        assertThat(made.exit()).as(made.err()).isZero();
        Path gone;
        try (Stream<Path> files = Files.walk(dataset)) {
            gone = files.filter(p -> p.getFileName().toString().equals("file-000003.bin")).findFirst().orElseThrow();
        }
        Files.delete(gone);

        Cli.Outcome strict = prism("run", "md5_check", "-p", "dataset=" + dataset, "--target", target.toString(),
                "--reps", "1", "--warmups", "0", "--out", out.toString(), "-q");
        assertThat(strict.exit()).as(strict.err()).isEqualTo(1);
        // the timed read meets the missing file; the untimed probe before it is said apart, never the failure
        // the timed open is beneath the file's directory, held before the clock; the message names the whole path
        assertThat(strict.err()).contains("FAIL md5_check").containsPattern("openat\\(\\d+, \"" + java.util.regex.Pattern.quote(gone.toString()) + "\"").contains("ENOENT")
                .doesNotContain("\tat ");
        // two untimed steps meet it before the clock (finding it beneath its directory, probing its pages), said apart
        assertThat(strict.out()).contains("untimed_problems=\"2 untimed steps failed (the measurement is kept); the first:"
                + " finding " + gone + " before the timed pass");

        Cli.Outcome continuing = prism("run", "md5_check", "-p", "dataset=" + dataset, "--target", target.toString(),
                "--reps", "1", "--warmups", "0", "--continue-on-error", "--out", out.toString(), "-q");
        assertThat(continuing.exit()).as(continuing.err()).isZero();
        assertThat(continuing.out()).containsPattern("errors:(open|file):ENOENT=1").contains("files_read=5");
    }

    @Test
    void verbose_addsJavasStackTraceToARunFailure() throws Exception {
        Path dataset = Files.createDirectories(target.resolve("unreadable"));
        Files.writeString(dataset.resolve("a.bin"), "x");
        Files.writeString(dataset.resolve("manifest.json"), "not a manifest");
        String[] args = {"run", "md5_check", "-p", "dataset=" + dataset, "--target", target.toString(), "--reps", "1",
                "--warmups", "0", "--out", out.toString(), "-q"};
        Cli.Outcome plain = prism(args);
        assertThat(plain.exit()).isEqualTo(1);
        assertThat(plain.out() + plain.err()).doesNotContain("\tat ");
        String[] verbose = java.util.Arrays.copyOf(args, args.length + 1);
        verbose[args.length] = "--verbose";
        Cli.Outcome o = prism(verbose);
        assertThat(o.exit()).isEqualTo(1);
        assertThat(o.out() + o.err()).contains("\tat dev.prism.");
    }

    @Test
    void untimedCleanUpThatFails_neverHidesTheMeasurement_andIsSaidBesideIt() throws Exception {
        try (dev.prism.testing.FaultFs fs = dev.prism.testing.FaultFs.mount(target)) {
            fs.rule("rmdir", "*", java.time.Duration.ZERO, "EIO"); // every directory's removal fails
            Cli.Outcome o = prism("run", "create_files", "--target", fs.mountPoint().toString(), "-p", "files=50",
                    "--run-id", "rmdir", "--out", out.toString(), "-q");
            assertThat(o.exit()).as(o.err()).isEqualTo(3); // passed, but clean-up left files
            assertThat(o.out()).containsPattern("create +50 ").doesNotContain("FAIL")
                    .contains("untimed_problems=\"").contains("removing the rehearsal's scratch directory")
                    .contains("Input/output error (EIO)");
            assertThat(o.err()).contains("prism: clean-up left files in the target:");
            assertThat(dev.prism.Results.load(out.resolve("rmdir")).get(0).passed()).isTrue();
        }
    }

    @Test
    void aDurationInAMessage_readsAsTheUserWroteIt() {
        Cli.Outcome o = prism("run", "delete_files", "--target", target.toString(), "--duration", "5s", "-q");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("a duration of 5s needs benchmarks whose work is a loop").contains("time-based: create_files, create_synthetic_workload, list_files, md5_check, move_files, open_contention)").doesNotContain("PT5S");
    }

    @Test
    void aLinkPlantedAtTheRunsOutputDirectory_isRefusedBeforeAnyWork(@TempDir Path elsewhere) throws IOException {
        Files.createSymbolicLink(out.resolve("planted"), elsewhere);
        Cli.Outcome o = prism("run", "create_files", "--target", target.toString(), "--run-id", "planted",
                "--out", out.toString(), "-q");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err().strip()).isEqualTo("prism: --out " + out + " already holds planted (a symbolic link); choose another --run-id");
        try (Stream<Path> written = Files.list(elsewhere)) {
            assertThat(written).isEmpty();
        }
        try (Stream<Path> work = Files.list(target)) {
            assertThat(work).isEmpty();
        }
    }
}
