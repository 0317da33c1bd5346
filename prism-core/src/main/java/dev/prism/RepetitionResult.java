package dev.prism;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One repetition of a benchmark at one task count: every rank's result and the measurements
 * merged over ranks.
 *
 * <pre>{@code
 * // from a ScenarioResult: result.runs().get(0).repetitions().get(0).ranks()
 * }</pre>
 *
 * @param index        0 for the first measured repetition (warm-ups are not kept)
 * @param status       PASS when every rank passed
 * @param failure      the first failure, or null
 * @param measurements per operation, merged over ranks
 * @param ranks        per-rank results, by rank
 * @param rankSpread   how the ranks' phase durations spread
 */
public record RepetitionResult(int index, Status status, Failure failure, Map<String, Measurement> measurements,
                               List<RankResult> ranks, RankSpread rankSpread) {
    /** Copies the collections. */
    public RepetitionResult {
        measurements = Collections.unmodifiableMap(new LinkedHashMap<>(measurements));
        ranks = List.copyOf(ranks);
    }
}
