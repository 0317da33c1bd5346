package dev.prism.torch.internal;

import dev.prism.torch.TorchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The opener each node of a multi-node torch job runs before torchrun (prism_node_opener.py, given to Python with -c),
 * run for real: it hands the command the run directory it opened, as {@code /proc/<pid>/fd/N}, only when that
 * directory holds this job's token and is no link; the command then reaches it whatever its name has become.
 */
class NodeOpenerTest {
    private static final String TOKEN = "0123456789abcdef";

    private record Ran(int exit, String output) {
    }

    /** Runs {@code shell} (sh -c, its $1 the placeholder's torch directory) behind the opener for {@code runDirectory} */
    private static Ran behindTheOpener(Path runDirectory, String token, String shell) throws Exception {
        Path python = TorchRun.defaultPython();
        List<String> command = List.of(python.toString(), "-I", "/bin/sh", "-c", shell, "sh",
                TorchRunLauncher.HELD_PLACEHOLDER + "/torch");
        List<String> wrapped = new ArrayList<>(TorchRunLauncher.throughNodeOpener(command, python, runDirectory, token));
        // the opener runs python's command, here /bin/sh's: drop the python and -I that torchrun's command has there
        int opened = wrapped.indexOf("--");
        wrapped.subList(opened + 1, opened + 3).clear();
        ProcessBuilder pb = new ProcessBuilder(wrapped).redirectErrorStream(true);
        pb.environment().put("PRISM_TEST_HELD", TorchRunLauncher.HELD_PLACEHOLDER + "/shared");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        return new Ran(p.exitValue(), output);
    }

    private static Path runDirectory(Path parent, String token) throws Exception {
        Path run = Files.createDirectory(parent.resolve("prism-run"));
        Files.createDirectories(run.resolve("torch"));
        Files.writeString(run.resolve("torch").resolve("node-token"), token);
        Files.writeString(run.resolve("torch").resolve("prism_torch_bench.py"), "# the script\n");
        return run;
    }

    @Test
    void theNodeOpenerGoesAfterPython_andBeforeTorchrunsArguments() {
        Path python = Path.of("/venv/bin/python");
        List<String> command = List.of("srun", "--nodes=2", python.toString(), "-I", "-m", "torch.distributed.run", "x");
        List<String> wrapped = TorchRunLauncher.throughNodeOpener(command, python, Path.of("/t/prism-r"), TOKEN);
        assertThat(wrapped.subList(0, 5)).containsExactly("srun", "--nodes=2", python.toString(), "-I", "-c");
        assertThat(wrapped.subList(6, wrapped.size())).containsExactly("/t/prism-r", TOKEN, "--", python.toString(), "-I",
                "-m", "torch.distributed.run", "x");
    }

    @Test
    void withItsToken_theCommandReachesTheDirectoryThroughTheOpenersDescriptor_evenRenamed(@TempDir Path scratch)
            throws Exception {
        Path run = runDirectory(scratch, TOKEN);
        Path moved = scratch.resolve("moved");
        // the command renames the run directory, then reads the script through what it was given
        // then through its working directory, which the opener set through its descriptor
        Ran ran = behindTheOpener(run, TOKEN, "mv '" + run + "' '" + moved + "' && echo \"$1 $PRISM_TEST_HELD\""
                + " && cat \"$1/prism_torch_bench.py\" && cat prism_torch_bench.py");
        assertThat(ran.exit()).as(ran.output()).isZero();
        assertThat(ran.output()).matches("(?s)/proc/\\d+/fd/\\d+/torch /proc/\\d+/fd/\\d+/shared\n# the script\n# the script\n");
    }

    @Test
    void anotherToken_isRefused_andTheCommandNeverRuns(@TempDir Path scratch) throws Exception {
        Path run = runDirectory(scratch, "another-runs-token");
        Ran ran = behindTheOpener(run, TOKEN, "echo ran");
        assertThat(ran.exit()).isEqualTo(70);
        assertThat(ran.output()).contains(run.toString()).contains("holds another run's token").doesNotContain("ran\n");
    }

    @Test
    void anotherUsersDirectory_isRefused_evenWithTheToken(@TempDir Path scratch) throws Exception {
        dev.prism.testing.Required.root("giving a directory to another user needs root");
        Path run = runDirectory(scratch, TOKEN);
        Files.setAttribute(run, "unix:uid", 65534);
        Ran ran = behindTheOpener(run, TOKEN, "echo ran");
        assertThat(ran.exit()).isEqualTo(70);
        assertThat(ran.output()).contains(run.toString()).contains("owned by uid 65534").doesNotContain("ran\n");
    }

    @Test
    void aLinkInTheRunDirectorysPlace_isRefused_notFollowed(@TempDir Path scratch) throws Exception {
        Path real = runDirectory(scratch, TOKEN);
        Path link = Files.createSymbolicLink(scratch.resolve("linked"), real);
        Ran ran = behindTheOpener(link, TOKEN, "echo ran");
        assertThat(ran.exit()).isEqualTo(70);
        // open(2) says ENOTDIR for a link met with O_DIRECTORY|O_NOFOLLOW, ELOOP without O_DIRECTORY
        assertThat(ran.output()).contains(link.toString()).contains("O_NOFOLLOW").containsAnyOf("(20)", "(40)")
                .doesNotContain("ran\n");
    }
}
