package dev.prism.report.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.report.Comparison;
import dev.prism.report.History;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** The history's page: a banner with what shifted, the runs with their labels, and every series over time. */
public final class HistoryPage {
    /** Charts beyond this many are left out (those that moved always shown), and the page says how many. */
    static final int MAX_CHARTS = 120;

    private HistoryPage() {
    }

    private static String second(java.time.Instant instant) {
        return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    /** @return the page */
    public static String html(History history, List<History.Series> all) throws IOException {
        StringBuilder runs = new StringBuilder("<table><tr><th>run</th><th>started</th><th>labels</th><th>PRISM</th><th>host conditions</th></tr>");
        for (History.Run r : history.runs()) {
            runs.append("<tr><td>").append(HtmlTables.escape(r.name())).append("</td><td>").append(HtmlTables.escape(second(r.startedAt())))
                    .append("</td><td>").append(HtmlTables.escape(r.provenance().labelsText())).append("</td><td>")
                    .append(HtmlTables.escape(r.provenance().prismVersion() + " " + r.provenance().commit())).append("</td><td>")
                    .append(HtmlTables.escape(r.results().get(0).conditions().toString())).append("</td></tr>");
        }
        runs.append("</table>");
        int drawn = Math.min(all.size(), Math.max(MAX_CHARTS, (int) all.stream().filter(s -> s.shift() != null).count()));
        String note = drawn < all.size() ? (all.size() - drawn) + " series that did not move are left out"
                + " (the page draws " + MAX_CHARTS + " at most)." : "";
        return HtmlPage.fill("history.html", Map.of("chart.js", HtmlPage.chartJs(), "banner", banner(history, all),
                "runs", runs.toString(), "shown", note, "data", data(all, MAX_CHARTS).replace("<", "\\u003c")));
    }

    /** @return the history as a section of the report: its banner; the report's script draws {@link #data}'s series */
    public static String section(History history, List<History.Series> all) {
        return "<h2>History</h2>" + banner(history, all) + "<p>Each series that moved over the runs (at most 24), each point a"
                + " run's value, the band the window it was judged against, a red point a run that moved. The whole history:"
                + " <code>prism history</code>.</p><div class=\"row\" id=\"history\"></div>";
    }

    /** @return the series that moved first, then the others, up to {@code max}, as the pages' script draws them */
    public static String data(List<History.Series> all, int max) {
        List<History.Series> moved = all.stream().filter(s -> s.shift() != null)
                .sorted(java.util.Comparator.comparing((History.Series s) -> !s.regressed())).toList();
        List<History.Series> shown = new java.util.ArrayList<>(moved.subList(0, Math.min(moved.size(), max)));
        all.stream().filter(s -> s.shift() == null).limit(Math.max(0, max - shown.size())).forEach(shown::add);
        ObjectMapper json = new ObjectMapper();
        ObjectNode data = json.createObjectNode();
        ArrayNode series = data.putArray("series");
        for (History.Series s : shown) {
            ObjectNode o = series.addObject();
            o.put("title", s.title());
            o.put("stat", s.stat().label());
            o.put("rate", s.stat().isRate());
            o.put("regressed", s.regressed());
            if (s.shift() != null) {
                o.put("shift", History.summary(s));
            }
            ArrayNode runs = o.putArray("runs");
            ArrayNode values = o.putArray("values");
            ArrayNode low = o.putArray("low");
            ArrayNode high = o.putArray("high");
            ArrayNode movedFlags = o.putArray("moved");
            for (History.Point p : s.points()) {
                runs.add(p.run());
                values.add(p.value());
                if (Double.isNaN(p.windowLow())) {
                    low.addNull();
                    high.addNull();
                } else {
                    low.add(p.windowLow());
                    high.add(p.windowHigh());
                }
                movedFlags.add(!p.moved() ? 0 : p.verdict() == Comparison.Verdict.REGRESSION ? 1 : -1);
            }
        }
        try {
            return json.writeValueAsString(data);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return a banner: how many series shifted slower (and faster) over how many runs, and each that moved */
    static String banner(History history, List<History.Series> all) {
        List<History.Series> moved = all.stream().filter(s -> s.shift() != null)
                .sorted(java.util.Comparator.comparing((History.Series s) -> !s.regressed())).toList();
        StringBuilder banner = new StringBuilder();
        long regressed = moved.stream().filter(History.Series::regressed).count();
        banner.append("<div class=\"banner ").append(regressed > 0 ? "bad" : "good").append("\"><strong>")
                .append(regressed > 0 ? regressed + " series shifted slower" : "No series shifted slower")
                .append(moved.size() > regressed ? ", " + (moved.size() - regressed) + " faster" : "")
                .append("</strong> over ").append(history.runs().size()).append(" runs (")
                .append(HtmlTables.escape(second(history.runs().get(0).startedAt()))).append(" to ")
                .append(HtmlTables.escape(second(history.runs().get(history.runs().size() - 1).startedAt())))
                .append("); each run judged against the ").append(history.window()).append(" before it, ")
                .append(HtmlTables.escape(history.options().toString()));
        if (!moved.isEmpty()) {
            banner.append("<ul>");
            // each named as the table names it: a faster series is listed too, and must not read as a slower one
            moved.forEach(s -> banner.append("<li>").append(s.regressed() ? "SLOWER " : "FASTER ")
                    .append(HtmlTables.escape(History.summary(s))).append("</li>"));
            banner.append("</ul>");
        }
        return banner.append("</div>").toString();
    }
}
