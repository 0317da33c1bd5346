package dev.prism.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static dev.prism.testing.Golden.matches;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the script {@code prism sbatch} writes, line by line, with the path to {@code prism} (this checkout's) as
 * {@code <prism>}. Regenerate deliberately with
 * {@code mvn test -pl prism-cli -Dprism.updateGolden=true -Dtest=SbatchGoldenTest} and say why in the commit.
 */
class SbatchGoldenTest {
    private static String script(String... args) {
        Cli.Outcome o = Cli.prism(args);
        assertThat(o.exit()).as(o.err()).isZero();
        // where the script finds prism depends on the checkout and the working directory
        return o.out().replaceFirst("(?m)^PRISM=\\$\\{PRISM:-.*}$", "PRISM=\\${PRISM:-<prism>}");
    }

    @Test
    void aSweepOfTaskCountsOverNodes() throws IOException {
        matches("sbatch-posix.sh", script("sbatch", "--tasks", "8,16,32", "--nodes", "4", "--job-name", "qualify", "--",
                "create_files", "list_files", "--target", "/mnt/lustre/prism", "-p", "files=1000"));
    }

    @Test
    void torchAcrossNodes() throws IOException {
        matches("sbatch-torch.sh", script("sbatch", "--tasks", "8", "--nodes", "2", "--", "fsdp_save", "--target",
                "/mnt/lustre/prism"));
    }

    @Test
    void whatSbatchAddsIsRefusedInTheRunArguments() {
        // before, a script with --torch-nodes twice was written, and every 'prism run' in it failed under sbatch
        Cli.Outcome o = Cli.prism("sbatch", "--tasks", "8", "--nodes", "2", "--", "fsdp_save", "--target", "/mnt/lustre/prism",
                "--torch-nodes", "2");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("--torch-nodes is what 'prism sbatch' adds").doesNotContain("Exception");
        assertThat(o.out()).isEmpty();
    }
}
