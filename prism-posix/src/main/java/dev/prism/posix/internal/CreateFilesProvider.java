package dev.prism.posix.internal;

import dev.prism.Benchmark;
import dev.prism.BenchmarkProvider;
import dev.prism.DataSize;
import dev.prism.Parameter;
import dev.prism.Parameters;
import dev.prism.Suite;
import dev.prism.posix.CreateFiles;
import dev.prism.posix.DirectoryLayout;
import dev.prism.posix.PosixBenchmarks;

import java.util.List;
import java.util.Map;

/** Registers {@code create_files} with the {@link dev.prism.Benchmarks} registry. */
public final class CreateFilesProvider implements BenchmarkProvider {
    @Override
    public String name() {
        return "create_files";
    }

    @Override
    public String description() {
        return PosixBenchmarks.createFiles().description();
    }

    @Override
    public List<Parameter<?>> parameters() {
        return CreateFiles.PARAMETERS;
    }

    @Override
    public Benchmark create(Map<String, String> values) {
        return CreateFiles.of(Parameters.defaults(CreateFiles.PARAMETERS).withText(values));
    }

    @Override
    public List<Benchmark> suite(Suite suite) {
        CreateFiles small = PosixBenchmarks.createFiles().files(300).fileSize(DataSize.ofKiB(4));
        return List.of(small, small.directory(DirectoryLayout.SHARED));
    }
}
