package dev.prism.report;

import dev.prism.Results;
import dev.prism.RunResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.prism.testing.Golden.matches;

/**
 * Pins what people and tools read, from core's golden result documents: the console table of a run, compare's text and
 * Markdown tables, a gate's verdict, and the report's CSV. Regenerate deliberately with
 * {@code mvn test -pl prism-report -Dprism.updateGolden=true -Dtest=OutputGoldenTest} and say why in the commit.
 */
class OutputGoldenTest {
    private static final Path CORE_GOLDEN = Path.of("../prism-core/src/test/resources/golden");

    private static List<RunResult> passed() throws IOException {
        return Results.load(CORE_GOLDEN.resolve("run-pass.json"));
    }

    private static List<RunResult> failed() throws IOException {
        return Results.load(CORE_GOLDEN.resolve("run-fail.json"));
    }

    @Test
    void theConsoleTable() throws IOException {
        matches("table-pass.txt", passed().get(0).table());
        matches("table-fail.txt", failed().get(0).table());
    }

    @Test
    void compareTables() throws IOException {
        Comparison c = Comparison.defaults().compare(passed(), passed());
        matches("compare.txt", c.table(false));
        matches("compare.md", c.table(true));
    }

    @Test
    void aGateVerdict() throws IOException {
        Gate gate = Gate.of(Gate.expect("create_files").op("open").p99().below(Duration.ofMillis(1)),
                Gate.expect("create_files").op("write").bytesPerSecond().above(1e12));
        matches("gate.txt", gate.evaluate(passed()).toString());
    }

    @Test
    void theReportsCsv() throws IOException {
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        sets.put("before", passed());
        sets.put("after", failed());
        Path csv = Files.createTempFile("prism-golden-", ".csv");
        try {
            Report.of(sets).writeCsv(csv);
            matches("report.csv", Files.readString(csv));
        } finally {
            Files.delete(csv);
        }
    }
}
