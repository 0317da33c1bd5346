package dev.prism.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code prism} in this JVM with captured output, for the CLI tests. */
final class Cli {
    /** What one command printed and returned. */
    record Outcome(int exit, String out, String err) {
    }

    private Cli() {
    }

    static Outcome prism(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = PrismCommand.commandLine(args);   // as the prism command builds it: only what args name
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }
}
