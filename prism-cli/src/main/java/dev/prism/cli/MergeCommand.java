package dev.prism.cli;

import dev.prism.Results;
import dev.prism.RunResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code prism merge DIR}: the document of a run whose rank 0 was killed before it wrote one, assembled from the
 * documents its ranks wrote themselves ({@link Results#fromRankDocuments}).
 */
@Command(name = "merge", description = "Assembles the result document of a run whose rank 0 was killed before it wrote"
        + " it (SLURM's SIGKILL after KillWait, the OOM killer) from the documents every rank writes itself when each"
        + " repetition ends: DIR is <out>/<run id>/NN-benchmark-tN, and the document is written beside it as"
        + " NN-benchmark-tN.json, never over one that exists.")
final class MergeCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(index = "0", paramLabel = "DIR", description = "the run's directory of rank documents"
            + " (rep-N/rank-R.json)")
    private Path directory;

    @Option(names = "--json", description = "print the document on stdout instead of writing it")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        RunResult run = Results.fromRankDocuments(absolute);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(run.toJson());
            out.flush();
            return PrismCommand.EXIT_PASSED;
        }
        Path document = absolute.resolveSibling(absolute.getFileName() + ".json");
        if (Files.exists(document, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(document + " exists: rank 0 wrote the run's document (or an earlier merge"
                    + " did); --json prints the assembled one instead");
        }
        run.writeJson(document);
        out.println(run.failure().message());
        out.println("results: " + document);
        out.flush();
        return PrismCommand.EXIT_PASSED;
    }
}
