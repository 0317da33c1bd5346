package dev.prism.examples;

import dev.prism.DataSize;
import dev.prism.Measurement;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import dev.prism.posix.PosixBenchmarks;
import dev.prism.posix.metadata.DirectoryLayout;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The README's fluent-API example, compiled and run by a test so it never goes stale: create_files
 * against a directory at 1 and 2 tasks, then the table and one operation's p99.
 *
 * <pre>{@code
 * import dev.prism.examples.Quickstart;
 * import java.nio.file.Path;
 *
 * Quickstart.run(Path.of(System.getProperty("java.io.tmpdir")));
 * }</pre>
 */
public final class Quickstart {
    private Quickstart() {
    }

    /** Runs the example against {@code target}. Usage: {@code Quickstart [TARGET_DIR]}. */
    public static void main(String[] args) {
        ScenarioResult result = run(Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir")));
        System.exit(result.passed() ? 0 : 1);
    }

    /** @return what the example measured on {@code target} */
    public static ScenarioResult run(Path target) {
        // README:begin
        ScenarioResult result = Scenario.builder()
                .target(target)                                  // the filesystem to qualify
                .benchmark(PosixBenchmarks.createFiles()
                        .files(500)
                        .fileSize(DataSize.ofKiB(4))
                        .directory(DirectoryLayout.SHARED))
                .tasks(1, 2)                                     // a sweep of rank counts
                .repetitions(3).warmups(1)
                .stallThreshold(Duration.ofMillis(500))
                .build()
                .execute();

        System.out.print(result.table());
        RunResult twoTasks = result.run("create_files", 2);
        Measurement open = twoTasks.measurement("open");          // throws, naming what was measured, for an unknown op
        System.out.println("open p99 with 2 tasks: " + open.p99());   // a Duration; p99Nanos() is the raw long
        System.out.println(open);      // open: 3,000 ops, mean 4.9 µs [1.4 µs, 16.7 µs], p50 3.3 µs, p99 5.9 µs, max 4.07 ms, …
        // README:end
        return result;
    }
}
