package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

class CompareReportCliTest {
    @TempDir
    Path work;



    private Path run(String id, String... extra) {
        String[] base = {"run", "create_files", "--target", work.toString(), "-p", "files=50", "--reps", "3", "-q",
                "--out", work.resolve("out").toString(), "--run-id", id};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        Cli.Outcome o = prism(args);
        assertThat(o.exit()).as(o.err()).isZero();
        return work.resolve("out").resolve(id);
    }

    @Test
    void compare_ofAResultWithItself_findsNoRegressionAndExitsZero() {
        Path a = run("a");
        Cli.Outcome o = prism("compare", a.toString(), a.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("create_files").contains("0 regression(s)");
        Cli.Outcome md = prism("compare", a.toString(), a.toString(), "--format", "md");
        assertThat(md.out()).startsWith("| benchmark |");
        assertThat(prism("compare", a.toString(), work.resolve("nothing").toString()).exit()).isEqualTo(2);
        assertThat(prism("compare", a.toString(), a.toString(), "--format", "pdf").exit()).isEqualTo(2);
    }

    @Test
    void gate_setsTheExitCode_andBaselineComparesInTheSameRun() throws IOException {
        Path a = run("base");
        Path pass = Files.writeString(work.resolve("pass.json"),
                "{\"expectations\":[{\"benchmark\":\"create_files\",\"op\":\"create\",\"stat\":\"p99\",\"below\":\"10s\"}]}");
        Path fail = Files.writeString(work.resolve("fail.json"),
                "{\"expectations\":[{\"benchmark\":\"create_files\",\"op\":\"create\",\"stat\":\"p50\",\"below\":\"1ns\"}]}");
        Cli.Outcome ok = prism("run", "create_files", "--target", work.toString(), "-p", "files=50", "--reps", "3", "-q",
                "--out", work.resolve("out").toString(), "--gate", pass.toString(), "--baseline", a.toString());
        assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("gate PASSED").contains("regression(s)");
        Cli.Outcome bad = prism("run", "create_files", "--target", work.toString(), "-p", "files=50", "-q",
                "--out", work.resolve("out").toString(), "--gate", fail.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("gate FAILED").contains("is not below 1 ns");
        assertThat(prism("run", "create_files", "--target", work.toString(), "--gate", work.resolve("none.json").toString()).exit())
                .isEqualTo(2);
    }

    @Test
    void report_writesHtmlCsvAndHistogramLog() throws IOException {
        Path a = run("one");
        Path b = run("two");
        Cli.Outcome o = prism("report", "before=" + a, "after=" + b, "-o", work.resolve("r.html").toString(),
                "--csv", work.resolve("r.csv").toString(), "--hdr-log", work.resolve("r.hlog").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(Files.readString(work.resolve("r.html"))).contains("new Chart(canvas").contains("before").doesNotContain("<script src=");
        assertThat(Files.readAllLines(work.resolve("r.csv"))).hasSize(1 + 2 * 4).anySatisfy(l -> assertThat(l).startsWith("\"after\""));
        assertThat(Files.readString(work.resolve("r.hlog"))).contains("Tag=before/create_files/t1/create");
        assertThat(prism("report", "x=" + a, "x=" + b, "-o", work.resolve("r2.html").toString()).exit()).isEqualTo(2);
    }
}
