package dev.prism.cli;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever a user types, {@code prism} answers with exit 0, 1 or 2, in bounded time, never with a
 * stack trace or a Java class name; a usage error (exit 2) is one line. Arguments are drawn from
 * the real flags with good, bad, empty, negative, huge and non-ASCII values.
 */
class CliArgumentsProperties {
    private static Path scratch;

    @BeforeContainer
    static void makeScratch() throws IOException {
        scratch = Files.createTempDirectory("prism-cli-property");
        Files.createDirectories(scratch.resolve("target"));
        Files.writeString(scratch.resolve("afile"), "not a result");
    }

    @AfterContainer
    static void removeScratch() throws IOException {
        dev.prism.DirectoryRemoval.of(scratch);
    }

    @Property(tries = 60)
    void everyCommandLine_endsInBoundedTimeWithExit0To2AndNoStackTrace(@ForAll("commandLines") List<String> args)
            throws Exception {
        List<String> line = new ArrayList<>(args);
        boolean runs = !line.isEmpty() && (line.get(0).equals("run") || line.get(0).equals("suite"));
        if (runs && !line.contains("--out")) {
            line.addAll(List.of("--out", scratch.resolve("out").toString())); // never into the working directory
        }
        if (runs && line.get(0).equals("run") && !line.contains("--target")) {
            line.addAll(List.of("--target", scratch.resolve("target").toString()));
        }
        Cli.Outcome o = CompletableFuture.supplyAsync(() -> Cli.prism(line.toArray(String[]::new)))
                .get(120, TimeUnit.SECONDS);

        assertThat(o.exit()).as(line + "\n" + o.err()).isIn(0, 1, 2);
        if (line.contains("--verbose")) {
            return; // asked for Java's view: stack traces allowed
        }
        assertThat(o.err()).as(line.toString()).doesNotContain("\tat ").doesNotContainPattern("(java|javax|sun)\\.[a-z]+\\.[A-Z]")
                .doesNotContain("Exception")
                .doesNotContainPattern("\\bPT[0-9.]+[HMS]"); // a duration as Java prints it, not as the user types it
        if (o.exit() == 2) {
            assertThat(o.err().strip().lines()).as(line + "\n" + o.err()).hasSize(1);
        }
    }

    @Provide
    Arbitrary<List<String>> commandLines() {
        Arbitrary<String> command = Arbitraries.of("run", "run", "run", "compare", "describe", "list", "suite", "report",
                "bogus", "");
        Arbitrary<List<String>> flag = Arbitraries.oneOf(
                pair("--target", Arbitraries.of(scratch.resolve("target").toString(), "", "/", "/nonexistent/dir",
                        scratch.resolve("afile").toString())),
                pair("--tasks", Arbitraries.of("1", "2", "0", "-1", "100000", "abc", "１", "1,2", "")),
                pair("--reps", Arbitraries.of("1", "0", "-3", "99999999999", "x", "２")),
                pair("--warmups", Arbitraries.of("0", "1", "-1", "")),
                pair("--timeout", Arbitraries.of("30s", "0s", "-1s", "10", "forever", "", "1ms")),
                pair("--stall-threshold", Arbitraries.of("1s", "0", "x")),
                pair("--duration", Arbitraries.of("1s", "5s", "0s", "-1s", "8d", "x")),
                pair("--ramp", Arbitraries.of("0s", "1s", "2d")),
                pair("--cleanup-grace", Arbitraries.of("1s", "0s", "2h", "x")),
                pair("--out", Arbitraries.of(scratch.resolve("out").toString(), "", scratch.resolve("afile").toString())),
                pair("--launcher", Arbitraries.of("threads", "processes", "slurm", "rockets", "")),
                pair("--coordinator", Arbitraries.of("tcp", "file:/nonexistent/dir", "file:", "udp")),
                pair("--seed", Arbitraries.of("1", "-5", "1e3", "")),
                pair("-p", Arbitraries.of("files=3", "files=0", "files=-1", "files=x", "files=３", "file_size=4KB",
                        "file_size=1B", "fsync=yes", "fsync=maybe", "nope=1", "=", "files", "files=")),
                Arbitraries.of(List.of("--json"), List.of("--quiet"), List.of("--verbose"), List.of("--help"),
                        List.of("--bogus"), List.of("create_files"), List.of("list_files"), List.of("delete_files"), List.of("nope"),
                        List.of(scratch.resolve("afile").toString())));
        return Arbitraries.oneOf(command.map(List::of), command.map(List::of)).flatMap(head ->
                flag.list().ofMaxSize(5).map(flags -> {
                    List<String> all = new ArrayList<>(head);
                    all.removeIf(String::isEmpty); // no command at all
                    if (head.get(0).equals("run")) {
                        all.add("create_files"); // a benchmark that runs in moments with its defaults
                    }
                    flags.forEach(all::addAll);
                    return all;
                }));
    }

    private static Arbitrary<List<String>> pair(String flag, Arbitrary<String> values) {
        return values.map(v -> List.of(flag, v));
    }
}
