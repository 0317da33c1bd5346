package dev.prism.cli;

import dev.prism.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.prism.cli.Cli.prism;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --out} on a small loop-mounted ext4 that a racing process fills while the run goes on. Before, the run ended
 * with exit 1, nothing on stdout and no document: three repetitions of measurements lost though they were in memory
 * (issue 38). Now the table reaches stdout, stderr names the file, call and errno that failed, and every run's
 * document is kept in a directory it names.
 */
class FullOutputCliTest {
    @TempDir
    Path work;
    private Path mounted;
    private Path kept;

    @AfterEach
    void unmount() throws Exception {
        if (mounted != null) {
            run("umount", "-l", mounted.toString());
        }
        if (kept != null) {
            dev.prism.DirectoryRemoval.of(kept);
        }
    }

    @Test
    void anOutputDirectoryFilledMidRun_losesNoMeasurement() throws Exception {
        dev.prism.testing.Required.loopMounts();
        Path image = work.resolve("out.ext4");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(8L << 20);
        }
        run("mkfs.ext4", "-q", "-F", image.toString());
        Path out = Files.createDirectory(work.resolve("out"));
        run("mount", "-o", "loop", image.toString(), out.toString());
        mounted = out;
        Path target = Files.createDirectory(work.resolve("target"));

        CompletableFuture<Cli.Outcome> running = CompletableFuture.supplyAsync(() -> prism("run", "create_files", "delete_files",
                "--target", target.toString(), "--out", out.toString(), "--run-id", "full", "-p", "files=300", "--reps", "3"));
        // the first rank document is there: the output works; now it fills up before the run's own documents come
        Await.until("the first rank document is written", () -> {
            try (Stream<Path> walk = Files.walk(out)) {
                return walk.anyMatch(p -> p.getFileName().toString().equals("rank-0.json"));
            }
        });
        run("fallocate", "-l", "16M", out.resolve("filler").toString()); // fails at the free space's end…
        run("sh", "-c", "cat /dev/zero > " + out.resolve("rest") + " 2>/dev/null; true"); // …and this takes the rest
        Cli.Outcome o = running.get(5, TimeUnit.MINUTES);

        assertThat(o.exit()).as(o.err()).isEqualTo(1);
        assertThat(o.out()).contains("create_files").contains("delete_files").contains("create").contains("unlink");
        assertThat(o.err()).contains("prism: could not write the result document of ").contains("(ENOSPC)")
                .contains("it and the runs after it were not written there");
        Matcher where = Pattern.compile("every run's document is kept in (\\S+) instead").matcher(o.err());
        assertThat(where.find()).as(o.err()).isTrue();
        kept = Path.of(where.group(1));
        assertThat(kept.resolve("01-create_files-t1.json")).exists();
        assertThat(Files.readString(kept.resolve("02-delete_files-t1.json"))).contains("\"repetitions\"");
        assertThat(dev.prism.Results.load(kept)).hasSize(2).allSatisfy(r -> assertThat(r.repetitions()).hasSize(3));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            throw new IOException(String.join(" ", command) + " did not end: " + output);
        }
        if (p.exitValue() != 0 && !command[0].equals("fallocate")) {
            dev.prism.testing.Required.loopCommandFailed(String.join(" ", command), output);
        }
    }
}
