package dev.prism.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The result documents' mode: 0644 unless --result-mode says otherwise, set exactly whatever the umask. */
class ResultModeCliTest {

    private static String mode(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @Test
    void resultMode_setsTheDocumentsMode(@TempDir Path target, @TempDir Path out) throws IOException {
        Cli.Outcome o = Cli.prism("run", "create_files", "--target", target.toString(), "-p", "files=5",
                "--out", out.toString(), "--run-id", "private", "--result-mode", "0600", "-q");
        assertThat(o.exit()).as(o.err()).isZero();
        try (Stream<Path> docs = Files.list(out.resolve("private"))) {
            assertThat(docs.filter(p -> p.toString().endsWith(".json")).toList()).isNotEmpty()
                    .allSatisfy(p -> assertThat(mode(p)).isEqualTo("rw-------"));
        }
        Cli.Outcome plain = Cli.prism("run", "create_files", "--target", target.toString(), "-p", "files=5",
                "--out", out.toString(), "--run-id", "plain", "-q");
        assertThat(plain.exit()).as(plain.err()).isZero();
        assertThat(mode(out.resolve("plain/01-create_files-t1.json"))).isEqualTo("rw-r--r--");
    }

    @Test
    void aModeThatIsNotOctal_isAUsageError(@TempDir Path target) {
        Cli.Outcome o = Cli.prism("run", "create_files", "--target", target.toString(), "--result-mode", "0800");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("'0800' is not a file mode");
    }
}
