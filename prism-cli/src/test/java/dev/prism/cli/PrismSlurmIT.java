package dev.prism.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real SLURM: {@code srun -n 4 --overcommit ./prism run … --launcher slurm}. Needs a running SLURM
 * (scripts/slurm-up.sh); skipped without one, unless PRISM_REQUIRE_SLURM=1 (as scripts/test.sh sets
 * where it could start one), which turns a missing SLURM into a failure.
 */
class PrismSlurmIT {
    private static final Path SCRIPT = Path.of("..", "prism").toAbsolutePath().normalize();

    @BeforeAll
    static void slurmIsUp() {
        dev.prism.testing.Required.slurm();
    }

    @ParameterizedTest
    @ValueSource(strings = {"per-rank", "shared", "per-rank,file"})
    void srunFourTasks_areFourRanksAggregatedByRankZero(String variant, @TempDir Path work) throws Exception {
        String directory = variant.split(",")[0];
        boolean files = variant.endsWith(",file");
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        Process srun = new ProcessBuilder(List.of("srun", "-n", "4", "--overcommit", "--time=5", SCRIPT.toString(), "run",
                "create_files", "--target", target.toString(), "-p", "files=50", "-p", "directory=" + directory,
                "--launcher", "slurm", "--coordinator", files ? "file:" + work.resolve("meet") : "tcp",
                "--out", out.toString(), "--run-id", "slurm-" + directory, "--json", "-q"))
                .redirectError(work.resolve("stderr.txt").toFile()).start();
        String stdout = new String(srun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(srun.waitFor(4, TimeUnit.MINUTES)).as("srun finished").isTrue();
        assertThat(srun.exitValue()).as(Files.readString(work.resolve("stderr.txt"))).isZero();

        JsonNode doc = new ObjectMapper().readTree(stdout).get(0);
        assertThat(doc.get("launcher").asText()).isEqualTo(files ? "slurm+file" : "slurm");
        assertThat(doc.get("tasks").asInt()).isEqualTo(4);
        assertThat(doc.at("/repetitions/0/ranks")).hasSize(4);
        assertThat(doc.at("/measurements/open/count").asLong()).isEqualTo(200);
        try (Stream<Path> ranks = Files.list(out.resolve("slurm-" + directory).resolve("01-create_files-t4/rep-0"))) {
            assertThat(ranks.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("rank-0.json", "rank-1.json", "rank-2.json", "rank-3.json");
        }
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
        if (files) { // rank 0 removed its step's meeting directory
            try (Stream<Path> left = Files.list(work.resolve("meet"))) {
                assertThat(left).isEmpty();
            }
        }
    }
}
