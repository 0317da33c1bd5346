package dev.prism.report;

import dev.prism.DataSize;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.Md5Check;
import dev.prism.torch.ParallelLayout;
import dev.prism.torch.TorchBenchmark;
import dev.prism.torch.TorchBenchmarks;
import dev.prism.torch.TorchModel;
import dev.prism.torch.TorchOptimizer;
import dev.prism.torch.TorchPrecision;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sizing method's arithmetic, the shipped profiles, and refusals that name the field. */
class QualificationTest {
    @Test
    void aCheckpointOf912GB_from512Ranks_within30s_needs30GBps_and59MBpsPerRank() {
        // the example the sizing method gives: 912 GB saved by 512 ranks, 30 s of stall allowed
        Qualification q = Qualification.fromJson("""
                {"job": {"nodes": 64, "gpusPerNode": 8},
                 "checkpoint": {"parameters": 65.142857142857e9, "bytesPerParameter": 14, "stallSeconds": 30,
                                "intervalMinutes": 60}}""");
        Qualification.Requirement r = q.requirements().get(0);
        assertThat(q.jobRanks()).isEqualTo(512);
        assertThat(r.statement()).isEqualTo("checkpoint a model (65.1 G parameters × 14 B = 912 GB) from 512 rank(s) within 30 s,"
                + " every 60 min");
        assertThat(r.derivation()).startsWith("30.4 GB/s aggregate, 59.4 MB/s per rank; the stall is 0.8% of training time;"
                + " each rank writes its 1.78 GB shard (measured on its first 1.07 GB) as one file with fsync");
        assertThat(r.needed()).isCloseTo(912e9 / 30 / 512, org.assertj.core.data.Percentage.withPercentage(0.01));
        assertThat(r.configuration()).isEqualTo("create_files files=1 file_size=1GiB block_size=16MiB fsync=true");
        // made by the benchmark's typed builder: the same configuration as the one written out
        assertThat(r.benchmark()).isEqualTo(dev.prism.posix.PosixBenchmarks.createFiles().files(1)
                .fileSize(dev.prism.DataSize.ofGiB(1)).blockSize(dev.prism.DataSize.ofMiB(16)).fsync(true));
    }

    @Test
    void presets_dataAndInteractive_deriveTheirFigures() {
        Qualification q = Qualification.fromJson("""
                {"job": {"ranks": 8}, "headroom": 1.5,
                 "checkpoint": {"model": "llama3-70b", "stallSeconds": 60, "writers": 4, "method": "file"},
                 "data": {"samplesPerSecondPerGpu": 20, "bytesPerSample": "1MiB", "filesPerSample": 4},
                 "interactive": {"statP99": "500us", "listP99": "2s", "listDirectoryFiles": 500}}""");
        List<Qualification.Requirement> rs = q.requirements();
        assertThat(rs).extracting(Qualification.Requirement::id)
                .containsExactly("checkpoint", "data_bytes", "data_files", "stat_p99", "list_p99");
        assertThat(rs.get(0).needed()).isEqualTo(70_553_706_496L * 14 * 1.5 / 60 / 4);
        assertThat(rs.get(1).needed()).isEqualTo(20 * 1048576 * 1.5);
        assertThat(rs.get(1).benchmark().parameters().get(CreateDataset.SIZE_CLASSES)).containsExactly(DataSize.ofKiB(256));
        assertThat(rs.get(1).benchmark().parameters().get(Md5Check.CACHE)).isEqualTo(PageCache.DROP);
        assertThat(rs.get(2).needed()).isEqualTo(20 * 4 * 1.5);
        assertThat(rs.get(3).needed()).isEqualTo(500_000);
        assertThat(rs.get(4).needed()).isEqualTo(2e9);
        assertThat(rs.get(4).benchmark().parameters().get(PosixBenchmark.FILES)).isEqualTo(500);
        assertThat(rs.get(3).statement()).isEqualTo("stat of a file, p99 within 500us");
    }

    @Property(tries = 100)
    void thePerRankFigure_timesTheWriters_isTheCheckpointOverTheStall_withHeadroom(
            @ForAll @DoubleRange(min = 1e6, max = 1e12) double parameters, @ForAll @DoubleRange(min = 1, max = 20) double perParameter,
            @ForAll @DoubleRange(min = 1, max = 600) double stall, @ForAll @IntRange(min = 1, max = 4096) int ranks,
            @ForAll @DoubleRange(min = 1, max = 3) double headroom) {
        Qualification q = Qualification.fromJson(String.format(Locale.ROOT, "{\"job\": {\"ranks\": %d}, \"headroom\": %s,"
                + " \"checkpoint\": {\"parameters\": %s, \"bytesPerParameter\": %s, \"stallSeconds\": %s}}", ranks, headroom,
                parameters, perParameter, stall));
        Qualification.Requirement r = q.requirements().get(0);
        assertThat(r.needed() * ranks).isCloseTo(parameters * perParameter * headroom / stall,
                org.assertj.core.data.Percentage.withPercentage(1e-9));
        long fileSize = r.benchmark().parameters().get(PosixBenchmark.FILE_SIZE).bytes();
        assertThat(fileSize).isPositive().isLessThanOrEqualTo(1L << 30)
                .isLessThanOrEqualTo((long) Math.ceil(parameters * perParameter / ranks));
    }

