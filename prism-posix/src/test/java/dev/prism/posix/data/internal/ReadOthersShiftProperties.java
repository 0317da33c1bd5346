package dev.prism.posix.data.internal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code read_others}' choice of whose files each rank reads: a shift, so every rank's share is read exactly once, and
 * the one that sends the most reads to another node than the reader's — all of them wherever nodes hold equal numbers
 * of ranks, in SLURM's block layout (ranks 0–3 on n1, 4–7 on n2…) as in its cyclic one. The old choice, rank + 1,
 * read on the same node for 3 of 4 ranks at 4 ranks a node.
 */
class ReadOthersShiftProperties {
    @Provide
    Arbitrary<List<String>> equalLayouts() {
        return Arbitraries.integers().between(2, 9).flatMap(nodes -> Arbitraries.integers().between(1, 8).flatMap(perNode ->
                Arbitraries.of(true, false).map(block -> {
                    List<String> layout = new ArrayList<>();
                    for (int r = 0; r < nodes * perNode; r++) {
                        layout.add("n" + (block ? r / perNode : r % nodes));
                    }
                    return layout;
                })));
    }

    @Property
    void onNodesWithEqualRankCounts_everyRankReadsFromAnotherNode_andEveryShareOnce(@ForAll("equalLayouts") List<String> layout) {
        int n = layout.size();
        int shift = Md5CheckWorkload.shift(layout);
        assertThat(shift).isBetween(1, n - 1);
        Set<Integer> read = new HashSet<>();
        for (int r = 0; r < n; r++) {
            int from = (r + shift) % n;
            read.add(from);
            assertThat(layout.get(from)).as("rank %d reads rank %d's files", r, from).isNotEqualTo(layout.get(r));
        }
        assertThat(read).hasSize(n);
    }

    @Property
    void onAnyLayout_noOtherShiftCrossesNodesMoreOften(@ForAll("anyLayouts") List<String> layout) {
        int n = layout.size();
        int best = crossing(layout, Md5CheckWorkload.shift(layout));
        for (int s = 1; s < n; s++) {
            assertThat(crossing(layout, s)).isLessThanOrEqualTo(best);
        }
    }

    @Provide
    Arbitrary<List<String>> anyLayouts() {
        return Arbitraries.of("n1", "n2", "n3").list().ofMinSize(2).ofMaxSize(40);
    }

    private static int crossing(List<String> layout, int shift) {
        int c = 0;
        for (int r = 0; r < layout.size(); r++) {
            c += layout.get(r).equals(layout.get((r + shift) % layout.size())) ? 0 : 1;
        }
        return c;
    }
}
