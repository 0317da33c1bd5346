package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A benchmark written in Java: set-up and teardown beside run, and a workload class every launcher can make again. */
class BenchmarkBuilderTest {
    /** Made by name, as ranks in other processes make it */
    public static final class Named implements Workload {
        @Override
        public void run(WorkloadContext ctx) {
            ctx.addCounter("ran", 1);
        }
    }

    static final class NotPublic implements Workload {
        @Override
        public void run(WorkloadContext ctx) {
        }
    }

    public static final class NoDefaultConstructor implements Workload {
        public NoDefaultConstructor(int x) {
        }

        @Override
        public void run(WorkloadContext ctx) {
        }
    }

    public final class Inner implements Workload {
        @Override
        public void run(WorkloadContext ctx) {
        }
    }

    @Test
    void setupAndTeardown_runAroundTheTimedPhase_withoutAWorkloadClass(@TempDir Path tmp) {
        List<String> order = new CopyOnWriteArrayList<>();
        Benchmark b = Benchmark.builder("phased")
                .setup(ctx -> {
                    order.add("setup");
                    Files.writeString(ctx.workDirectory().resolve("input"), "x");
                })
                .run(ctx -> {
                    order.add("run");
                    try (var t = ctx.time("read")) {
                        Files.readString(ctx.workDirectory().resolve("input"));
                    }
                })
                .teardown(ctx -> order.add("teardown"))
                .build();
        ScenarioResult result = Scenario.builder().target(tmp).benchmark(b).repetitions(1).warmups(0).build().execute();
        assertThat(result.passed()).as(result.failures().toString()).isTrue();
        assertThat(order).containsExactly("setup", "run", "teardown");
        assertThat(result.runs().get(0).measurement("read").count()).isEqualTo(1);
    }

    @Test
    void aWorkloadClassIsCheckedAtOnce_namingWhyRanksElsewhereCouldNotMakeIt() {
        assertThatThrownBy(() -> Benchmark.builder("x").workload(NotPublic.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NotPublic is not public");
        assertThatThrownBy(() -> Benchmark.builder("x").workload(NoDefaultConstructor.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no public no-argument constructor");
        assertThatThrownBy(() -> Benchmark.builder("x").workload(Inner.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is an inner class (make it static)");
        assertThatThrownBy(() -> Benchmark.builder("x").workload((Class<? extends Workload>) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workload must be a class");
        assertThatThrownBy(() -> Benchmark.builder("x").workload(Named.class).setup(ctx -> { }).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("a workload class");
    }

    @Test
    void aWorkloadClassBenchmark_isMadeAgainFromItsNames_asARankInAnotherProcessDoes() {
        Parameter<Integer> files = Parameter.ofInt("files", 3, 1, 100, "files", "files");
        Benchmark b = Benchmark.builder("named").parameters(Parameters.defaults(List.of(files)).with(files, 9))
                .workload(Named.class).build();
        assertThat(Benchmarks.workloadClassOf(b)).contains(Named.class.getName());
        Benchmark again = Benchmarks.recreate("named", Benchmarks.workloadClassOf(b).orElseThrow(), b.parameters().asText(), false);
        assertThat(again.newWorkload()).isInstanceOf(Named.class);
        assertThat(again.parameters().get(files)).isEqualTo(9);
        assertThat(again.parameters().asText()).isEqualTo(Map.of("files", "9"));
        // a name from the plan that is no workload is refused before any of its code runs
        assertThatThrownBy(() -> Benchmarks.recreate("named", "java.lang.String", Map.of(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.String is not a Workload");
        assertThatThrownBy(() -> Benchmarks.recreate("named", "com.example.Missing", Map.of(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not on this rank's class path");
        // a value out of its parameter's range, as text, fails where the workload reads it
        Benchmark bad = Benchmarks.recreate("named", Named.class.getName(), Map.of("files", "1000"), false);
        assertThatThrownBy(() -> bad.parameters().get(files)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("files");
    }

    @Test
    void askingAFailedRunForAnOperation_saysTheRunFailed(@TempDir Path tmp) {
        Benchmark broken = Benchmark.builder("broken").run(ctx -> {
            throw new java.io.IOException("no such device");
        }).build();
        RunResult run = Scenario.builder().target(tmp).benchmark(broken).repetitions(1).warmups(0).build().execute().runs().get(0);
        assertThatThrownBy(() -> run.measurement("stat")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation 'stat' was not measured in broken; nothing was measured; the run failed: ")
                .hasMessageContaining("no such device");
    }

    @Test
    void aLauncherThatBreaksMidScenario_keepsWhatRanBefore_andNamesTheBrokenConfiguration(@TempDir Path tmp) throws Exception {
        Launcher threads = Launcher.threads();
        Launcher breaksSecond = new Launcher() {
            private int plans;

            @Override
            public String name() {
                return "breaks-second";
            }

            @Override
            public List<RankResult> launch(RunPlan plan) {
                if (++plans > 1) {
                    throw new PrismException("the coordinator lost its socket");
                }
                return threads.launch(plan);
            }
        };
        Path out = tmp.resolve("out");
        Files.createDirectories(tmp.resolve("target"));
        ScenarioResult result = Scenario.builder().target(tmp.resolve("target")).output(out)
                .benchmark(Benchmarks.create("test_noop", Map.of())).tasks(1, 2, 3).repetitions(1).warmups(0)
                .launcher(breaksSecond).build().execute();
        assertThat(result.runs()).extracting(RunResult::tasks).containsExactly(1, 2);
        assertThat(result.runs().get(0).passed()).isTrue();
        RunResult broken = result.runs().get(1);
        assertThat(broken.passed()).isFalse();
        assertThat(broken.failure().message()).contains("the launcher failed: the coordinator lost its socket")
                .contains("the configurations after it did not run");
        assertThat(Results.load(out)).extracting(RunResult::tasks).containsExactly(1, 2);
        assertThat(tmp.resolve("target")).isEmptyDirectory();
    }
}
