package dev.prism.report;

import dev.prism.RunResult;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The report leads with the verdict: what failed and what regressed, with both values, before anything else. */
class ReportVerdictTest {
    @Test
    void theBanner_namesTheFailedRunAndTheRegression_withBothValues() throws Exception {
        RunResult before = CompareAndGateTest.Fixture.of(100_000, 5_000, 0.01, 1).repetitions(5).run();
        RunResult slower = CompareAndGateTest.Fixture.of(300_000, 5_000, 0.01, 2).repetitions(5).run();
        RunResult failed = CompareAndGateTest.Fixture.of(100_000, 5_000, 0.01, 3).parameters(Map.of("files", "20"))
                .repetitions(5).failed("open /t/f1: Input/output error (EIO)");
        Map<String, List<RunResult>> sets = new LinkedHashMap<>();
        sets.put("nfs", List.of(before));
        sets.put("lustre", List.of(slower, failed));
        String html = Report.of(sets).html();
        String banner = html.substring(html.indexOf("<div class=\"banner"), html.indexOf("</div>", html.indexOf("<div class=\"banner")));
        assertThat(banner).contains("banner bad").contains("FAILED: 1 run(s) failed, 2 statistic(s) regressed against nfs")
                .contains("lustre: bench tasks=2 FAILED, open /t/f1: Input/output error (EIO)")
                .containsPattern("REGRESSION lustre: bench tasks=2 create mean 9\\d\\.\\d µs → 29\\d\\.\\d µs \\(3\\.\\d\\dx, p=");
        assertThat(html.indexOf("id=\"verdict\"")).isLessThan(html.indexOf("Summary against nfs"));
        assertThat(html).containsPattern("<td>3\\.\\d\\d <small>\\(9\\d\\.\\d µs → 29\\d\\.\\d µs\\)</small></td>");
        // per-rank phases of the configuration at its most tasks go to the page's chart data
        assertThat(html).contains("\"ranks\":[{\"label\":\"nfs, 2 tasks\",\"phases\":[");

        // a history given: its banner and the series that shifted, after the verdict and before the summary
        Map<String, List<RunResult>> nights = nights(6, 5, 100_000, 400_000, 10);
        String withHistory = Report.of(sets).history(History.of(nights)).html();
        assertThat(withHistory.indexOf("<h2>History</h2>")).isGreaterThan(withHistory.indexOf("id=\"verdict\""))
                .isLessThan(withHistory.indexOf("Summary against nfs"));
        assertThat(withHistory).contains("series shifted slower").containsPattern("bench tasks=2 create mean \\+\\d+% .* since run night-5");
        assertThat(withHistory).contains("const HISTORY = {\"series\":[{\"title\":\"bench tasks=2 create");

        Map<String, List<RunResult>> alike = new LinkedHashMap<>();
        alike.put("a", List.of(before));
        alike.put("b", List.of(before));
        assertThat(Report.of(alike).html()).contains("banner good").contains("PASSED: every run passed; nothing regressed against a");
    }

    @Test
    void theHistoryBanner_countsAFasterSeriesApart_andNamesItFaster() throws Exception {
        History history = History.of(nights(6, 5, 400_000, 100_000, 20));
        assertThat(history.moved()).isNotEmpty().noneMatch(History.Series::regressed);
        String html = history.html();
        String banner = html.substring(html.indexOf("<div class=\"banner"), html.indexOf("</div>", html.indexOf("<div class=\"banner")));
        assertThat(banner).contains("banner good").contains("No series shifted slower, " + history.moved().size() + " faster")
                .containsPattern("<li>FASTER bench tasks=2 create mean -\\d+%").doesNotContain("<li>SLOWER");
    }

    /**
     * @return nights 1..n of one configuration, a day apart: create's mean {@code before} ns until night {@code from},
     *         {@code after} ns from it, each night drawn from its own seed ({@code seed} + night)
     */
    private static Map<String, List<RunResult>> nights(int n, int from, long before, long after, int seed) {
        Map<String, List<RunResult>> nights = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
            RunResult r = CompareAndGateTest.Fixture.of(i < from ? before : after, 5_000, 0.01, seed + i).repetitions(3).run();
            java.time.Instant at = java.time.Instant.EPOCH.plus(java.time.Duration.ofDays(i));
            nights.put("night-" + i, List.of(r.toBuilder().startedAt(at).finishedAt(at).build()));
        }
        return nights;
    }

    @Test
    void aMoveAtTheLatestRunOnly_isSaidToBeUnconfirmed_andOneALaterRunKept_isAShiftSinceThatRun() {
        History latest = History.of(nights(6, 6, 100_000, 400_000, 40));
        History.Series moved = latest.moved().get(0);
        assertThat(moved.regressed()).isTrue();
        assertThat(moved.shift().confirmed()).isFalse();
        assertThat(moved.shift().runsSince()).isZero();
        assertThat(latest.table()).contains("at the latest run, not yet confirmed by a later one: night-6")
                .containsPattern("series moved: \\d+ slower, 0 faster \\(\\d+ at the latest run only");

        History kept = History.of(nights(7, 6, 100_000, 400_000, 40));
        assertThat(kept.moved().get(0).shift().runsSince()).isEqualTo(1);
        assertThat(kept.table()).contains("since run night-6").doesNotContain("not yet confirmed").doesNotContain("latest run only");
    }
}
