package dev.prism.report.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report's page: {@code report.html}, a template kept as a resource, with its {@code {{name}}} slots filled, and
 * Chart.js read from the webjar of the version this module was built with ({@code report.properties}, from the pom).
 */
public final class HtmlPage {
    private static final Pattern SLOT = Pattern.compile("\\{\\{([a-z.]+)}}");

    private HtmlPage() {
    }

    /** @return the report's page with every slot filled from {@code values} */
    public static String fill(Map<String, String> values) throws IOException {
        return fill("report.html", values);
    }

    /** @return the page {@code template} (a resource beside report.html) with every slot filled from {@code values} */
    public static String fill(String template, Map<String, String> values) throws IOException {
        Matcher m = SLOT.matcher(resource(template));
        StringBuilder page = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException(template + " has a slot {{" + m.group(1) + "}} that nothing fills");
            }
            m.appendReplacement(page, Matcher.quoteReplacement(value));
        }
        return m.appendTail(page).toString();
    }

    /** @return Chart.js, to inline: the page needs no network to be viewed */
    public static String chartJs() throws IOException {
        Properties p = new Properties();
        try (InputStream in = HtmlPage.class.getResourceAsStream("/dev/prism/report/report.properties")) {
            if (in == null) {
                throw new IOException("report.properties is missing from the class path");
            }
            p.load(in);
        }
        String path = "/META-INF/resources/webjars/chart.js/" + p.getProperty("chartjs.version") + "/dist/chart.umd.js";
        try (InputStream in = HtmlPage.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("Chart.js (" + path + ") is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = HtmlPage.class.getResourceAsStream("/dev/prism/report/" + name)) {
            if (in == null) {
                throw new IOException(name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
