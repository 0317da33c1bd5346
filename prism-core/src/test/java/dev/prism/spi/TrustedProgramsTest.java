package dev.prism.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedProgramsTest {

    private static Path script(Path dir, String name, String marker) throws IOException {
        Path program = dir.resolve(name);
        Files.writeString(program, "#!/bin/sh\ntouch " + marker + "\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        return program;
    }

    @Test
    void theInterpreter_isNeverFoundFromTheWorkingDirectory(@TempDir Path home) throws IOException {
        // the test runs in the module's directory, one below the project's .venv: PRISM once walked up to it. The
        // environment is given, not this JVM's, so a PRISM_PYTHON set around the test skips nothing
        assertThat(PythonInterpreter.defaultPath(null, home.toString())).isEqualTo(Path.of("/usr/bin/python3"));
        assertThat(PythonInterpreter.defaultPath("", null)).isEqualTo(Path.of("/usr/bin/python3"));
        // the operator's choice first, then the home's own .venv
        assertThat(PythonInterpreter.defaultPath("/opt/py/bin/python3", home.toString())).isEqualTo(Path.of("/opt/py/bin/python3"));
        Path venv = Files.createDirectories(home.resolve(".venv/bin")).resolve("python");
        Files.createFile(venv, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertThat(PythonInterpreter.defaultPath(null, home.toString())).isEqualTo(venv);
    }

    @Test
    void aProgramInADirectoryOthersMayWrite_isRefusedAndNeverRuns(@TempDir Path dir) throws IOException {
        Path shared = Files.createDirectory(dir.resolve("project"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path marker = dir.resolve("ran");
        Path python = script(shared, "python", marker.toString());
        assertThatThrownBy(() -> PythonInterpreter.trusted(python)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Python interpreter " + python).hasMessageContaining(shared + " on its path may be written by others");
        assertThatThrownBy(() -> ChildProcess.of(List.of(python.toString())).run()).isInstanceOf(IOException.class)
                .hasMessageContaining(python.toString());
        assertThat(marker).doesNotExist();
    }

    @Test
    void aProgramOthersMayWriteOrAnotherUserOwns_isRefused(@TempDir Path dir) throws IOException {
        Path marker = dir.resolve("ran");
        Path writable = script(dir, "writable", marker.toString());
        Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertThatThrownBy(() -> TrustedPrograms.check(writable, "git executable"))
                .hasMessageContaining("may be written by others (mode 0775)");
        dev.prism.testing.Required.root("only root can give a file to another user");
        Path foreign = script(dir, "foreign", marker.toString());
        Files.setAttribute(foreign, "unix:uid", 65534);
        assertThatThrownBy(() -> TrustedPrograms.check(foreign, "git executable")).hasMessageContaining("belongs to uid 65534");
        Path link = Files.createSymbolicLink(dir.resolve("link"), foreign);
        assertThatThrownBy(() -> TrustedPrograms.check(link, "git executable")).hasMessageContaining("belongs to uid 65534");
        assertThat(marker).doesNotExist();
    }

    @Test
    void aBareName_comesFromTheFixedPath_notFromPath() throws IOException {
        assertThat(TrustedPrograms.find("sh")).hasValueSatisfying(p -> assertThat(TrustedPrograms.PATH.split(":"))
                .contains(p.getParent().toString()));
        assertThat(TrustedPrograms.find("no-such-program-prism")).isEmpty();
        assertThatThrownBy(() -> TrustedPrograms.find("../sh")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void children_getTheAllowlistedEnvironment_neverPrismsCredentials() throws IOException {
        Map<String, String> env = TrustedPrograms.environment(Map.of("PRISM_PUSH_AUTH", "ops:s3cret",
                "PRISM_RUN_SECRET", "ab12", "AWS_SECRET_ACCESS_KEY", "k", "PYTHONPATH", "/tmp/evil", "PATH",
                "/tmp/evil:/usr/bin", "HOME", "/root", "LC_ALL", "C", "OMP_NUM_THREADS", "2", "PRISM_PASS_ENV",
                "CUDA_HOME, PRISM_PUSH_AUTH", "CUDA_HOME", "/opt/cuda"));
        assertThat(env).containsOnly(Map.entry("PATH", TrustedPrograms.PATH), Map.entry("HOME", "/root"),
                Map.entry("LC_ALL", "C"), Map.entry("OMP_NUM_THREADS", "2"), Map.entry("CUDA_HOME", "/opt/cuda"));
        // and what a real child sees
        ChildProcess.Result r = ChildProcess.of(List.of("env")).timeout(Duration.ofMinutes(1)).run();
        assertThat(r.stdout()).contains("PATH=" + TrustedPrograms.PATH + "\n").doesNotContain("PRISM_RUN_SECRET")
                .doesNotContain("PRISM_PUSH_AUTH");
    }
}
