package dev.prism.report;

import dev.prism.DataSize;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.testing.Required;
import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchBenchmarks;
import dev.prism.torch.TorchDataFormat;
import dev.prism.torch.TorchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A data requirement in a training format: derived in samples per second per GPU and bytes per second per GPU,
 * measured by the dataloader reading that format, and judged on the slowest rank's samples over its epoch, with the
 * read amplification beside it. The real run's observer is the ranks' own documents: the scorecard's figure is the
 * slowest rank's samples over its epoch. The run needs torch: skipped without it unless PRISM_REQUIRE_TORCH=1.
 */
class QualificationDataFormatTest {
    @TempDir
    Path target;

    @Test
    void aParquetJob_isMeasuredByReadingParquet_inSamplesPerGpu() {
        Qualification q = Qualification.fromJson("""
                {"job": {"ranks": 64}, "headroom": 2,
                 "data": {"samplesPerSecondPerGpu": 500, "bytesPerSample": "100KiB", "format": "parquet",
                          "rowGroup": "128MiB", "measureSamples": 2048}}""");
        assertThat(q.requirements()).extracting(Qualification.Requirement::id).containsExactly("data_samples", "data_bytes");
        Qualification.Requirement samples = q.requirements().get(0);
        assertThat(samples.measure()).isEqualTo(Qualification.Measure.SAMPLES_PER_RANK);
        assertThat(samples.needed()).isEqualTo(1000);
        assertThat(samples.statement()).isEqualTo("data loading from parquet: 500 samples/s per GPU × 100KiB, 64 GPU(s)");
        assertThat(samples.benchmark()).isEqualTo(TorchBenchmarks.dataloader().format(TorchDataFormat.PARQUET).samples(2048)
                .sampleSize(DataSize.ofKiB(100)).rowGroup(DataSize.ofMiB(128)).dropCache(true));
        assertThat(q.requirements().get(1).needed()).isEqualTo(500 * 102_400 * 2.0);
        // the builder writes the same requirement
        Qualification built = Qualification.builder().ranks(64).headroom(2).data(500, DataSize.ofKiB(100), 1)
                .dataFormat(TorchDataFormat.PARQUET, DataSize.ofMiB(128)).build();
        assertThat(built.requirements().get(0).benchmark().parameters().get(TorchBenchmark.ROW_GROUP))
                .isEqualTo(DataSize.ofMiB(128));
    }

    @Test
    void aFormatsFields_areRefusedWhereTheyDoNotApply() {
        assertThatThrownBy(() -> Qualification.fromJson("""
                {"job": {"ranks": 8}, "data": {"samplesPerSecondPerGpu": 5, "bytesPerSample": "1MiB", "format": "csv"}}"""))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("data.format must be one of files, parquet, arrow,"
                        + " tar-shards, indexed, image-folder, safetensors, was \"csv\"");
        assertThatThrownBy(() -> Qualification.fromJson("""
                {"job": {"ranks": 8}, "data": {"samplesPerSecondPerGpu": 5, "bytesPerSample": "1MiB", "format": "arrow",
                 "rowGroup": "1MiB"}}""")).hasMessage("data.rowGroup applies to data.format parquet, was arrow");
        assertThatThrownBy(() -> Qualification.fromJson("""
                {"job": {"ranks": 8}, "data": {"samplesPerSecondPerGpu": 5, "bytesPerSample": "1MiB", "rowGroup": "1MiB"}}"""))
                .hasMessage("data.rowGroup applies to a data.format other than files");
        assertThatThrownBy(() -> Qualification.fromJson("""
                {"job": {"ranks": 8}, "data": {"samplesPerSecondPerGpu": 5, "bytesPerSample": "1MiB", "format": "indexed",
                 "filesPerSample": 2}}""")).hasMessageContaining("data.filesPerSample and data.measureFiles apply to"
                + " data.format files");
    }

    @Test
    void theScorecard_judgesTheSlowestRanksSamples_withTheReadAmplification() {
        java.util.Optional<String> missing = TorchRun.builder().build().torchMissing();
        Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
        Qualification q = Qualification.fromJson("""
                {"job": {"ranks": 16},
                 "data": {"samplesPerSecondPerGpu": 1, "bytesPerSample": "8KiB", "format": "tar-shards",
                          "shardSize": "1MiB", "measureSamples": 256}}""");
        List<RunResult> runs = q.scenario(target, 2, 1).timeout(Duration.ofMinutes(5)).build().execute().runs();
        RunResult run = runs.get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.parameters()).containsEntry("format", "tar-shards").containsEntry("samples", "256");
        Scorecard card = q.judge(runs, 2);
        Scorecard.Row row = card.rows().get(0);
        double slowest = Double.MAX_VALUE;
        for (RankResult rank : run.repetitions().get(0).ranks()) {
            slowest = Math.min(slowest, rank.measurements().get("sample").count() / (rank.phaseNanos() / 1e9));
        }
        assertThat(row.measured()).isEqualTo(slowest);
        assertThat(row.verdict()).as(card.table()).isEqualTo(Scorecard.Verdict.PASS);
        assertThat(card.table()).contains("samples/s").containsPattern("read amplification \\d+\\.\\d\\d");
    }
}
