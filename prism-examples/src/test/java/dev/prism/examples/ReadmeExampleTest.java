package dev.prism.examples;

import dev.prism.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ReadmeExampleTest {
    private static final Path SOURCE = Path.of("src/main/java/dev/prism/examples/Quickstart.java");
    private static final Path README = Path.of("..", "README.md");

    @Test
    void readme_showsExactlyTheCompiledExample() throws IOException {
        String source = Files.readString(SOURCE);
        String snippet = source.substring(source.indexOf("// README:begin\n") + "// README:begin\n".length(),
                source.indexOf("        // README:end"));
        String unindented = Arrays.stream(snippet.split("\n", -1))
                .map(line -> line.length() >= 8 ? line.substring(8) : line.strip())
                .collect(Collectors.joining("\n"));
        assertThat(Files.readString(README)).as("README.md must show Quickstart.java's README block verbatim")
                .contains(unindented);
    }

    @Test
    void example_runsAndPasses(@TempDir Path target) {
        ScenarioResult result = Quickstart.run(target);
        assertThat(result.passed()).as(result.failures().toString()).isTrue();
        assertThat(result.runs()).hasSize(2);
        assertThat(result.runs().get(1).measurement("open").count()).isEqualTo(500 * 2 * 3);
        assertThat(target).isEmptyDirectory();
    }
}