    @Test
    void theShippedProfiles_readAndNameTheirRequirements() {
        assertThat(Qualification.profile("home").requirements()).extracting(Qualification.Requirement::id)
                .containsExactly("environment", "stat_p99", "list_p99", "git_status_p99");
        Qualification project = Qualification.profile("project");
        assertThat(project.jobRanks()).isEqualTo(512);
        Qualification.Requirement checkpoint = project.requirements().get(0);
        assertThat(checkpoint.statement()).isEqualTo("checkpoint llama3-8b (8.03 G parameters × 14 B = 112 GB) from 512"
                + " rank(s) within 30 s, every 30 min");
        assertThat(checkpoint.derivation()).startsWith("the save at the slowest rank within 24 s (30 s ÷ 1.25 headroom);"
                + " the stall is 1.7% of training time; the job's save at tp=1 pp=1 dp=512: its largest shard 220 MB"
                + " (job rank 0) written by torch.distributed.checkpoint.save, with the whole job's .metadata");
        assertThat(checkpoint.benchmark()).isEqualTo(TorchBenchmarks.fsdpSave().model(TorchModel.LLAMA3_8B).layout(1, 1, 512)
                .precision(TorchPrecision.MIXED).optimizer(TorchOptimizer.ADAM).asyncSave(false));
        assertThatThrownBy(() -> Qualification.profile("scratch")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("profile must be one of home, project, was 'scratch'");
    }

    @Test
    void aPresetCheckpoint_isMeasuredByTheJobsOwnSave_onItsLargestShard() {
        // llama3-70b over 64 ranks at tp=8 pp=4 dp=2: the last stage holds the output head beside its 20 layers
        Qualification q = Qualification.fromJson("""
                {"job": {"nodes": 8, "gpusPerNode": 8},
                 "checkpoint": {"model": "llama3-70b", "stallSeconds": 60, "tp": 8, "pp": 4}}""");
        Qualification.Requirement r = q.requirements().get(0);
        ParallelLayout layout = ParallelLayout.of(8, 4, 2);
        long largest = java.util.stream.LongStream.range(0, layout.world()).boxed()
                .max(java.util.Comparator.comparingLong((Long rank) -> layout.shard(TorchModel.LLAMA3_70B, rank, true)
                        .bytes(TorchPrecision.MIXED, TorchOptimizer.ADAM)).thenComparing(rank -> -rank)).orElseThrow();
        assertThat(r.measure()).isEqualTo(Qualification.Measure.SLOWEST_RANK_TIME);
        assertThat(r.operation()).isEqualTo("save");
        assertThat(r.needed()).isEqualTo(60e9);
        assertThat(r.derivation()).contains("tp=8 pp=4 dp=2", "(job rank " + largest + ")");
        // the ranks run are placed on the largest shard, or as near as the job's ranks leave room for
        assertThat(r.benchmarkAt(2).parameters().get(TorchBenchmark.FIRST_RANK)).isEqualTo((int) Math.min(largest, 62));
        assertThat(r.benchmarkAt(64).parameters().get(TorchBenchmark.FIRST_RANK)).isZero();
        assertThat(r.configuration(2)).isEqualTo("fsdp_save model=llama3-70b tp=8 pp=4 dp=2 first_rank=" + Math.min(largest, 62));
        assertThat(q.benchmarks(2)).containsExactly(r.benchmarkAt(2));
        assertThat(q.plan(2)).contains("measured by " + r.configuration(2));
    }

    @Test
    void anAsyncCheckpoint_isJudgedOnTheTimeTrainingIsBlocked_andDurableBeforeTheNext() {
        Qualification q = Qualification.builder().ranks(64).headroom(2).checkpoint("llama3-8b", java.time.Duration.ofSeconds(10))
                .checkpointEvery(java.time.Duration.ofMinutes(5)).checkpointAsync(true).build();
        assertThat(q.requirements()).extracting(Qualification.Requirement::id, Qualification.Requirement::operation,
                Qualification.Requirement::needed).containsExactly(org.assertj.core.groups.Tuple.tuple("checkpoint", "blocked", 5e9),
                org.assertj.core.groups.Tuple.tuple("checkpoint_durable", "durable", 150e9));
        assertThat(q.requirements().get(0).benchmark().parameters().get(TorchBenchmark.ASYNC_SAVE)).isTrue();
        assertThat(q.benchmarks()).hasSize(1); // both read the same run
        assertThat(q.requirements().get(0).derivation()).startsWith("training blocked at the slowest rank within 5 s"
                + " (10 s ÷ 2 headroom)").contains("torch.distributed.checkpoint.async_save");
    }

    @Test
    void theFileMethod_staysForAnyModel_andTheJobsSave_refusesWhatItCannotMeasure() {
        Qualification file = Qualification.builder().ranks(8).checkpoint("llama3-8b", java.time.Duration.ofSeconds(30))
                .checkpointMethod(Qualification.CheckpointMethod.FILE).build();
        assertThat(file.requirements().get(0).benchmark().name()).isEqualTo("create_files");
        assertThat(file.requirements().get(0).measure()).isEqualTo(Qualification.Measure.WRITE_BYTES_PER_RANK);
        String job = "{\"job\": {\"ranks\": 64}, \"checkpoint\": {\"stallSeconds\": 30, ";
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"bytesPerParameter\": 11}}"))
                .hasMessage("checkpoint.bytesPerParameter must be 10 (bf16 weights and Adam), 12 (fp32) or 14 (mixed"
                        + " precision) for the job's save, was 11; \"method\": \"file\" writes any size");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"writers\": 4}}"))
                .hasMessageStartingWith("checkpoint.writers applies to \"method\": \"file\"");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"parameters\": 1e9, \"tp\": 8}}"))
                .hasMessageStartingWith("checkpoint.tp applies to \"method\": \"dcp\"");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"parameters\": 1e9, \"method\": \"dcp\"}}"))
                .hasMessageStartingWith("checkpoint.method dcp saves a preset model at the job's layout: give checkpoint.model");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"method\": \"torch\"}}"))
                .hasMessageStartingWith("checkpoint.method must be dcp (the job's save, fsdp_save at its layout) or file");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"tp\": 3}}"))
                .hasMessage("the job's 64 ranks are not a multiple of checkpoint.tp × checkpoint.pp = 3");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"tp\": 64}}"))
                .hasMessage("checkpoint.tp and checkpoint.pp: tp=64 does not divide llama3-8b's 32 attention heads");
        assertThatThrownBy(() -> Qualification.fromJson(job + "\"model\": \"llama3-8b\", \"async\": \"yes\"}}"))
                .hasMessage("checkpoint.async must be true or false, was \"yes\"");
    }

    @Test
    void aDataRequirementIn150KB_means150000Bytes_andSaysSo() {
        Qualification q = Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"data\": {\"samplesPerSecondPerGpu\": 10,"
                + " \"bytesPerSample\": \"150KB\", \"filesPerSample\": 1}}");
        Qualification.Requirement bytes = q.requirements().get(0);
        assertThat(bytes.needed()).isEqualTo(1_500_000); // 10 × 150,000 B a second, as the SI prefix means
        assertThat(bytes.statement()).contains("× 150kB (1 file(s) of 150kB each)");
        assertThat(bytes.benchmark().parameters().get(CreateDataset.SIZE_CLASSES)).containsExactly(DataSize.ofBytes(150_000));
        assertThat(bytes.benchmark().parameters().get(Md5Check.CHUNK_SIZE)).isEqualTo(DataSize.ofBytes(150_000));
        assertThat(Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"data\": {\"samplesPerSecondPerGpu\": 10,"
                + " \"bytesPerSample\": \"150KiB\", \"filesPerSample\": 1}}").requirements().get(0).statement()).contains("× 150KiB");
    }

    @Test
    void wrongFields_areNamedWithWhatTheyAccept() {
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": {\"ranks\": 0}, \"interactive\": {\"statP99\": \"1ms\"}}"))
                .hasMessage("job.ranks must be a number in 1..1000000, was 0");
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"checkpoint\": {\"model\": \"gpt5\", \"stallSeconds\": 1}}"))
                .hasMessage("checkpoint.model must be one of llama3-405b, llama3-70b, llama3-8b (or give checkpoint.parameters), was 'gpt5'");
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"interactive\": {\"statP99\": \"fast\"}}"))
                .hasMessage("interactive.statP99 must be a duration such as 5ms, 500us, 2s, was \"fast\"");
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"data\": {\"samplesPerSecondPerGpu\": 5}}"))
                .hasMessage("data.bytesPerSample is required (a size such as 512KiB)");
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": {\"ranks\": 2}}"))
                .hasMessageStartingWith("the requirements name nothing to measure");
        assertThatThrownBy(() -> Qualification.fromJson("{\"jobs\": {}}")).hasMessageStartingWith("unknown section 'jobs'");
        assertThatThrownBy(() -> Qualification.fromJson("{\"job\": ")).hasMessageStartingWith("the requirements are not JSON");
    }

    @Test
    void noResults_areNotMeasured_neverPassed() {
        Qualification q = Qualification.fromJson("{\"job\": {\"ranks\": 2}, \"interactive\": {\"statP99\": \"1ms\"}}");
        Scorecard card = q.judge(List.of(), 2);
        assertThat(card.passed()).isFalse();
        assertThat(card.rows()).singleElement().satisfies(r -> assertThat(r.verdict())
                .isIn(Scorecard.Verdict.NOT_MEASURED));
        assertThat(card.table()).contains("NOT QUALIFIED: 0 of 1 requirement(s) passed");
    }
}
