package dev.prism;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SweepTest {
    static final Parameter<Integer> FILES = Parameter.ofInt("files", 10, 1, 1_000_000, "files", "files");
    static final Parameter<Integer> DEPTH = Parameter.ofInt("depth", 1, 1, 64, "levels", "levels");
    static final Parameter<String> LABEL = Parameter.ofString("label", "a,b", "a text, commas and all");

    private static Benchmark base() {
        return Benchmark.builder("swept").parameters(Parameters.defaults(List.of(FILES, DEPTH, LABEL))).run(ctx -> { }).build();
    }

    @Property(tries = 50)
    void everyCombination_onceEach_theFirstParameterVaryingSlowest(@ForAll @IntRange(min = 1, max = 6) int files,
                                                                   @ForAll @IntRange(min = 1, max = 6) int depths) {
        String[] f = IntStream.rangeClosed(1, files).mapToObj(i -> String.valueOf(i * 100)).toArray(String[]::new);
        Integer[] d = IntStream.rangeClosed(1, depths).boxed().toArray(Integer[]::new);
        List<Benchmark> configurations = Sweep.of(base()).param("files", f).param(DEPTH, d).benchmarks();
        assertThat(configurations).hasSize(files * depths);
        java.util.Set<String> distinct = configurations.stream().map(b -> b.parameters().get(FILES) + "/" + b.parameters().get(DEPTH))
                .collect(Collectors.toCollection(HashSet::new));
        assertThat(distinct).hasSize(files * depths);
        assertThat(configurations.get(0).parameters().get(FILES)).isEqualTo(100);
        assertThat(configurations.get(depths - 1).parameters().get(FILES)).isEqualTo(100);
        assertThat(configurations.get(configurations.size() - 1).parameters().get(DEPTH)).isEqualTo(depths);
        assertThat(configurations).allSatisfy(b -> assertThat(b.parameters().get(LABEL)).isEqualTo("a,b"));
    }

    @Test
    void aProvidersBenchmark_isMadeAgainByItsProvider_keepingWhatWasSet() {
        Benchmark sleep = Benchmarks.create("test_sleep", Map.of("sleep_ms", "3"));
        List<Benchmark> swept = Sweep.of(sleep).param("slow_rank", "0", "1").benchmarks();
        assertThat(swept).extracting(b -> b.parameters().asText().get("slow_rank")).containsExactly("0", "1");
        assertThat(swept).allSatisfy(b -> assertThat(b.parameters().asText()).containsEntry("sleep_ms", "3"));
        assertThat(Sweep.of(sleep).benchmarks()).containsExactly(sleep);
    }

    @Test
    void whatCannotBeSwept_isSaidAtOnce_namingTheParameter() {
        assertThatThrownBy(() -> Sweep.of(base()).param("file", "1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'file' is not a parameter of swept; known: files, depth, label");
        assertThatThrownBy(() -> Sweep.of(base()).param("files", "5", "5")).hasMessageContaining("files sweeps '5' twice");
        assertThatThrownBy(() -> Sweep.of(base()).param("depth", "100")).hasMessageContaining("depth");
        assertThatThrownBy(() -> Sweep.of(base()).param("label", "x", "y")).hasMessageContaining("label takes one value");
        assertThatThrownBy(() -> Sweep.of(base()).param("files", "1").param("files", "2")).hasMessageContaining("swept already");
        String[] many = IntStream.rangeClosed(1, 100).mapToObj(String::valueOf).toArray(String[]::new);
        String[] depths = IntStream.rangeClosed(1, 11).mapToObj(String::valueOf).toArray(String[]::new);
        assertThatThrownBy(() -> Sweep.of(base()).param("files", many).param("depth", depths))
                .hasMessageContaining("make 1100 configurations; at most 1000");
    }
}
