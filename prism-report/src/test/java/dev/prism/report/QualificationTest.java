package dev.prism.report;

import dev.prism.DataSize;
import dev.prism.posix.PageCache;
import dev.prism.posix.PosixBenchmark;
import dev.prism.posix.data.CreateDataset;
import dev.prism.posix.data.Md5Check;
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
                 "checkpoint": {"model": "llama3-70b", "stallSeconds": 60, "writers": 4},
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
        assertThat(project.requirements().get(0).derivation()).startsWith("4.68 GB/s aggregate, 9.15 MB/s per rank (× 1.25 headroom)");
        assertThatThrownBy(() -> Qualification.profile("scratch")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("profile must be one of home, project, was 'scratch'");
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
