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
 * {@code RankWorker}, and a lambda benchmark could not cross processes at all.
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
              </dependencies>
              <build>
                <plugins>
                  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin>
                  <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                  <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.5.0</version></plugin>
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

    @Test
    void aJavaWrittenBenchmark_runsUnderExecJava_withTheProcessesLauncher(@TempDir Path work) throws Exception {
        Path project = Files.createDirectories(work.resolve("storage-tool"));
        Path target = Files.createDirectories(work.resolve("target-dir"));
        String version = dev.prism.HostInfo.current().prismVersion();
        Files.writeString(project.resolve("pom.xml"), POM.replace("VERSION", version));
        Path source = Files.createDirectories(project.resolve("src/main/java/com/example")).resolve("Main.java");
        Files.writeString(source, MAIN);

        Process mvn = new ProcessBuilder("mvn", "-B", "-q", "-Dstyle.color=never", "compile", "exec:java",
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
    }

    private static List<Path> leftIn(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.toList();
        }
    }
}
