package dev.prism.report;

import dev.prism.Results;
import dev.prism.RunResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result set named after another user's directory is shown in the HTML report as text, and its name in the charts'
 * JSON cannot steer the HTML parser: before, {@code </} alone was escaped, and {@code <!--<script>} in a name put the
 * parser into its double-escaped script state, where the page's own {@code </script>} no longer ended the data (issue 55).
 */
class HtmlScriptDataTest {
    private static final Path CORE_GOLDEN = Path.of("../prism-core/src/test/resources/golden");

    @Test
    void aSetNamedLikeMarkup_isTextInTheTables_andHoldsNoTagInTheChartData() throws IOException {
        String name = "<!--<script>x</script><img src=x onerror=alert(1)>";
        List<RunResult> runs = Results.load(CORE_GOLDEN.resolve("run-pass.json"));
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        sets.put("base", runs);
        sets.put(name, runs);
        String html = Report.of(sets).html();
        assertThat(html).doesNotContain(name).doesNotContain("<!--<script").doesNotContain("<img src=x")
                .contains("&lt;!--&lt;script&gt;x&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;")
                .contains("\\u003c!--\\u003cscript>x\\u003c/script>\\u003cimg src=x onerror=alert(1)>");
    }
}
