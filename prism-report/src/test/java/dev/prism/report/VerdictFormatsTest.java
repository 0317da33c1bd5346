package dev.prism.report;

import dev.prism.RunResult;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A gate's verdict as CI systems read it: JUnit XML parsed back by the JDK's own parser, and Markdown. */
class VerdictFormatsTest {
    private static final RunResult RUN = CompareAndGateTest.run(100_000, 5_000, 0.01, 1);

    private static Gate.Verdict verdict() {
        return Gate.of(Gate.expect("bench").op("create").p99().below(Duration.ofMillis(20)),
                Gate.expect("bench").op("stat").mean().below(Duration.ofNanos(10)),
                Gate.expect("bench").op("create").opsPerSecond().above(1)).evaluate(List.of(RUN));
    }

    @Test
    void junitXml_holdsOneTestCasePerCheck_theFailingOneAFailureWithTheMeasuredFigure() throws Exception {
        Gate.Verdict verdict = verdict();
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(verdict.toJUnitXml("prism gate").getBytes(StandardCharsets.UTF_8)));
        Element suite = (Element) xml.getElementsByTagName("testsuite").item(0);
        assertThat(suite.getAttribute("tests")).isEqualTo("3");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        NodeList cases = xml.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(3);
        Element failing = (Element) cases.item(1);
        assertThat(failing.getAttribute("name")).isEqualTo("expect(bench).stat.mean below 10 ns at tasks=2");
        Element failure = (Element) failing.getElementsByTagName("failure").item(0);
        String measured = verdict.failures().get(0).message();
        assertThat(failure.getAttribute("message")).isEqualTo(measured).matches("bench tasks=2 stat mean 5\\.\\d µs is not below 10 ns");
        for (int i : new int[]{0, 2}) {
            Element passing = (Element) cases.item(i);
            assertThat(passing.getElementsByTagName("failure").getLength()).isZero();
            assertThat(passing.getElementsByTagName("system-out").item(0).getTextContent())
                    .isEqualTo(verdict.reasons().get(i).message());
        }
    }

    @Test
    void junitXml_escapesWhatXmlCannotHoldAsIs() throws Exception {
        Gate.Verdict verdict = new Gate.Verdict(List.of(new Gate.Verdict.Reason("a <b> & \"c\"", false, "x < y & z")),
                List.of("conditions <differ>"));
        String text = verdict.toJUnitXml("prism gate");
        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        assertThat(((Element) xml.getElementsByTagName("testcase").item(0)).getAttribute("name")).isEqualTo("a <b> & \"c\"");
        assertThat(xml.getElementsByTagName("system-err").item(0).getTextContent()).isEqualTo("WARNING conditions <differ>");
    }

    @Test
    void markdown_leadsWithTheVerdict_andMarksTheFailingCheck() {
        String md = verdict().toMarkdown();
        assertThat(md).startsWith("### Storage gate: FAILED (2 of 3 held)\n");
        assertThat(md.lines().filter(l -> l.startsWith("| ❌ **FAIL** | expect(bench).stat.mean below 10 ns"))).hasSize(1);
        assertThat(md.lines().filter(l -> l.startsWith("| ✅ |"))).hasSize(2);
    }
}
