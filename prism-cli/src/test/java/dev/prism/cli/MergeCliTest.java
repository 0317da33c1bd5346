package dev.prism.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code prism merge}: the run document of a run whose rank 0 was killed before it wrote it (SLURM's SIGKILL after
 * KillWait on a loaded node, the OOM killer), assembled from the documents every rank wrote itself. The observer is
 * the run document rank 0 did write in a real run: it is moved aside, as if never written, and the assembled one must
 * hold every rank's figures as it did.
 */
class MergeCliTest {
    @TempDir
    Path work;

    @Test
    void aRunWhoseRank0NeverWroteItsDocument_isAssembledFromItsRanksDocuments_withEveryFigureTheyHeld() throws Exception {
        Path target = Files.createDirectory(work.resolve("target"));
        Path out = work.resolve("out");
        Cli.Outcome run = prism("run", "create_files", "--tasks", "3", "--reps", "2", "-p", "files=300", "--launcher",
                "processes", "--target", target.toString(), "--out", out.toString(), "--run-id", "m", "-q");
        assertThat(run.exit()).as(run.err()).isZero();
        Path document = out.resolve("m/01-create_files-t3.json");
        Path ranks = out.resolve("m/01-create_files-t3");
        JsonNode written = new ObjectMapper().readTree(document.toFile());
        // rank 0 never wrote the run's document, and rank 2 was killed before it wrote its second repetition's
        Files.move(document, work.resolve("as-rank-0-wrote-it.json"));
        Files.delete(ranks.resolve("rep-1/rank-2.json"));

        Cli.Outcome merged = prism("merge", ranks.toString());
        assertThat(merged.exit()).as(merged.err()).isZero();
        assertThat(merged.out()).contains("assembled from 5 rank documents in " + ranks)
                .contains("no document from repetition 2: ranks [2]").contains("results: " + document);
        JsonNode assembled = new ObjectMapper().readTree(document.toFile());
        assertThat(assembled.at("/status").asText()).isEqualTo("FAIL");
        assertThat(assembled.at("/runId").asText()).isEqualTo("m");
        assertThat(assembled.at("/tasks").asInt()).isEqualTo(3);
        for (int rep = 0; rep < 2; rep++) {
            for (int r = 0; r < 3; r++) {
                JsonNode mine = assembled.at("/repetitions/" + rep + "/ranks/" + r);
                if (rep == 1 && r == 2) {
                    assertThat(mine.at("/failure/message").asText()).contains("rank 2 left no document");
                    continue;
                }
                JsonNode theirs = written.at("/repetitions/" + rep + "/ranks/" + r);
                assertThat(mine.at("/measurements/create/count").asLong()).as("rep %d rank %d", rep, r)
                        .isEqualTo(theirs.at("/measurements/create/count").asLong()).isEqualTo(300);
                assertThat(mine.at("/measurements/create/p99Nanos").asLong())
                        .isEqualTo(theirs.at("/measurements/create/p99Nanos").asLong());
            }
        }
        // the first repetition, whole, merges to what rank 0 merged
        assertThat(assembled.at("/repetitions/0/measurements/create/count").asLong())
                .isEqualTo(written.at("/repetitions/0/measurements/create/count").asLong()).isEqualTo(900);
        assertThat(assembled.at("/repetitions/0/measurements/create/p99Nanos").asLong())
                .isEqualTo(written.at("/repetitions/0/measurements/create/p99Nanos").asLong());
        // what compare, gate and history read
        assertThat(prism("compare", document.toString(), document.toString()).exit()).isNotEqualTo(2);

        // never over a document that exists
        Cli.Outcome again = prism("merge", ranks.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains(document + " exists");
    }

    @Test
    void aLinkOrAnotherRunsDocument_amongTheRankDocuments_isRefusedNamingIt() throws Exception {
        Path target = Files.createDirectory(work.resolve("target"));
        Path out = work.resolve("out");
        for (String id : new String[]{"a", "b"}) {
            Cli.Outcome run = prism("run", "create_files", "--tasks", "2", "-p", "files=20", "--launcher", "processes",
                    "--target", target.toString(), "--out", out.toString(), "--run-id", id, "-q");
            assertThat(run.exit()).as(run.err()).isZero();
        }
        Path ranks = out.resolve("a/01-create_files-t2");
        Path own = ranks.resolve("rep-0/rank-1.json");
        Files.delete(own);
        Files.createSymbolicLink(own, out.resolve("b/01-create_files-t2/rep-0/rank-1.json"));
        Cli.Outcome linked = prism("merge", "--json", ranks.toString());
        assertThat(linked.exit()).isEqualTo(2);
        assertThat(linked.err()).contains(own + " is not a regular file");

        Files.delete(own);
        Files.copy(out.resolve("b/01-create_files-t2/rep-0/rank-1.json"), own);
        Cli.Outcome foreign = prism("merge", "--json", ranks.toString());
        assertThat(foreign.exit()).isEqualTo(2);
        assertThat(foreign.err()).contains(own + " is of run b");
    }
}
