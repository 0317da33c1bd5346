package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code -p syscalls=kernel} where the kernel trace cannot serve failed after the benchmark's set-up had written to
 * the target (issue 38); it is refused before any work, naming what is missing. Here bpftrace is hidden from a prism
 * JVM of its own (in a mount namespace of its own); not being root is refused the same way, one check earlier.
 */
class KernelTracingRefusalTest {
    @TempDir
    Path work;

    @Test
    void syscallsKernelWithoutBpftrace_isRefusedBeforeAnythingIsWritten() throws Exception {
        Path target = Files.createDirectory(work.resolve("target"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> prismCommand = List.of(java, "-cp", System.getProperty("java.class.path"),
                PrismCommand.class.getName(), "run", "tar_extract", "--target", target.toString(), "-p", "syscalls=kernel",
                "-p", "files=10", "-q");
        // PRISM takes programs only from the fixed system path, not PATH: bpftrace is hidden from this one prism by an
        // empty, non-executable file mounted over it in a mount namespace of its own (the host's stays as it is)
        List<String> command = new java.util.ArrayList<>();
        java.util.Optional<Path> bpftrace = dev.prism.spi.TrustedPrograms.find("bpftrace");
        if (bpftrace.isPresent()) {
            Path empty = Files.createFile(work.resolve("not-bpftrace"));
            command.addAll(List.of("unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                    "mount --bind \"$0\" \"$1\" && shift && exec \"$@\"", empty.toString(), bpftrace.get().toString()));
        }
        command.addAll(prismCommand);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(work.resolve("out.txt").toFile())
                .redirectError(work.resolve("err.txt").toFile());
        builder.environment().put("PRISM_SUPERVISED", "1"); // this JVM is the run's: no supervisor of its own
        Process prism = builder.start();
        assertThat(prism.waitFor(2, TimeUnit.MINUTES)).isTrue();
        String err = Files.readString(work.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(prism.exitValue()).as(err).isEqualTo(2);
        assertThat(err).contains("tar_extract: syscalls=kernel cannot trace here: bpftrace is not installed")
                .contains("nothing was written");
        try (Stream<Path> left = Files.list(target)) {
            assertThat(left).as("nothing made in the target").isEmpty();
        }
    }
}
