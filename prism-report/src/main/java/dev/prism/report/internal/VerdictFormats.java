package dev.prism.report.internal;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Verdicts where CI systems read them: JUnit XML (Jenkins, GitLab and GitHub show it as a test run) and Markdown (a
 * job's summary page). The XML is written with the JDK's StAX writer, which escapes what it must.
 */
public final class VerdictFormats {
    private VerdictFormats() {
    }

    /**
     * One check of a verdict.
     *
     * @param name    what was checked: the test case's name
     * @param passed  whether it held
     * @param message what was compared, with the measured figure
     */
    public record Check(String name, boolean passed, String message) {
    }

    /** @return the checks as one JUnit test suite; the warnings go to the suite's {@code <system-err>} */
    public static String junitXml(String suite, List<Check> checks, List<String> warnings) {
        StringWriter text = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
            long failures = checks.stream().filter(c -> !c.passed()).count();
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", suite);
            xml.writeAttribute("tests", String.valueOf(checks.size()));
            xml.writeAttribute("failures", String.valueOf(failures));
            xml.writeCharacters("\n  ");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", suite);
            xml.writeAttribute("tests", String.valueOf(checks.size()));
            xml.writeAttribute("failures", String.valueOf(failures));
            xml.writeAttribute("errors", "0");
            xml.writeAttribute("skipped", "0");
            for (Check check : checks) {
                xml.writeCharacters("\n    ");
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", suite.replaceAll("[^A-Za-z0-9_]+", "."));
                xml.writeAttribute("name", check.name());
                xml.writeCharacters("\n      ");
                if (check.passed()) {
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(check.message());
                } else {
                    xml.writeStartElement("failure");
                    xml.writeAttribute("message", check.message());
                    xml.writeAttribute("type", "expectation");
                    xml.writeCharacters(check.message());
                }
                xml.writeEndElement();
                xml.writeCharacters("\n    ");
                xml.writeEndElement();
            }
            if (!warnings.isEmpty()) {
                xml.writeCharacters("\n    ");
                xml.writeStartElement("system-err");
                xml.writeCharacters(String.join("\n", warnings.stream().map(w -> "WARNING " + w).toList()));
                xml.writeEndElement();
            }
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new UncheckedIOException(new java.io.IOException("could not write JUnit XML: " + e.getMessage(), e));
        }
        return text.toString();
    }

    /** @return the checks as Markdown: a headline saying passed or failed and how many, a table, the warnings */
    public static String markdown(String title, List<Check> checks, List<String> warnings) {
        long failures = checks.stream().filter(c -> !c.passed()).count();
        StringBuilder md = new StringBuilder("### ").append(title).append(": ")
                .append(failures == 0 ? "PASSED" : "FAILED").append(" (").append(checks.size() - failures).append(" of ")
                .append(checks.size()).append(" held)\n\n| | check | measured |\n| --- | --- | --- |\n");
        for (Check c : checks) {
            md.append("| ").append(c.passed() ? "✅" : "❌ **FAIL**").append(" | ").append(cell(c.name())).append(" | ")
                    .append(cell(c.message())).append(" |\n");
        }
        if (!warnings.isEmpty()) {
            md.append('\n');
            warnings.forEach(w -> md.append("> **Warning:** ").append(w.replace("\n", " ")).append("\n>\n"));
        }
        return md.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
