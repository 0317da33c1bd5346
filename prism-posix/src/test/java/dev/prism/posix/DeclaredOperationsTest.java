package dev.prism.posix;

import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.RunResult;
import dev.prism.Scenario;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a benchmark says it measures ({@link Benchmark#operations()}, which a gate is checked against before any work)
 * holds what it does measure, with every option that adds an operation turned on.
 */
class DeclaredOperationsTest {
    @TempDir
    Path target;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "create_files | files=20 fsync=true drop_cache=true",
            "list_files | files=20",
            "move_files | files=20",
            "delete_files | files=20",
            "open_contention | opens=20 read=true",
            "md5_check | size_classes=8KiB,64KiB files_per_class=2 cache=drop",
            "create_dataset | size_classes=8KiB,64KiB files_per_class=2",
            "create_synthetic_workload | files=20",
    })
    void everyOperationMeasured_isOneTheBenchmarkDeclares(String name, String parameters) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : parameters.split(" ")) {
            values.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        Benchmark benchmark = Benchmarks.create(name, values);
        RunResult run = Scenario.builder().target(target).benchmark(benchmark).tasks(2).build().execute().runs().get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(benchmark.operations()).isNotEmpty();
        assertThat(run.measurements().keySet()).isNotEmpty().allSatisfy(op -> assertThat(benchmark.operations())
                .as(name + " measured " + op).anyMatch(p -> p.endsWith("*") ? op.startsWith(p.substring(0, p.length() - 1))
                        : p.equals(op)));
    }
}
