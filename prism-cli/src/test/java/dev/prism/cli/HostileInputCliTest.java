package dev.prism.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files handed to qualify, gate and compare as a careless or hostile user might: a FIFO (hung every command for
 * ever), a device that never ends ({@code /dev/zero}: an OutOfMemoryError), a directory, an oversized file, a result
 * document missing a field ({@code No enum constant dev.prism.Status.}, no path) and a gate file with a typo (ignored,
 * widening the expectation). Each is refused at once with exit 2, naming the path and what is wrong (issue 38).
 */
class HostileInputCliTest {
    @TempDir
    Path work;
    private Path results;
    private Path fifo;

    @BeforeEach
    void aResultAndAFifo() throws Exception {
        Cli.Outcome run = prism("run", "create_files", "--target", work.toString(), "-q", "--out",
                work.resolve("out").toString(), "--run-id", "r", "-p", "files=20", "--reps", "2");
        assertThat(run.exit()).as(run.err()).isZero();
        results = work.resolve("out").resolve("r");
        fifo = work.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).isTrue();
    }

    @Test
    void aFifo_isRefusedAtOnce_byQualifyGateAndCompare() throws Exception {
        assertRefused(new String[]{"qualify", fifo.toString(), "--target", work.toString(), "--plan"},
                "requirements file " + fifo + " is a FIFO, not a regular file");
        assertRefused(new String[]{"gate", fifo.toString(), results.toString()},
                "gate file " + fifo + " is a FIFO, not a regular file");
        assertRefused(new String[]{"compare", fifo.toString(), results.toString()},
                "result document " + fifo + " is a FIFO, not a regular file");
    }

    @Test
    void aDeviceADirectoryAndAnOversizedFile_areRefused_namingThePath() throws Exception {
        assertRefused(new String[]{"gate", "/dev/zero", results.toString()},
                "gate file /dev/zero is a character device, not a regular file");
        assertRefused(new String[]{"qualify", work.toString(), "--target", work.toString(), "--plan"},
                "requirements file " + work + " is a directory, not a regular file");
        Path huge = work.resolve("huge.json");
        try (var file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(2L << 20); // sparse: 2 MiB of nothing, over the 1 MiB a settings file may hold
        }
        assertRefused(new String[]{"gate", huge.toString(), results.toString()},
                "gate file " + huge + " holds 2097152 bytes, over the 1048576 a gate file may have");
    }

    @Test
    void aResultDocumentMissingAField_namesTheFileAndTheField() throws Exception {
        Path document;
        try (var files = Files.list(results)) {
            document = files.filter(f -> f.getFileName().toString().matches("\\d+-create_files-t1\\.json")).findFirst().orElseThrow();
        }
        String text = Files.readString(document);
        Path broken = work.resolve("broken");
        Files.createDirectories(broken);
        Files.writeString(broken.resolve(document.getFileName()), text.replaceFirst("\"status\" *: *\"PASS\"", "\"status\":\"\""));
        assertRefused(new String[]{"compare", broken.toString(), results.toString()},
                broken.resolve(document.getFileName()) + ": field 'status' must be one of [PASS, FAIL], was ''");
    }

    @Test
    void aTypoInAGateFile_isAnError_namingTheKeyAndTheKnownOnes() throws Exception {
        Path gate = Files.writeString(work.resolve("gate.json"), "{\"expectations\": [{\"benchmark\": \"create_files\","
                + " \"taks\": 1, \"op\": \"create\", \"stat\": \"p99\", \"below\": \"1s\"}]}");
        assertRefused(new String[]{"gate", gate.toString(), results.toString()}, gate + ": expectation 0: unknown key"
                + " 'taks'; known keys: benchmark, tasks, op, stat, below, above, notSlowerThanBaselineBy");
        Path top = Files.writeString(work.resolve("top.json"), "{\"expectation\": []}");
        assertRefused(new String[]{"gate", top.toString(), results.toString()},
                top + ": unknown key 'expectation'; known keys: expectations");
    }

    /** Runs the command off this thread, so a command that hangs on the FIFO fails the test instead of hanging it. */
    private static void assertRefused(String[] args, String message) throws Exception {
        Cli.Outcome o = CompletableFuture.supplyAsync(() -> prism(args)).get(Duration.ofMinutes(2).toSeconds(), TimeUnit.SECONDS);
        assertThat(o.exit()).as(o.err()).isEqualTo(2);
        assertThat(o.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
