package dev.prism.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PRISM as a user's infra tool meets it: a separate Maven project that depends on the installed artifacts, with a
 * benchmark written in Java (a workload class, no provider file), run by {@code mvn exec:java} — where PRISM is loaded
 * by Maven's class loader, not the JVM's class path — under the processes launcher, beside a built-in benchmark. Before
 * issue 40 the rank JVMs were started with {@code java.class.path} (Maven's launcher jar) and could not find
 * {@code RankWorker}, and a lambda benchmark could not cross processes at all. The same project holds the storage
 * acceptance test a team writes with {@code prism-junit} and a gate on the benchmark itself, run by surefire in the same
 * {@code mvn} (offline: nothing is fetched).
 */
class ConsumerProjectTest {
    private static final String POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.example</groupId>
              <artifactId>storage-tool</artifactId>
              <version>1</version>
              <properties>
                <maven.compiler.release>17</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <dependencies>
                <dependency>
                  <groupId>dev.prism</groupId>
                  <artifactId>prism-posix</artifactId>
                  <version>VERSION</version>
                </dependency>
                <dependency>
                  <groupId>dev.prism</groupId>
                  <artifactId>prism-report</artifactId>
                  <version>VERSION</version>
                  <scope>test</scope>
                </dependency>
                <dependency>
                  <groupId>dev.prism</groupId>
                  <artifactId>prism-junit</artifactId>
                  <version>VERSION</version>
                  <scope>test</scope>
                </dependency>
                <dependency>
                  <groupId>org.junit.jupiter</groupId>
                  <artifactId>junit-jupiter</artifactId>
                  <version>JUNIT</version>
                  <scope>test</scope>
                </dependency>
              </dependencies>
              <build>
                <plugins>
                  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin>
                  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                  <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>EXEC</version></plugin>
                  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
                </plugins>
              </build>
            </project>
            """;

    private static final String MAIN = """
            package com.example;

            import dev.prism.Benchmark;
            import dev.prism.Launcher;
            import dev.prism.Parameter;
            import dev.prism.Parameters;
            import dev.prism.RankResult;
            import dev.prism.Scenario;
            import dev.prism.ScenarioResult;
            import dev.prism.Workload;
            import dev.prism.WorkloadContext;
            import dev.prism.posix.PosixBenchmarks;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.util.List;

            public class Main {
                public static final Parameter<Integer> FILES = Parameter.ofInt("files", 5, 1, 1000, "files", "files a rank creates");

                /** The tool's own benchmark, written in Java */
                public static class Touch implements Workload {
                    @Override
                    public void run(WorkloadContext ctx) throws Exception {
                        for (int i = 0; i < ctx.parameters().get(FILES); i++) {
                            Path f = ctx.workDirectory().resolve("f" + i);
                            try (var t = ctx.time("create", f)) {
                                Files.createFile(f);
                            }
                        }
                        ctx.note("pid", String.valueOf(ProcessHandle.current().pid()));
                    }
                }

                public static void main(String[] args) {
                    Benchmark touch = Benchmark.builder("touch").parameters(Parameters.defaults(List.of(FILES)).with(FILES, 6))
                            .workload(Touch.class).build();
                    ScenarioResult result = Scenario.builder().target(Path.of(args[0]))
                            .benchmarks(List.of(PosixBenchmarks.listFiles().files(20), touch))
                            .tasks(2).repetitions(1).warmups(0).launcher(Launcher.processes()).build().execute();
                    System.out.println("passed=" + result.passed() + " " + result.failures());
                    System.out.println("creates=" + result.run("touch", 2).measurement("create").count());
                    for (RankResult r : result.run("touch", 2).repetitions().get(0).ranks()) {
                        System.out.println("rank " + r.rank() + " pid=" + r.notes().get("pid"));
                    }
                    System.out.println("driver pid=" + ProcessHandle.current().pid());
                    System.exit(result.passed() ? 0 : 1);
                }
            }
            """;

    /** The tool's acceptance test, as a team writes one: a target from the extension, a gate on the benchmark itself. */
    private static final String ACCEPTANCE_TEST = """
            package com.example;

            import dev.prism.Scenario;
            import dev.prism.ScenarioResult;
            import dev.prism.junit.PrismTarget;
            import dev.prism.junit.PrismTargetExtension;
            import dev.prism.posix.PosixBenchmarks;
            import dev.prism.posix.metadata.CreateFiles;
            import dev.prism.report.Gate;
            import java.nio.file.Path;
            import java.time.Duration;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.extension.ExtendWith;

            @ExtendWith(PrismTargetExtension.class)
            class StorageAcceptanceTest {
                @Test
                void createsMeetTheGate(@PrismTarget Path target) {
                    CreateFiles creates = PosixBenchmarks.createFiles().files(50);
                    ScenarioResult result = Scenario.builder().target(target).benchmark(creates).build().execute();
                    Gate.of(Gate.expect(creates).op(CreateFiles.OP_CREATE).p99().below(Duration.ofSeconds(30)))
                            .evaluate(result.runs()).assertPassed();
                }
            }
            """;

    @Test
    void aJavaWrittenBenchmark_runsUnderExecJava_withTheProcessesLauncher_andAnAcceptanceTestUnderJUnit(@TempDir Path work)
            throws Exception {
        Path project = Files.createDirectories(work.resolve("storage-tool"));
        Path target = Files.createDirectories(work.resolve("target-dir"));
        String version = dev.prism.HostInfo.current().prismVersion();
        Files.writeString(project.resolve("pom.xml"), POM.replace("VERSION", version)
                .replace("JUNIT", org.junit.jupiter.api.Test.class.getPackage().getImplementationVersion())
                // the version scripts/test.sh fetched: one property of PRISM's root pom, handed over by surefire
                .replace("EXEC", java.util.Objects.requireNonNull(System.getProperty("prism.test.execPluginVersion"),
                        "system property prism.test.execPluginVersion (set by the root pom's surefire configuration)")));
        Path source = Files.createDirectories(project.resolve("src/main/java/com/example")).resolve("Main.java");
        Files.writeString(source, MAIN);
        Files.writeString(Files.createDirectories(project.resolve("src/test/java/com/example"))
                .resolve("StorageAcceptanceTest.java"), ACCEPTANCE_TEST);

        // offline: everything it needs is what PRISM's own build installed and used, and exec-maven-plugin, which
        // scripts/test.sh fetches (a clean ~/.m2 has no 'exec' prefix otherwise); nothing is fetched or written
        // to the local repository beyond what Maven records of a build
        Process mvn = new ProcessBuilder("mvn", "-o", "-B", "-q", "-Dstyle.color=never", "test", "exec:java",
                "-Dexec.mainClass=com.example.Main", "-Dexec.args=" + target)
                .directory(project.toFile()).redirectErrorStream(true).start();
        String out = new String(mvn.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(mvn.waitFor(5, TimeUnit.MINUTES)).as("mvn ended").isTrue();
        assertThat(mvn.exitValue()).as(out).isZero();
        assertThat(out).contains("passed=true []").contains("creates=12");
        List<String> pids = out.lines().filter(l -> l.startsWith("rank ")).map(l -> l.replaceFirst(".*pid=", "")).toList();
        String driver = out.lines().filter(l -> l.startsWith("driver pid=")).findFirst().orElseThrow().substring(11);
        // each rank in a JVM of its own, none of them the exec:java JVM
        assertThat(pids).hasSize(2).doesNotHaveDuplicates().doesNotContain("null", driver);
        assertThat(leftIn(target)).as("what the run left in the target").isEmpty();
        // the acceptance test ran and passed, as surefire reports it
        String report = Files.readString(project.resolve("target/surefire-reports/TEST-com.example.StorageAcceptanceTest.xml"));
        assertThat(report).contains("tests=\"1\"").contains("failures=\"0\"").contains("errors=\"0\"")
                .contains("testcase name=\"createsMeetTheGate(Path)\"");
    }

    private static List<Path> leftIn(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.toList();
        }
    }
}
