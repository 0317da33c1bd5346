package dev.prism.torch;

import dev.prism.Measurement;
import dev.prism.RankResult;
import dev.prism.RunResult;
import dev.prism.Scenario;
import dev.prism.testing.TargetWatcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * MLPerf Storage v3's checkpointing run by two ranks of llama3-8b (a subset run, at dp=64 so that it fits this machine):
 * both checkpoints are on the target at once (a watcher sees them), the reads come from storage and not the page
 * cache (the kernel's read_bytes covers what was loaded), every element is checked, and MLPerf's duration is the
 * slowest rank's. Skipped without torch unless PRISM_REQUIRE_TORCH=1.
 */
class TorchMlperfTest {
    @TempDir
    Path target;

    @BeforeAll
    static void torchIsThere() {
        TorchPresent.require();
    }

    @Test
    void writesThenReads_eachCheckpointOnce_fromStorage_withMlperfsFigures() throws Exception {
        RunResult r;
        Map<String, Long> seen;
        try (TargetWatcher w = new TargetWatcher(target, true)) {
            r = Scenario.builder().target(target).tasks(2).timeout(Duration.ofMinutes(8))
                    .benchmark(TorchBenchmarks.mlperfCheckpointing(TorchModel.LLAMA3_8B).layout(1, 1, 64).saves(2))
                    .build().execute().runs().get(0);
            seen = w.seen();
        }
        assertThat(r.passed()).as(String.valueOf(r.failure())).isTrue();
        // the write phase kept both checkpoints for the read phase
        assertThat(seen.keySet()).contains("step-1/__0_0.distcp", "step-1/__1_0.distcp", "step-2/__0_0.distcp",
                "step-2/__1_0.distcp");
        for (RankResult rank : r.repetitions().get(0).ranks()) {
            assertThat(rank.measurements().get("save").count()).isEqualTo(2);
            assertThat(rank.measurements().get("load").count()).isEqualTo(2);
            long loaded = rank.measurements().get("load").bytes();
            // every rank dropped every checkpoint from its node's page cache: nothing stayed, and the loads read
            // from the disk what they loaded (the kernel's count, /proc/self/io)
            assertThat(rank.counters().get("resident_pages_before_load")).isZero();
            assertThat((double) rank.counters().get("load_storage_read_bytes")).as("rank " + rank.rank())
                    .isGreaterThanOrEqualTo(0.9 * loaded);
            assertThat(rank.measurements().get("write_to_read_gap").maxNanos()).isLessThan(30_000_000_000L);
        }
        RankResult rank0 = r.repetitions().get(0).ranks().get(0);
        RankResult rank1 = r.repetitions().get(0).ranks().get(1);
        assertThat(rank0.measurements().get("save_slowest").count()).isEqualTo(2);
        assertThat(rank0.measurements().get("load_lowest_rate").count()).isEqualTo(2);
        // MLPerf's duration: the slowest rank's, per checkpoint. With two ranks, each checkpoint's slowest and fastest
        // are its two ranks' own loads: the sums match exactly, and the extremes are the ranks' own extremes
        Measurement slowest = rank0.measurements().get("load_slowest");
        Measurement fastest = rank0.measurements().get("load_fastest");
        Measurement load0 = rank0.measurements().get("load");
        Measurement load1 = rank1.measurements().get("load");
        assertThat(slowest.sumNanos() + fastest.sumNanos()).isEqualTo(load0.sumNanos() + load1.sumNanos());
        assertThat(slowest.maxNanos()).isEqualTo(Math.max(load0.maxNanos(), load1.maxNanos()));
        assertThat(fastest.minNanos()).isEqualTo(Math.min(load0.minNanos(), load1.minNanos()));
        assertThat(slowest.sumNanos()).isGreaterThanOrEqualTo(Math.max(load0.sumNanos(), load1.sumNanos()));
        Matcher m = Pattern.compile("2 checkpoint\\(s\\): duration ([0-9.]+) s \\(the slowest rank's, mean\\), throughput"
                + " ([0-9.]+) GiB/s \\(the lowest rank's, mean\\)").matcher(rank0.notes().get("mlperf_read"));
        assertThat(m.matches()).as(rank0.notes().get("mlperf_read")).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isCloseTo(slowest.meanNanos() / 1e9, within(0.01));
        assertThat(rank0.notes()).containsKey("mlperf_write").containsEntry("mlperf_run", "ranks 0-1 of 64 (a subset run)");
    }
}
