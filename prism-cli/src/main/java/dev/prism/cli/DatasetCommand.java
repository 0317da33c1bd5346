package dev.prism.cli;

import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.spi.Formats;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.DatasetManifest;
import dev.prism.posix.data.DatasetSpec;
import dev.prism.posix.data.Datasets;
import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchDataFormat;
import dev.prism.torch.TorchDataset;
import dev.prism.torch.TorchRun;
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

    @Command(name = "create", description = "Writes a dataset and its manifest into DIR, which must be new or empty: files"
            + " (create_dataset's sizes and layout, for md5_check and dataloader), or with --format a training format the"
            + " dataloader benchmark reads (samples from a seed, each checked as it is delivered).")
    static final class Create implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Parameters(paramLabel = "DIR", description = "the directory to write (created when missing; must be empty)")
        private Path directory;

        @Option(names = {"-p", "--param"}, paramLabel = "KEY=VALUE", description = "files: size_classes, files_per_class,"
                + " total_size, layout, shards, content_seed (see 'prism describe create_dataset'); a training format:"
                + " samples, sample_size, size_jitter, shard_size, row_group, classes, seed (see 'prism describe dataloader')")
        private List<String> raw = new ArrayList<>();

        @Option(names = "--format", paramLabel = "FORMAT", description = "files (the default: md5_check's dataset of files"
                + " with MD5s), or a training format the dataloader benchmark reads: parquet, arrow, tar-shards, indexed,"
                + " image-folder, safetensors")
        private String format = "files";

        @Override
        public Integer call() throws IOException {
            Map<String, String> values = RunCommand.parameters(raw);
            TorchDataFormat chosen = Parameters.defaults(List.of(TorchBenchmark.DATA_FORMAT))
                    .withText(Map.of("format", format)).get(TorchBenchmark.DATA_FORMAT);
            if (chosen != TorchDataFormat.FILES) {
                return createFormat(chosen, values);
            }
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

        private Integer createFormat(TorchDataFormat chosen, Map<String, String> values) throws IOException {
            List<String> known = List.of("samples", "sample_size", "size_jitter", "shard_size", "row_group", "classes", "seed");
            for (String key : values.keySet()) {
                if (!known.contains(key)) {
                    throw new IllegalArgumentException("parameter '" + key + "' is not a parameter of a " + format
                            + " dataset; known: " + String.join(", ", known));
                }
            }
            Map<String, String> benchmark = new java.util.HashMap<>(values);
            benchmark.remove("seed");
            Parameters p = Parameters.defaults(TorchBenchmark.DATALOADER_PARAMETERS).withText(benchmark);
            TorchDataset.Builder b = TorchDataset.builder().format(chosen).samples(p.get(TorchBenchmark.SAMPLES))
                    .sampleSize(p.get(TorchBenchmark.SAMPLE_SIZE)).sizeJitter(p.get(TorchBenchmark.SIZE_JITTER))
                    .shardSize(p.get(TorchBenchmark.DATA_SHARD_SIZE)).rowGroup(p.get(TorchBenchmark.ROW_GROUP))
                    .classes(p.get(TorchBenchmark.CLASSES));
            if (values.containsKey("seed")) {
                b.seed(Parameters.defaults(List.of(TorchDataset.SEED)).withText(Map.of("seed", values.get("seed")))
                        .get(TorchDataset.SEED));
            }
            TorchDataset dataset = b.build();
            TorchDataset.Created created = dataset.create(directory, TorchRun.builder().timeout(java.time.Duration.ofDays(1)).build());
            PrintWriter out = spec.commandLine().getOut();
            out.printf(java.util.Locale.ROOT, "dataset %s: %s; %s of samples in %d files of %s, written in %.1f s; read it with"
                            + " dataloader -p dataset=%s%n", created.directory(), dataset, Formats.bytes(created.sampleBytes()),
                    created.files(), Formats.bytes(created.fileBytes()), created.took().toNanos() / 1e9, created.directory());
            out.flush();
            return PrismCommand.EXIT_PASSED;
        }
    }

    @Command(name = "verify", description = "Reads every file DIR's manifest lists and checks its size and MD5, or every"
            + " sample of a training format against its seed; exit 1 on a missing, changed or unlisted file or sample.")
    static final class Verify implements java.util.concurrent.Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Parameters(paramLabel = "DIR", description = "a dataset written by 'prism dataset create' or create_dataset")
        private Path directory;

        @Override
        public Integer call() throws IOException {
            if (TorchDataset.presentIn(directory.toAbsolutePath().normalize())) {
                TorchDataset.Verification v = TorchDataset.verify(directory, TorchRun.builder()
                        .timeout(java.time.Duration.ofDays(1)).build());
                PrintWriter out = spec.commandLine().getOut();
                out.println("dataset " + directory.toAbsolutePath().normalize() + ": " + v.samples() + " samples, "
                        + Formats.bytes(v.bytes()) + (v.passed() ? ": every sample is its seed's" : ""));
                v.problems().forEach(p -> out.println("  " + p));
                out.flush();
                return v.passed() ? PrismCommand.EXIT_PASSED : PrismCommand.EXIT_FAILED;
            }
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
