package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the real {@code ./prism} script and shaded jar as a user would, in a separate process. */
class PrismScriptIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();

    record Outcome(int exit, String out, String err) {
    }

    private static Outcome prism(Path workDir, String... args) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile("prism-out", ".txt");
        Path stderr = Files.createTempFile("prism-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of(SCRIPT.toString())));
            pb.command().addAll(List.of(args));
            pb.directory(workDir.toFile()).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
            Process process = pb.start();
            assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("prism finished").isTrue();
            return new Outcome(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    @Test
    void rootTarget_exitsTwoWithAClearMessage(@TempDir Path work) throws Exception {
        Outcome o = prism(work, "run", "create_files", "--target", "/");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("target / is the root directory").doesNotContain("Exception");
    }

    @Test
    void suiteQuick_printsALatencyTableAndWritesJson(@TempDir Path work) throws Exception {
        Outcome o = prism(work, "suite", "quick");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("create_files").contains("p99").contains("open");
        assertThat(o.err()).contains("results: prism-results/");
        try (var runs = Files.list(work.resolve("prism-results"))) {
            Path run = runs.findFirst().orElseThrow();
            try (var docs = Files.list(run)) {
                // every quick-suite configuration at 1 and 2 tasks
                assertThat(docs.filter(p -> p.toString().endsWith(".json")).count())
                        .isEqualTo(2L * dev.prism.Suite.QUICK.benchmarks().size());
            }
        }
    }

    @Test
    void prismJsh_startsAnExploratoryJShellSession(@TempDir Path work) throws Exception {
        Path session = Files.writeString(work.resolve("session.jsh"), "var r = run(PosixBenchmarks.createFiles().files(50), Path.of(\""
                + work + "\"), 1, 2);\nSystem.out.println(\"passed=\" + r.passed());\n/exit\n");
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        Path root = SCRIPT.getParent();
        Process p = new ProcessBuilder(jshell.toString(), "--class-path", root.resolve("prism-cli/target/prism.jar").toString(),
                "--startup", "DEFAULT", "--startup", root.resolve("prism.jsh").toString(), session.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(out).contains("PRISM").contains("loaded").contains("create_files").contains("p99").contains("passed=true");
    }

    @Test
    void progressFrames_onlyWhenStderrIsATerminal(@TempDir Path work) throws Exception {
        // two seconds of work whatever the disk's speed, so the bar would be drawn after its first second
        String[] args = {"run", "create_files", "--target", work.toString(), "--duration", "2s",
                "--out", work.resolve("out").toString()};
        Outcome redirected = prism(work, args);
        assertThat(redirected.exit()).as(redirected.err()).isZero();
        assertThat(redirected.err()).doesNotContain("\r").contains("results: ");
        // script(1) gives the command a pseudo-terminal: there the bar is drawn
        Path log = work.resolve("tty.log");
        Process p = new ProcessBuilder("script", "-qec", SCRIPT + " " + String.join(" ", args), log.toString())
                .directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("\r[").contains("create_files tasks=1 rep");
    }

    /**
     * The command's JVM and every rank JVM map PRISM's class-data-sharing archive (the observer: each process's memory
     * map in /proc, read while a rank is known to be in its timed phase), and on a machine with a JDK 22 or later the
     * script runs it, so java.lang.foreign serves the libc calls (the result's notes say so).
     */
    @Test
    void theCommandAndItsRankJvms_mapTheClassArchive_onTheNewestJdk(@TempDir Path work) throws Exception {
        Process run = new ProcessBuilder(SCRIPT.toString(), "run", "create_files", "--target", work.toString(), "--duration", "4s",
                "--launcher", "processes", "--tasks", "2", "--reps", "1", "--warmups", "0", "-q", "--json",
                "--out", work.resolve("out").toString())
                .directory(work.toFile()).redirectOutput(work.resolve("out.json").toFile())
                .redirectError(work.resolve("err.txt").toFile()).start();
        try {
            ProcessHandle rank = dev.prism.testing.Await.value("a rank JVM of the run in its timed phase", () ->
                    run.descendants().filter(p -> p.info().commandLine().orElse("").contains("RankWorker"))
                            .filter(p -> anyRankFile(work)).findFirst());
            for (ProcessHandle jvm : List.of(run.toHandle(), rank)) {
                String maps = Files.readString(Path.of("/proc", String.valueOf(jvm.pid()), "maps"));
                assertThat(maps).as("the memory map of %s", jvm.info().commandLine().orElse("?")).contains(".jsa");
            }
            assertThat(run.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(run.exitValue()).as(Files.readString(work.resolve("err.txt"))).isZero();
        } finally {
            run.destroyForcibly();
        }
        String json = Files.readString(work.resolve("out.json"));
        boolean newJdk = dev.prism.testing.Jdks.newest(22).isPresent();
        assertThat(json).contains(newJdk ? "\"libc binding\" : \"java.lang.foreign (JDK " : "\"libc binding\" : \"JNA ");
        assertThat(Files.readString(work.resolve("err.txt"))).doesNotContain("WARNING").doesNotContain("cds");
    }

    /**
     * PRISM_JAVA_OPTS reaches the command's JVM and each rank JVM the processes launcher starts (as it reaches ranks
     * under SLURM, which run the script): the observer is the log file each JVM told {@code -Xlog:gc:file=…%p} writes.
     */
    @Test
    void theUsersJvmFlags_reachTheCommandAndEveryRankJvm(@TempDir Path work) throws Exception {
        Outcome trained = prismWith(work, java.util.Map.of(), "--version"); // any class-archive training happens here
        assertThat(trained.exit()).as(trained.err()).isZero();
        Path logs = Files.createDirectory(work.resolve("jvm-logs"));
        Outcome o = prismWith(work, java.util.Map.of("PRISM_JAVA_OPTS", "-Xlog:gc:file=" + logs + "/jvm-%p.log"),
                "run", "create_files", "-p", "files=20", "--target", Files.createDirectory(work.resolve("t")).toString(),
                "--launcher", "processes", "--tasks", "2", "--reps", "1", "--warmups", "0", "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        try (var written = Files.list(logs)) {
            // the command, the run's process it supervises, and the run's two ranks
            assertThat(written).as("one log per JVM").hasSize(4);
        }
    }

    /**
     * The JVM's own warnings go to stderr, never into --json on stdout (a "[0.012s][warning]…" line from one of a SLURM
     * step's JVMs once made the step's JSON unreadable). The observer that the JVMs did warn: the warning on stderr.
     * Every JVM of the run warns, on any machine: a log selection no tag set matches is a unified-logging warning,
     * written to stdout unless PRISM's own options, parsed before the user's, sent warnings to stderr.
     */
    @Test
    void theJvmsOwnWarnings_goToStderr_andStdoutStaysJson(@TempDir Path work) throws Exception {
        Outcome o = prismWith(work, java.util.Map.of("PRISM_JAVA_OPTS", "-Xlog:exceptions+jni=info"),
                "run", "create_files", "-p", "files=20", "--target", Files.createDirectory(work.resolve("t")).toString(),
                "--reps", "1", "--warmups", "0", "--json", "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.err()).as("the JVM warned").contains("[warning][logging] No tag set matches selection: exceptions+jni");
        com.fasterxml.jackson.databind.JsonNode runs = new com.fasterxml.jackson.databind.ObjectMapper().readTree(o.out());
        assertThat(runs.get(0).at("/status").asText()).as(o.out()).isEqualTo("PASS");
    }

    /** @return what {@code ./prism args…} did in {@code workDir} with {@code env} added to its environment */
    private static Outcome prismWith(Path workDir, java.util.Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of(SCRIPT.toString())));
        pb.command().addAll(List.of(args));
        pb.environment().putAll(env);
        pb.directory(workDir.toFile()).redirectOutput(workDir.resolve("stdout.txt").toFile())
                .redirectError(workDir.resolve("stderr.txt").toFile());
        Process process = pb.start();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("prism finished").isTrue();
        return new Outcome(process.exitValue(), Files.readString(workDir.resolve("stdout.txt")),
                Files.readString(workDir.resolve("stderr.txt")));
    }

    /** @return the class archive ./prism keeps for {@code java} (named after its resolved path) */
    private static Path archiveOf(Path java) throws IOException {
        String resolved = java.toRealPath().toString().replaceAll("[^A-Za-z0-9.]", "-");
        return SCRIPT.getParent().resolve("prism-cli/target/prism-classes" + resolved + ".jsa");
    }

    /**
     * On JDK 17, whose dynamic archive dump crashes the JVM (Debian's 17.0.15), the script builds a static archive
     * instead; the observer is -Xshare:on, with which a JVM refuses to start unless the archive maps. No crash report
     * lands in the directory prism was started from.
     */
    @Test
    void onJdk17_theClassArchiveIsBuiltAndMaps_andNothingIsLeftInTheUsersDirectory(@TempDir Path work) throws Exception {
        Path java17 = dev.prism.testing.Jdks.between(17, 18).orElseThrow(() -> new AssertionError("no JDK 17 under /usr/lib/jvm"));
        Path archive = archiveOf(java17);
        Files.deleteIfExists(archive);
        Files.deleteIfExists(Path.of(archive + ".failed"));
        Outcome first = prismWith(work, java.util.Map.of("PRISM_JAVA", java17.toString()), "--version");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(archive).isNotEmptyFile();
        Outcome mapped = prismWith(work, java.util.Map.of("PRISM_JAVA", java17.toString(), "PRISM_JAVA_OPTS", "-Xshare:on"),
                "list");
        assertThat(mapped.exit()).as(mapped.err()).isZero();
        assertThat(mapped.out()).contains("create_files");
        try (var left = Files.list(work)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("stdout.txt", "stderr.txt");
        }
    }

    /**
     * A JDK whose archive dump fails (here a wrapper that dies as a crashing dump would) costs one try per build: the
     * script marks the failure and later starts go without an archive, instead of paying the training every time.
     */
    @Test
    void aFailedArchiveTraining_isNotRetriedAtEveryStart(@TempDir Path work) throws Exception {
        Path java17 = dev.prism.testing.Jdks.between(17, 18).orElseThrow(() -> new AssertionError("no JDK 17 under /usr/lib/jvm"));
        Path calls = work.resolve("dump-calls");
        Path wrapper = work.resolve("jdk/bin/java");
        Files.createDirectories(wrapper.getParent());
        Files.writeString(wrapper, "#!/bin/sh\ncase \"$*\" in *-Xshare:dump*) echo dump >> " + calls + "; kill -ABRT $$;; esac\n"
                + "exec " + java17 + " \"$@\"\n");
        wrapper.toFile().setExecutable(true);
        Path archive = archiveOf(wrapper);
        Path run = Files.createDirectories(work.resolve("cwd"));
        try {
            for (int i = 0; i < 3; i++) {
                Outcome o = prismWith(run, java.util.Map.of("PRISM_JAVA", wrapper.toString()), "--version");
                assertThat(o.exit()).as(o.err()).isZero();
                assertThat(o.out()).startsWith("prism ");
            }
            assertThat(Files.readAllLines(calls)).as("dumps tried over three starts").hasSize(1);
            assertThat(archive).doesNotExist();
            assertThat(Path.of(archive + ".failed")).exists();
            try (var left = Files.list(run)) {
                assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("stdout.txt", "stderr.txt");
            }
        } finally {
            Files.deleteIfExists(archive);
            Files.deleteIfExists(Path.of(archive + ".failed"));
        }
    }

    /** @return whether a rank has created a file of its timed phase (rank-N/, not rehearsal-N/) */
    private static boolean anyRankFile(Path target) {
        try (var files = Files.find(target, 4, (p, a) -> a.isRegularFile() && p.getParent().getFileName().toString().startsWith("rank-"))) {
            return files.findAny().isPresent();
        } catch (IOException | java.io.UncheckedIOException e) {
            return false; // a directory removed while it was walked: not yet, or no longer
        }
    }

    @Test
    void help_andVersion_work(@TempDir Path work) throws Exception {
        assertThat(prism(work, "--help").out()).contains("list").contains("describe").contains("run").contains("suite");
        assertThat(prism(work, "--version").out()).contains("prism 0.2.0");
    }

    @Test
    void manyStartsAfterASourceChange_buildOnceUnderALock_andAllRun(@TempDir Path work) throws Exception {
        // as 'srun -n 64 ./prism …' after an edit: the jar is older than a source
        Path source = SCRIPT.getParent().resolve("prism-cli/src/main/java/dev/prism/cli/PrismCommand.java");
        Files.setLastModifiedTime(source, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
        List<Process> starts = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starts.add(new ProcessBuilder(SCRIPT.toString(), "--version").directory(work.toFile())
                    .redirectOutput(work.resolve("out-" + i).toFile()).redirectError(work.resolve("err-" + i).toFile()).start());
        }
        int builds = 0;
        for (int i = 0; i < 4; i++) {
            assertThat(starts.get(i).waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(starts.get(i).exitValue()).as(Files.readString(work.resolve("err-" + i))).isZero();
            assertThat(Files.readString(work.resolve("out-" + i))).startsWith("prism ");
            builds += Files.readString(work.resolve("err-" + i)).contains("prism: building") ? 1 : 0;
        }
        assertThat(builds).isEqualTo(1);
    }
}
