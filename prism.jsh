// PRISM in JShell. Start it from the repository (after ./prism has built the jar once):
//   jshell --class-path prism-cli/target/prism.jar --startup DEFAULT --startup prism.jsh
import dev.prism.*;
import dev.prism.posix.*;
import dev.prism.posix.metadata.*;
import dev.prism.posix.data.*;
import dev.prism.posix.workflows.*;
import dev.prism.report.*;
import dev.prism.torch.*;
import java.nio.file.*;
import java.time.Duration;

/** Runs one benchmark against {@code target} at these task counts and returns the result (its table is printed). */
ScenarioResult run(Benchmark benchmark, Path target, int... tasks) {
    ScenarioResult result = Scenario.builder().target(target).benchmark(benchmark).tasks(tasks).build().execute();
    System.out.print(result.table());
    return result;
}

System.out.println("PRISM " + HostInfo.current().prismVersion() + " loaded. Try:");
System.out.println("  var r = run(PosixBenchmarks.createFiles().files(500), Path.of(\"/tmp\"), 1, 2);");
