package dev.prism.cli;

import dev.prism.HostInfo;
import dev.prism.RunResult;
import dev.prism.TargetInfo;
import dev.prism.internal.TextTable;
import dev.prism.Scenario;
import dev.prism.ScenarioResult;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** What {@code run} and {@code suite} share: options → scenario → progress → tables or JSON → exit code. */
final class ScenarioExecution {
    private ScenarioExecution() {
    }

    /** @return one line saying what was measured where: the numbers mean nothing without it */
    static String context(RunResult run) {
        TargetInfo t = run.target();
        HostInfo h = run.host();
        return String.format("target %s: %s on %s (%s), %s free; host %s, %d CPUs, kernel %s", t.path(),
                t.filesystemType(), t.mountSource(), t.mountOptions(), TextTable.bytes(t.freeBytes()),
                h.hostname(), h.cpus(), h.kernel());
    }

    static int run(CommandLine cli, Scenario.Builder builder, ScenarioOptions options) {
        builder.timeout(options.timeout).stallThreshold(options.stallThreshold).seed(options.seed);
        if (options.runId != null) {
            builder.runId(options.runId);
        }
        Scenario probe = builder.build();
        Path out = options.out.resolve(probe.runId());
        PrintWriter stdout = cli.getOut();
        PrintWriter stderr = cli.getErr();
        ScenarioResult result;
        try (ProgressBar progress = new ProgressBar(stderr, !options.quiet)) {
            result = builder.runId(probe.runId()).output(out).listener(progress).build().execute();
        }
        if (!options.json && !result.runs().isEmpty()) {
            stdout.println(context(result.runs().get(0)));
            stdout.println();
        }
        if (options.json) {
            stdout.println(result.runs().stream().map(RunResult::toJson).map(String::strip)
                    .collect(Collectors.joining(",\n", "[\n", "\n]")));
        } else {
            stdout.print(result.table());
        }
        stdout.flush();
        if (!options.quiet) {
            stderr.println("results: " + out);
        }
        for (String failure : result.failures()) {
            stderr.println("FAIL " + failure);
        }
        stderr.flush();
        return result.passed() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
    }
}
