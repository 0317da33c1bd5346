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
@org.junit.jupiter.api.Tag("timing")
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
        if (files) {
            Files.createDirectories(work.resolve("meet")); // --coordinator file:DIR takes an existing directory
        }
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

    @org.junit.jupiter.api.Test
    void scancel_stopsEveryRank_keepsTheResultMarkedInterrupted_andCleansTheTarget(@TempDir Path work) throws Exception {
        Path target = Files.createDirectories(work.resolve("target"));
        Path out = work.resolve("out");
        String name = "prism-scancel-" + ProcessHandle.current().pid();
        Process srun = new ProcessBuilder(List.of("srun", "-n", "2", "--overcommit", "--time=5", "--job-name", name,
                SCRIPT.toString(), "run", "create_files", "--target", target.toString(), "-p", "files=3000000",
                "--launcher", "slurm", "--out", out.toString(), "--run-id", "cancelled", "-q"))
                .redirectOutput(work.resolve("stdout.txt").toFile()).redirectError(work.resolve("stderr.txt").toFile()).start();
        Targets.awaitFiles(target);
        new ProcessBuilder("scancel", "--name", name).start().waitFor(30, TimeUnit.SECONDS);
        assertThat(srun.waitFor(2, TimeUnit.MINUTES)).as("srun ended").isTrue();

        Path doc = out.resolve("cancelled/01-create_files-t2.json");
        assertThat(doc).as(Files.readString(work.resolve("stderr.txt"))).exists();
        JsonNode run = new ObjectMapper().readTree(doc.toFile());
        assertThat(run.at("/failure/kind").asText()).isEqualTo("INTERRUPTED");
        assertThat(run.at("/measurements/create/count").asLong()).isPositive();
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void slurmUp_afterAnInterruptedRun_startsFromCleanState() throws Exception {
        Path root = SCRIPT.getParent();
        Process held = new ProcessBuilder("sbatch", "--parsable", "--wrap", "sleep 300").start();
        assertThat(held.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String job = new String(held.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        // the daemons die as in a crash, the job's state stays on disk
        new ProcessBuilder("pkill", "-9", "-x", "slurmctld").start().waitFor();
        new ProcessBuilder("pkill", "-9", "-x", "slurmd").start().waitFor();
        dev.prism.testing.Await.until("the killed slurmctld and slurmd are gone", () -> ProcessHandle.allProcesses()
                .noneMatch(h -> h.info().command().orElse("").matches(".*/slurm(ctld|d)")));
        // to a file: the daemons it starts must not hold a pipe of this test open
        Path log = Files.createTempFile("slurm-up", ".log");
        Process up = new ProcessBuilder(root.resolve("scripts/slurm-up.sh").toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertThat(up.waitFor(2, TimeUnit.MINUTES)).isTrue();
        String said = Files.readString(log);
        Files.delete(log);
        assertThat(up.exitValue()).as(said).isZero();
        Process queue = new ProcessBuilder("squeue", "-h", "-j", job).redirectErrorStream(true).start();
        String jobs = new String(queue.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        queue.waitFor(30, TimeUnit.SECONDS);
        // the controller answers, and knows nothing of the job the crash left behind
        assertThat(jobs).contains("Invalid job id specified");
    }

}
