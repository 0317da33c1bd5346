package dev.prism.cli;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.spi.Formats;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.Datasets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code prism dataset create|verify DIR}: a dataset written once and read by many runs ({@code md5_check -p dataset=DIR}). */
@Command(name = "dataset", description = "Writes a dataset and its manifest once (create), or checks a kept one against its"
        + " manifest (verify); md5_check reads it with -p dataset=DIR without regenerating it.",
        subcommands = {DatasetCommand.Create.class, DatasetCommand.Verify.class})
final class DatasetCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "say what to do: prism dataset create DIR, or prism dataset verify DIR");
    }

    @Command(name = "create", description = "Writes a dataset (create_dataset's sizes and layout) and its manifest.json into DIR,"
            + " which must be new or empty.")
    static final class Create implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Parameters(paramLabel = "DIR", description = "the directory to write (created when missing; must be empty)")
        private Path directory;

        @Option(names = {"-p", "--param"}, paramLabel = "KEY=VALUE", description = "size_classes, files_per_class, total_size,"
                + " layout, shards, content_seed (see 'prism describe create_dataset')")
        private List<String> raw = new ArrayList<>();

        @Override
        public Integer call() throws IOException {
            Map<String, String> values = RunCommand.parameters(raw);
            for (String key : values.keySet()) {
                if (CreateDataset.DATASET_PARAMETERS.stream().noneMatch(p -> p.name().equals(key))) {
                    throw new IllegalArgumentException("parameter '" + key + "' is not a dataset parameter; known: "
                            + String.join(", ", CreateDataset.DATASET_PARAMETERS.stream().map(Parameter::name).toList()));
                }
            }
            DatasetSpec dataset = CreateDataset.of(Parameters.defaults(CreateDataset.PARAMETERS).withText(values)).spec();
            Path dir = directory.toAbsolutePath().normalize();
            long start = System.nanoTime();
            DatasetManifest manifest = Datasets.create(dir, dataset);
            double seconds = (System.nanoTime() - start) / 1e9;
            PrintWriter out = spec.commandLine().getOut();
            out.printf("dataset %s: %d files, %s, layout %s, seed %d, written in %.1f s; read it with -p dataset=%s%n", dir,
                    manifest.entries().size(), Formats.bytes(dataset.bytes()), dataset.layout().name().toLowerCase(java.util.Locale.ROOT)
                            + (dataset.layout() == dev.prism.posix.data.DatasetLayout.SHARDED ? " (" + dataset.shards() + " shards)" : ""),
                    dataset.seed(), seconds, dir);
            out.flush();
            return PrismCommand.EXIT_PASSED;
        }
    }

    @Command(name = "verify", description = "Reads every file DIR's manifest lists and checks its size and MD5; exit 1 on a"
            + " missing, changed or unlisted file.")
    static final class Verify implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Parameters(paramLabel = "DIR", description = "a dataset written by 'prism dataset create' or create_dataset")
        private Path directory;

        @Override
        public Integer call() throws IOException {
            Datasets.Verification v = Datasets.verify(directory.toAbsolutePath().normalize());
            PrintWriter out = spec.commandLine().getOut();
            out.println("dataset " + directory.toAbsolutePath().normalize() + ": " + v.files() + " files, "
                    + Formats.bytes(v.bytes()) + (v.passed() ? ": every file matches the manifest" : ""));
            v.problems().forEach(p -> out.println("  " + p));
            if (!v.passed()) {
                out.println(v.problems().size() + " problem(s)");
            }
            out.flush();
            return v.passed() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
        }
    }
}
