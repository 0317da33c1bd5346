package dev.prism;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParameterTest {
    enum Layout { PER_RANK, SHARED }

    @Test
    void dataSize_parsesBinaryUnitsAndPrintsTheLargestWholeOne() {
        assertThat(DataSize.parse("4KiB").bytes()).isEqualTo(4096);
        assertThat(DataSize.parse("4k").bytes()).isEqualTo(4096);
        assertThat(DataSize.parse("1M").bytes()).isEqualTo(1 << 20);
        assertThat(DataSize.parse("2GiB").bytes()).isEqualTo(2L << 30);
        assertThat(DataSize.parse("1536").toString()).isEqualTo("1536B");
        assertThat(DataSize.ofMiB(3).toString()).isEqualTo("3MiB");
        assertThatThrownBy(() -> DataSize.parse("4 apples")).hasMessageContaining("'4 apples'");
        // the SI prefixes with a B are decimal, as they mean: 150KB is 150,000 B, 150KiB 153,600 B (issue 39)
        assertThat(DataSize.parse("150KB").bytes()).isEqualTo(150_000);
        assertThat(DataSize.parse("150kB").bytes()).isEqualTo(150_000);
        assertThat(DataSize.parse("150KiB").bytes()).isEqualTo(153_600);
        assertThat(DataSize.parse("4MB").bytes()).isEqualTo(4_000_000);
        assertThat(DataSize.parse("2 GB").bytes()).isEqualTo(2_000_000_000L);
        assertThat(DataSize.parse("150KB").toString()).isEqualTo("150kB");
        assertThat(DataSize.parse("4096B").toString()).isEqualTo("4KiB");
        assertThat(DataSize.parse("1500").toString()).isEqualTo("1500B");
        assertThatThrownBy(() -> DataSize.parse("99999999999P")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void enum_readsDashesOrUnderscoresInAnyCase() {
        Parameter<Layout> layout = Parameter.ofEnum("directory", Layout.class, Layout.PER_RANK, "layout");
        assertThat(layout.parse("shared")).isEqualTo(Layout.SHARED);
        assertThat(layout.parse("PER_RANK")).isEqualTo(Layout.PER_RANK);
        assertThat(layout.format(Layout.PER_RANK)).isEqualTo("per-rank");
        assertThatThrownBy(() -> layout.parse("flat")).hasMessageContaining("directory").hasMessageContaining("per-rank|shared");
    }

    @Test
    void enumWithSomeConstants_refusesTheOthers_namingTheAcceptedOnes() {
        Parameter<Layout> shared = Parameter.ofEnum("directory", Layout.class, Layout.SHARED, java.util.EnumSet.of(Layout.SHARED),
                "layout");
        assertThat(shared.range()).isEqualTo("shared");
        assertThat(shared.parse("shared")).isEqualTo(Layout.SHARED);
        assertThatThrownBy(() -> shared.parse("per-rank")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("directory must be one of shared; accepted: shared, was per-rank");
        assertThatThrownBy(() -> Parameter.ofEnum("directory", Layout.class, Layout.PER_RANK, java.util.EnumSet.of(Layout.SHARED),
                "layout")).hasMessageContaining("was per-rank");
    }

    @Test
    void duration_parsesShortUnits() {
        assertThat(Parameter.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Parameter.parseDuration("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Parameter.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Parameter.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Parameter.parseDuration("750us")).isEqualTo(Duration.ofNanos(750_000));
        assertThat(Parameter.parseDuration("PT2S")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Parameter.formatDuration(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThatThrownBy(() -> Parameter.parseDuration("soon")).hasMessageContaining("'soon'");
    }

    @Test
    void sizes_parseAListAndCheckEveryElement() {
        Parameter<java.util.List<DataSize>> classes = Parameter.ofSizes("size_classes",
                java.util.List.of(DataSize.ofKiB(8)), DataSize.ofKiB(1), DataSize.ofGiB(1), "size classes");
        assertThat(classes.parse("8KiB, 1MiB,1GiB")).containsExactly(DataSize.ofKiB(8), DataSize.ofMiB(1), DataSize.ofGiB(1));
        assertThat(classes.format(java.util.List.of(DataSize.ofKiB(8), DataSize.ofMiB(1)))).isEqualTo("8KiB,1MiB");
        assertThatThrownBy(() -> classes.parse("8KiB,2GiB")).hasMessageContaining("size_classes")
                .hasMessageContaining("2GiB").hasMessageContaining("1KiB..1GiB");
        assertThatThrownBy(() -> classes.parse(",")).hasMessageContaining("size_classes needs at least one size");
        assertThatThrownBy(() -> classes.parse("8KiB,lots")).hasMessageContaining("size_classes").hasMessageContaining("'lots'");
    }

    @Test
    void boolean_acceptsCommonSpellings() {
        Parameter<Boolean> fsync = Parameter.ofBoolean("fsync", false, "fsync");
        assertThat(fsync.parse("yes")).isTrue();
        assertThat(fsync.parse("0")).isFalse();
        assertThatThrownBy(() -> fsync.parse("maybe")).hasMessageContaining("fsync").hasMessageContaining("'maybe'");
    }

    @Test
    void defaultOutOfRange_isRefusedWhenDeclared() {
        assertThatThrownBy(() -> Parameter.ofInt("files", 0, 1, 10, "files", "files"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("files must be in 1..10, was 0");
    }

    @Test
    void parameters_reportWhatChangedFromDefaults() {
        Parameter<Integer> files = Parameter.ofInt("files", 10, 1, 100, "files", "files");
        Parameter<Boolean> fsync = Parameter.ofBoolean("fsync", false, "fsync");
        Parameters p = Parameters.defaults(java.util.List.of(files, fsync)).with(files, 20);
        assertThat(p.get(files)).isEqualTo(20);
        assertThat(p.changedFromDefaults()).containsExactly(java.util.Map.entry("files", "20"));
        assertThat(p.asText()).containsExactly(java.util.Map.entry("files", "20"), java.util.Map.entry("fsync", "false"));
    }

    @Test
    void benchmarkBuilder_checksNameAndNeedsAWorkload() {
        assertThatThrownBy(() -> Benchmark.builder("Bad Name")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Bad Name'");
        assertThatThrownBy(() -> Benchmark.builder("ok").build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs a workload");
    }
}
