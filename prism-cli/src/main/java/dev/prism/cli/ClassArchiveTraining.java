package dev.prism.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training run of PRISM's class-data-sharing archive: {@code ./prism} runs this once per build and JDK, in a JVM
 * started with {@code -XX:ArchiveClassesAtExit}, and every later {@code prism} JVM and rank JVM maps the classes it
 * loaded instead of loading them again. It runs what most commands start with: the command line, the benchmark list,
 * and a tiny run of create_files and list_files (threads, then two rank processes) in a scratch directory of PRISM's
 * own build, removed after. Usage: {@code ClassArchiveTraining SCRATCH_DIR}.
 */
public final class ClassArchiveTraining {
    private ClassArchiveTraining() {
    }

    public static void main(String[] args) throws IOException {
        Path scratch = Files.createDirectories(Path.of(args[0]));
        PrintStream out = System.out;
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(silent);
        System.setErr(silent);
        int exit = 0;
        try {
            exit |= PrismCommand.execute("list");
            for (String launcher : new String[]{"threads", "processes"}) {
                exit |= PrismCommand.execute("run", "create_files", "list_files", "--target", scratch.toString(),
                        "-p", "files=20", "--tasks", launcher.equals("threads") ? "1" : "2", "--launcher", launcher,
                        "--reps", "1", "--warmups", "0", "-q", "--out", scratch.resolve("results-" + launcher).toString());
            }
        } finally {
            System.setOut(out);
            dev.prism.DirectoryRemoval.of(scratch);
        }
        System.exit(exit);
    }
}
