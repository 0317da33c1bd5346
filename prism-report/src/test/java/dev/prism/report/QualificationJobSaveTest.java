package dev.prism.report;

import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.testing.Required;
import dev.prism.testing.TargetWatcher;
import dev.prism.torch.ParallelLayout;
import dev.prism.torch.TorchModel;
import dev.prism.torch.TorchOptimizer;
import dev.prism.torch.TorchPrecision;
import dev.prism.torch.TorchRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint requirement measured as the job saves it: {@code fsdp_save} of llama3-8b at the 64-rank job's layout,
 * run by one rank placed on the largest shard. A watcher on the target sees that rank's DCP file reach the shard's
 * bytes, the scorecard's figure is that rank's save time, and the same results pass a generous stall and fail a tight
 * one. Skipped without torch unless PRISM_REQUIRE_TORCH=1.
 */
class QualificationJobSaveTest {
    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        java.util.Optional<String> missing = TorchRun.builder().build().torchMissing();
        Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
    }

    private static Qualification within(Duration stall) {
        return Qualification.builder().name("job-save").ranks(64).checkpoint("llama3-8b", stall).build();
    }

    @Test
    void theJobsSave_atItsLayout_isWhatTheScorecardJudges() throws Exception {
        Qualification generous = within(Duration.ofMinutes(10));
        Map<String, Long> seen;
        List<RunResult> runs;
        try (TargetWatcher w = new TargetWatcher(target, false)) {
            runs = generous.scenario(target, 1, 1).timeout(Duration.ofMinutes(5)).build().execute().runs();
            seen = w.seen();
        }
        RunResult run = runs.get(0);
        assertThat(run.passed()).as(String.valueOf(run.failure())).isTrue();
        assertThat(run.benchmark()).isEqualTo("fsdp_save");
        assertThat(run.parameters()).containsEntry("dp", "64").containsEntry("first_rank", "0");

        // job rank 0 holds the largest shard at dp=64; its DCP file holds at least the shard's tensor bytes
        long shard = ParallelLayout.of(1, 1, 64).shard(TorchModel.LLAMA3_8B, 0, true)
                .bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM);
        assertThat(ParallelLayout.of(1, 1, 64).largestShardRank(TorchModel.LLAMA3_8B, true, TorchPrecision.MIXED,
                TorchOptimizer.ADAM)).isZero();
        assertThat(seen).containsKey("__0_0.distcp").containsKey(".metadata");
        assertThat(seen.get("__0_0.distcp")).isGreaterThanOrEqualTo(shard);

        Scorecard card = generous.judge(runs, 1);
        Scorecard.Row row = card.rows().get(0);
        RankResult rank = run.repetitions().get(0).ranks().get(0);
        Measurement save = rank.measurements().get("save");
        assertThat(row.measured()).isEqualTo(save.meanNanos());
        assertThat(row.verdict()).as(card.table()).isEqualTo(Scorecard.Verdict.PASS);
        assertThat(card.table()).contains("measured at 1 of the job's 64 ranks, the largest shard's among them");

        // the same results against a stall no storage meets
        Scorecard tight = within(Duration.ofMillis(1)).judge(runs, 1);
        assertThat(tight.rows().get(0).verdict()).isEqualTo(Scorecard.Verdict.FAIL);
    }
}
