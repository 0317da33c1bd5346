package dev.prism;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every result says what produced it and how busy the host was, and keeps both through its JSON document. */
class ProvenanceTest {
    private static final Benchmark TOOL_USER = Benchmark.builder("tool_user").run(ctx -> {
        ctx.noteProgram("tool", "tool 1.2.3");
        ctx.noteProgram("tool", "tool 1.2.3"); // noted twice: listed once
        ctx.noteProgram("other", "other 9");
        try (var t = ctx.time("create")) {
            Files.createFile(ctx.workDirectory().resolve("f"));
        }
    }).build();

    @Test
    void aResult_namesPrismsCommit_theScenario_labels_andTheProgramsItsRanksNoted(@TempDir Path target) throws Exception {
        RunResult run = Scenario.builder().target(target).benchmark(TOOL_USER).tasks(2).repetitions(2)
                .label("firmware", "4.3").label("kernel_change", "6.1 → 6.6").build().execute().run("tool_user", 2);
        Provenance p = run.provenance();
        assertThat(p.labels()).containsExactly(java.util.Map.entry("firmware", "4.3"),
                java.util.Map.entry("kernel_change", "6.1 → 6.6"));
        assertThat(p.programs()).containsExactly(java.util.Map.entry("other", "other 9"),
                java.util.Map.entry("tool", "tool 1.2.3"));
        assertThat(run.notes()).containsEntry(WorkloadContext.PROGRAMS_NOTE, "tool, other");
        assertThat(p.command()).isEqualTo("Scenario.builder(): tool_user at tasks 2, 2 rep(s) after 0 warm-up(s), threads, seed 42");
        assertThat(p.prismVersion()).isEqualTo(run.host().prismVersion()).isNotEqualTo("unknown");
        // the observer: git itself, asked which commit this tree is at (the build read the same clone)
        String head = git("rev-parse", "HEAD");
        assertThat(p.commit()).as("outside a git clone, 'unknown'").isEqualTo(head.isEmpty() ? "unknown" : head);
    }

    @Test
    void provenanceAndConditions_surviveTheResultDocument(@TempDir Path target) throws IOException {
        RunResult run = Scenario.builder().target(target).benchmark(TOOL_USER).command("prism run tool_user --label a=b")
                .label("a", "b").build().execute().runs().get(0);
        Path file = target.resolve("run.json");
        run.writeJson(file);
        RunResult read = Results.load(file).get(0);
        assertThat(read.provenance()).isEqualTo(run.provenance());
        assertThat(read.provenance().command()).isEqualTo("prism run tool_user --label a=b");
        HostConditions c = run.conditions();
        assertThat(c.known()).isTrue();
        assertThat(c.cpus()).isPositive();
        assertThat(c.othersBusyShare()).isBetween(0.0, 1.0);
        assertThat(read.conditions().cpus()).isEqualTo(c.cpus());
        assertThat(read.conditions().othersBusyShare()).isCloseTo(c.othersBusyShare(), org.assertj.core.data.Offset.offset(0.001));
        assertThat(read.conditions().busiestOthers()).isEqualTo(c.busiestOthers());
    }

    @Test
    void aDocumentWrittenBeforeProvenance_readsAsUnknown(@TempDir Path dir) throws IOException {
        RunResult run = Scenario.builder().target(dir).benchmark(TOOL_USER).build().execute().runs().get(0);
        com.fasterxml.jackson.databind.node.ObjectNode doc = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.toJson());
        doc.remove("provenance");
        doc.remove("conditions");
        Path old = dir.resolve("old.json");
        Files.writeString(old, doc.toString());
        RunResult read = Results.load(old).get(0);
        assertThat(read.provenance()).isEqualTo(Provenance.UNKNOWN);
        assertThat(read.conditions().known()).isFalse();
        assertThat(read.conditions().toString()).isEqualTo("not recorded");
        assertThat(read.conditions().differences(run.conditions())).isEmpty();
    }

    @Test
    void labelsAreCheckedAtOnce_namingTheLabel() {
        assertThatThrownBy(() -> Scenario.builder().label("9lives", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("label key must be 1 to 64 of A-Z a-z 0-9 _ . - starting with a letter or _, was '9lives'");
        assertThatThrownBy(() -> Scenario.builder().label("firmware", "4.3\nrm -rf")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("label firmware must have a value of at most 256 characters without control characters");
        assertThatThrownBy(() -> Scenario.builder().command(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("command must be 1 to 4096 characters, was 1 characters");
    }

    @Test
    void conditionsThatDiffer_areNamedWithBothFigures() {
        HostConditions quiet = new HostConditions(2, 0.1, 0.2, 0.0, 0.02, 0.0, 0.0, "");
        HostConditions busy = new HostConditions(2, 1.9, 2.1, 0.08, 0.61, 0.0, 25.0, "yes (pid 4242) 98% of a CPU");
        assertThat(quiet.differences(quiet)).isEmpty();
        assertThat(quiet.differences(busy)).containsExactly(
                "other processes' CPU 2% vs 61% of the host (yes (pid 4242) 98% of a CPU)",
                "CPU steal 0% vs 8%",
                "memory pressure 0.0% vs 25.0%");
        assertThat(quiet.differences(new HostConditions(2, 0.1, 0.2, 0.0, 0.11, 0.0, 9.0, ""))).isEmpty();
    }

    private static String git(String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("git"));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
    }
}
