package dev.prism.spi;

import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.internal.output.ResultJson;

/**
 * For a {@link dev.prism.Launcher} of a plugin's own (torchrun's workers, say): writes one rank's result where PRISM's
 * coordinator and {@code prism merge} look for it, as {@code rank-<r>.json} ({@code prism.rank/1}) in the plan's rank
 * output directory, atomically, so that a rank that dies leaves its last whole document or none.
 *
 * <pre>{@code
 * import dev.prism.spi.RankDocuments;
 *
 * // inside a launcher, once a rank's result is known:
 * // dev.prism.spi.RankDocuments.write(plan, rankResult);
 * System.out.println(RankDocuments.SCHEMA);
 * }</pre>
 */
public final class RankDocuments {
    /** The schema of a rank's document. */
    public static final String SCHEMA = ResultJson.RANK_SCHEMA;

    private RankDocuments() {
    }

    /** Writes {@code rank}'s document for {@code plan}; does nothing when the plan names no rank output directory. */
    public static void write(RunPlan plan, RankResult rank) {
        ResultJson.writeRank(plan, rank);
    }
}
