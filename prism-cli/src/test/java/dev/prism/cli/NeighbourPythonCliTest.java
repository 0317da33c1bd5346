package dev.prism.cli;

import dev.prism.Results;
import dev.prism.RunResult;
import dev.prism.testing.Neighbour;
import dev.prism.testing.Required;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Root's real {@code prism}, a JVM of its own started as the prism script starts it ({@code -Dprism.home}, the
 * project's .venv there), working in a directory of a group project where a neighbour — another unprivileged user —
 * planted a {@code .venv/bin/python} in the working directory and its parent, and modules named as the ones PRISM's
 * Python imports ({@code argparse.py}, {@code json.py}, …) in the working directory and in the dataset's (issue 55,
 * item 8; finding 1: such a {@code .venv} ran as root for {@code md5_check -p access=python}, such an
 * {@code argparse.py} for {@code dataset verify}). Each planted program or module leaves a marker if anything runs it:
 * none may. And while the command runs, the neighbour races the dataset directory with links to a root-only file.
 */
class NeighbourPythonCliTest {
    private static final Duration DEADLINE = Duration.ofMinutes(8);
    /** What PRISM's Python scripts import, and what a planted module would shadow were the working directory on sys.path. */
    private static final String[] MODULES = {"argparse", "json", "hashlib", "struct", "random", "zlib", "io_helpers", "os_helpers",
            "numpy", "torch", "safetensors", "pyarrow", "fsspec", "datasets", "sitecustomize", "usercustomize"};

    @TempDir
    Path home;

    record Outcome(int exit, String out, String err) {
    }

    /** Runs {@code prism args} in a JVM of its own, in {@code workingDirectory}, with {@code PRISM_PUSH_AUTH} set. */
    private static Outcome prismIn(Path workingDirectory, Path scratch, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dprism.home=" + System.getProperty("prism.home"),
                PrismCommand.class.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(scratch, "out", ".txt");
        Path err = Files.createTempFile(scratch, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().remove("PRISM_PYTHON");
        pb.environment().put("PRISM_PUSH_AUTH", "ops:neighbour-must-not-see-this");
        Process p = pb.start();
        if (!p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(1, TimeUnit.MINUTES);
            throw new AssertionError(String.join(" ", args) + " did not end within " + DEADLINE + ": "
                    + Files.readString(err));
        }
        Outcome o = new Outcome(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err,
                StandardCharsets.UTF_8));
        assertThat(o.err()).as(String.join(" ", args)).doesNotContain("\tat ").doesNotContain("Exception");
        return o;
    }

    /** @return the working directory: the neighbour's, in a group project directory, both with its .venv and modules */
    private static Path plantedProject(Neighbour neighbour) throws IOException {
        Path group = neighbour.sharedDirectory("group");
        neighbour.plantPythonInterpreter(group);
        Path work = Files.createDirectory(group.resolve("work"));
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        neighbour.own(work);
        neighbour.plantPythonInterpreter(work);
        neighbour.plantPythonModules(work, MODULES);
        return work;
    }

    @Test
    void md5CheckWithPythonAccess_belowAPlantedVenv_runsTheProjectsInterpreterOnly() throws Exception {
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path work = plantedProject(neighbour);
            Path scratch = Files.createDirectory(home.resolve("scratch"));
            Path dataset = home.resolve("ds");
            Cli.Outcome created = Cli.prism("dataset", "create", dataset.toString(), "-p", "size_classes=4KiB",
                    "-p", "files_per_class=20", "-p", "total_size=1MiB", "-p", "layout=flat");
            assertThat(created.exit()).as(created.err()).isZero();
            Path target = Files.createDirectory(home.resolve("target"));
            Path results = home.resolve("results");
            neighbour.race(Neighbour.Mode.LINK, List.of(work), List.of());
            Outcome run = prismIn(work, scratch, "run", "md5_check", "-p", "access=python", "-p", "dataset=" + dataset,
                    "--target", target.toString(), "--out", results.toString(), "--run-id", "py", "-q");
            neighbour.stop();
            assertThat(run.exit()).as(run.err()).isZero();
            RunResult result = Results.load(results.resolve("py")).get(0);
            assertThat(result.counters()).containsEntry("files_read", 20L);
            neighbour.assertNothingPlantedRan();
            neighbour.assertRootOnlyUnchanged();
            neighbour.assertNoRootOnlyByte("stdout", run.out());
            neighbour.assertNoRootOnlyByte("stderr", run.err());
            neighbour.assertNoRootOnlyByteUnder(home);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"safetensors", "arrow"})
    void datasetCreateAndVerify_fromTheNeighboursProject_runNoneOfWhatItPlanted(String format) throws Exception {
        java.util.Optional<String> missing = dev.prism.torch.TorchRun.builder().build().torchMissing();
        Required.require(missing.isEmpty(), "PRISM_REQUIRE_TORCH", "no torch: " + missing.orElse(""));
        try (Neighbour neighbour = Neighbour.create(home)) {
            Path work = plantedProject(neighbour);
            Path scratch = Files.createDirectory(home.resolve("scratch"));
            // made by root from the project (its working directory the neighbour's), in a place of root's; then moved
            // into the project and opened to the group, as a shared dataset is
            Path made = home.resolve("ds");
            Outcome created = prismIn(work, scratch, "dataset", "create", made.toString(), "--format", format, "-p",
                    "samples=60", "-p", "sample_size=4KiB", "-p", "shard_size=64KiB", "-p", "seed=3");
            assertThat(created.exit()).as(created.err()).isZero();
            Path dataset = Files.move(made, work.resolve("ds"));
            Files.setPosixFilePermissions(dataset, PosixFilePermissions.fromString("rwxrwxrwx"));
            neighbour.plantPythonModules(dataset, MODULES);
            neighbour.plantPythonInterpreter(dataset);
            // the cache directory Python is given in the dataset (HF_HOME), a link to the root-only directory; and the
            // moment verify makes anything in the dataset, the neighbour puts its links there
            neighbour.own(Files.createSymbolicLink(dataset.resolve(".staging-hf"), neighbour.secretDirectory()));
            neighbour.race(Neighbour.Mode.LINK, List.of(work, dataset), List.of());
            Outcome verified = prismIn(work, scratch, "dataset", "verify", "ds");
            Outcome absolute = prismIn(scratch, scratch, "dataset", "verify", dataset.toString());
            neighbour.stop();
            for (Outcome o : List.of(created, verified, absolute)) {
                neighbour.assertNoRootOnlyByte("stdout", o.out());
                neighbour.assertNoRootOnlyByte("stderr", o.err());
            }
            for (Outcome o : List.of(verified, absolute)) {
                assertThat(o.exit()).as(o.err()).isZero();
                assertThat(o.out()).contains("60 samples").contains("every sample is its seed's");
            }
            neighbour.assertNothingPlantedRan();
            neighbour.assertRootOnlyUnchanged();
            neighbour.assertNoRootOnlyByteUnder(home);
        }
    }
}
