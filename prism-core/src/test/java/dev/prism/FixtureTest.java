package dev.prism;

import dev.prism.internal.files.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Read-only fixtures are made once per configuration (benchmark, parameters, task count) and kept for its later
 * warm-ups and repetitions (issue 39, item 5): the builds are counted by the build itself, and each repetition's
 * timed phase reads what the one build wrote.
 */
class FixtureTest {
    @TempDir
    Path dir;

    @Test
    void aFixture_isMadeOncePerConfigurationAndRank_andEveryLaterRepetitionReadsThatOne() {
        List<String> builds = new CopyOnWriteArrayList<>();
        List<String> seen = new CopyOnWriteArrayList<>();
        Benchmark reader = Benchmark.builder("reader").workload(() -> new Workload() {
            Path tree;

            @Override
            public void setup(WorkloadContext ctx) throws Exception {
                tree = ctx.fixture("tree", made -> {
                    String build = "rank " + ctx.rank() + " of " + ctx.worldSize() + " build " + builds.size();
                    builds.add(build);
                    Files.writeString(made.resolve("made"), build);
                });
            }

            @Override
            public void run(WorkloadContext ctx) throws Exception {
                try (var t = ctx.time("read", tree)) {
                    seen.add(ctx.rank() + "/" + ctx.worldSize() + ": " + Files.readString(tree.resolve("made")));
                }
            }
        }).build();

        ScenarioResult result = Scenario.builder().target(dir).runId("fixtures").benchmark(reader).tasks(1, 2)
                .warmups(1).repetitions(3).build().execute();

        assertThat(result.passed()).isTrue();
        assertThat(builds).hasSize(3); // rank 0 at 1 task; ranks 0 and 1 at 2 tasks: once each
        assertThat(builds.stream().filter(b -> b.contains(" of 1 ")).count()).isEqualTo(1);
        assertThat(builds.stream().filter(b -> b.contains(" of 2 ")).count()).isEqualTo(2);
        // four executions a configuration (a warm-up and three repetitions), each rank reading its one build
        assertThat(seen).hasSize(4 + 2 * 4);
        for (String reading : seen) {
            String who = reading.substring(0, reading.indexOf(':'));
            String rank = who.substring(0, who.indexOf('/'));
            String world = who.substring(who.indexOf('/') + 1);
            assertThat(reading).endsWith("rank " + rank + " of " + world + " build " + buildIndex(builds, rank, world));
        }
        for (RunResult run : result.runs()) {
            for (RepetitionResult repetition : run.repetitions()) {
                // every kept repetition took the fixture the warm-up made
                assertThat(repetition.counters()).containsEntry("fixtures_reused", (long) run.tasks());
            }
        }
        assertThat(dir.resolve("prism-fixtures")).doesNotExist();
    }

    /**
     * Issue 55, item 2, for fixtures: another user who may write the target renames the run directory while a fixture
     * is being built and puts a link in its place to a directory of their own, laid out as a run directory is. The
     * fixture is made, built, stamped and later found through the run directory the rank holds: nothing lands in the
     * linked directory, and the build's files are in the run's own directory, under its new name.
     */
    @Test
    void aRunDirectoryRenamedAndLinkedAwayDuringAFixturesBuild_getsNothingMadeWhereTheLinkPoints() throws Exception {
        Path target = Files.createDirectory(dir.resolve("target"));
        // the neighbour's directory, laid out as the run directory is, down to the fixture the build writes into
        Path victim = Files.createDirectories(dir.resolve("victim").resolve("fixtures-0"));
        Path victimTree = Files.createDirectory(victim.resolve("tree"));
        Path moved = target.resolve("moved-away");
        List<String> built = new CopyOnWriteArrayList<>();
        Benchmark reader = Benchmark.builder("reader").workload(() -> new Workload() {
            @Override
            public void setup(WorkloadContext ctx) throws Exception {
                ctx.fixture("tree", made -> {
                    Path run = ctx.workDirectory().getParent();
                    Files.move(run, moved);
                    Files.createSymbolicLink(run, victim.getParent());
                    Files.writeString(made.resolve("made"), "by the build");
                    built.add(made.toString());
                });
            }

            @Override
            public void run(WorkloadContext ctx) {
                ctx.measure("nothing", () -> { });
            }
        }).build();

        ScenarioResult result = Scenario.builder().target(target).runId("swapped").benchmark(reader).tasks(1)
                .warmups(0).repetitions(1).build().execute();

        assertThat(built).hasSize(1);
        assertThat(victimTree).as("the fixture in the directory the link points to").isEmptyDirectory();
        try (var left = Files.list(victim)) {
            assertThat(left).as("the directory the link points to").containsExactly(victimTree);
        }
        assertThat(moved.resolve("fixtures-0").resolve("tree").resolve("made")).hasContent("by the build");
        assertThat(moved.resolve("fixtures-0").resolve(".tree.made")).as("the build's stamp").exists();
        assertThat(result.cleanup()).as("clean-up").contains("no longer the directory");
    }

    private static int buildIndex(List<String> builds, String rank, String world) {
        for (int i = 0; i < builds.size(); i++) {
            if (builds.get(i).startsWith("rank " + rank + " of " + world + " ")) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aBuildThatFailed_anotherConfigurationsFixture_andALinkInItsPlace_areMadeAgain_neverFollowingTheLink()
            throws Exception {
        Path parent = Fixtures.rankFixtures(dir.resolve("run"), 0);
        Files.createDirectories(dir.resolve("run"));
        List<String> builds = new ArrayList<>();
        Fixture failing = made -> {
            builds.add("failing");
            throw new java.io.IOException("disk full");
        };
        assertThatThrownBy(() -> Fixtures.ensure(parent, "tree", "a tasks=1", failing)).hasMessage("disk full");
        Fixture good = made -> {
            builds.add("good");
            Files.writeString(made.resolve("f"), "x");
        };
        assertThat(Fixtures.ensure(parent, "tree", "a tasks=1", good)).as("made again after a failed build").isTrue();
        assertThat(Fixtures.ensure(parent, "tree", "a tasks=1", good)).as("kept").isFalse();
        assertThat(Fixtures.ensure(parent, "tree", "a tasks=2", good)).as("another configuration's").isTrue();
        assertThat(builds).containsExactly("failing", "good", "good");

        // someone swaps the fixture for a link to a directory of theirs: it is removed, what it points to left alone
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Files.writeString(theirs.resolve("precious"), "keep");
        dev.prism.internal.files.RunDirectory.deleteTree(parent.resolve("tree"));
        Files.createSymbolicLink(parent.resolve("tree"), theirs);
        assertThat(Fixtures.ensure(parent, "tree", "a tasks=2", good)).isTrue();
        assertThat(parent.resolve("tree")).isDirectory();
        assertThat(Files.isSymbolicLink(parent.resolve("tree"))).isFalse();
        assertThat(theirs.resolve("precious")).hasContent("keep");
        assertThat(Files.isDirectory(parent.resolve("tree"), LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    @Test
    void aFixtureName_thatIsNotAPlainName_isRefusedNamingIt() {
        for (String name : new String[]{"../escape", "a/b", ".hidden", "", "x".repeat(101)}) {
            assertThatThrownBy(() -> Fixtures.requirePlainName(name)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("fixture name '" + name + "'");
        }
        assertThat(Fixtures.requirePlainName("working-tree_1.v2")).isEqualTo("working-tree_1.v2");
    }
}
