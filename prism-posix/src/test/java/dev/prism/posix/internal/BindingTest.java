package dev.prism.posix.internal;

import dev.prism.PrismException;
import dev.prism.posix.Posix;
import dev.prism.testing.Jdks;
import dev.prism.testing.Required;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The two bindings to libc make the same calls with the same outcomes: {@link BindingProbe} makes every call, the
 * failures among them, once through JNA and once through java.lang.foreign in a JDK 22+ JVM (scripts/test.sh
 * requires one: PRISM_REQUIRE_FFM=1), and their reports must read alike, errno names and numbers included. The
 * JDK's "restricted method" warning must not reach the user with the flag {@code ./prism} passes.
 */
class BindingTest {
    @TempDir
    Path work;

    @Test
    void javaLangForeign_andJna_makeTheSameCalls_withTheSameErrnos() throws Exception {
        Path java = Jdks.newest(22).orElse(null);
        Required.require(java != null, "PRISM_REQUIRE_FFM", "no JDK 22 or later under /usr/lib/jvm (java.lang.foreign)");
        Probe ffm = probe(java, "ffm", work.resolve("ffm"));
        Probe jna = probe(java, "jna", work.resolve("jna"));
        assertThat(ffm.lines.get(0)).startsWith("java.lang.foreign (JDK ");
        assertThat(jna.lines.get(0)).startsWith("JNA ");
        assertThat(ffm.lines.subList(1, ffm.lines.size())).as("what java.lang.foreign's calls did, against JNA's")
                .containsExactlyElementsOf(jna.lines.subList(1, jna.lines.size()));
        assertThat(ffm.lines).contains(
                "open missing failed: openat(AT_FDCWD, \"DIR/missing\", O_RDONLY): ENOENT (2) [ENOENT]",
                "write = 10000", "read back equal = true", "stat = size 10500 mode 0100640 links 1 blocks " + ffm.blocks(),
                "strerror ENOENT = No such file or directory", "address of a view = 100");
        assertThat(String.join("\n", ffm.lines)).contains("create again failed: openat", "EEXIST (17)",
                "flock held elsewhere failed: flock(FD \"DIR/a.bin\", LOCK_EX|LOCK_NB): EAGAIN (11)", "close twice failed: close", "EBADF (9)",
                "fadvise bad advice failed: posix_fadvise", "EINVAL (22)", "rmdir not empty failed: unlinkat", "ENOTEMPTY (39)",
                "list missing failed: openat", "rename missing failed: renameat", "link again failed: link");
        assertThat(ffm.stderr).as("stderr of the java.lang.foreign run").doesNotContain("WARNING");
    }

    @Test
    void anUnknownOrUnavailableBinding_isRefusedNamingTheProperty() {
        assertThatThrownBy(() -> Binding.choose("ffm", 21)).isInstanceOf(PrismException.class)
                .hasMessageStartingWith("prism.posix.binding=ffm needs JDK 22 or later (java.lang.foreign)");
        assertThatThrownBy(() -> Binding.choose("panama", 25))
                .hasMessage("prism.posix.binding is panama; it takes ffm, jna or auto");
    }

    @Test
    void thisJvm_usesTheBindingItsVersionAllows() {
        assertThat(Posix.binding()).startsWith(Runtime.version().feature() >= 22 ? "java.lang.foreign" : "JNA ");
    }

    private record Probe(List<String> lines, String stderr) {
        String blocks() {
            return lines.stream().filter(l -> l.startsWith("stat = ")).findFirst().orElse("").replaceAll(".* blocks ", "");
        }
    }

    private static Probe probe(Path java, String binding, Path dir) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-Dprism.posix.binding=" + binding, "-cp", System.getProperty("java.class.path"),
                BindingProbe.class.getName(), dir.toString()));
        Process p = new ProcessBuilder(command).redirectError(dir.resolveSibling(binding + ".err").toFile()).start();
        Files.createDirectories(dir);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the %s probe ended", binding).isTrue();
        String err = Files.readString(dir.resolveSibling(binding + ".err"));
        assertThat(p.exitValue()).as("%s probe: %s%s", binding, out, err).isZero();
        return new Probe(out.lines().toList(), err);
    }
}
