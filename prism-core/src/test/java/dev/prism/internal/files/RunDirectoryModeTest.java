package dev.prism.internal.files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

class RunDirectoryModeTest {

    @Test
    void theRunDirectory_isForThisUserAlone(@TempDir Path target) throws IOException {
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path run = RunDirectory.create(target, "mode-test");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(run))).isEqualTo("rwx------");
    }
}
