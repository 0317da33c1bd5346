package dev.prism;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one rank measured in one repetition: its status, how long its timed phase took, its
 * per-operation measurements and its stalls.
 *
 * <pre>{@code
 * import dev.prism.RankResult;
 * import dev.prism.Status;
 * import java.util.List;
 * import java.util.Map;
 *
 * var r = new RankResult(0, "node1", Status.PASS, null, 1_000_000, Map.of(), Map.of(), List.of());
 * System.out.println(r.phaseNanos());
 * }</pre>
 *
 * @param rank         the rank
 * @param hostname     the host it ran on
 * @param status       PASS or FAIL
 * @param failure      why it failed, or null
 * @param phaseNanos   wall time of the timed phase ({@link Workload#run}), or until it failed
 * @param measurements per operation, in the order first seen
 * @param counters     the workload's counters ({@link WorkloadContext#addCounter}), in the order first added
 * @param stalls       operations slower than the stall threshold
 * @param notes        facts as text ({@link WorkloadContext#note}): program versions, tools chosen
 * @param intervals    per operation, one measurement per interval of the timed phase ({@link Pacing#interval()});
 *                     empty without intervals
 */
public record RankResult(int rank, String hostname, Status status, Failure failure, long phaseNanos,
                         Map<String, Measurement> measurements, Map<String, Long> counters, List<Stall> stalls,
                         Map<String, String> notes, Map<String, List<Measurement>> intervals) {
    /** Copies the collections and checks that status and failure agree. */
    public RankResult {
        Objects.requireNonNull(status, "status");
        if ((status == Status.PASS) != (failure == null)) {
            throw new IllegalArgumentException("status " + status + " does not agree with failure " + failure);
        }
        measurements = Collections.unmodifiableMap(new LinkedHashMap<>(measurements));
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
        stalls = List.copyOf(stalls);
        notes = Collections.unmodifiableMap(new LinkedHashMap<>(notes));
        Map<String, List<Measurement>> copy = new LinkedHashMap<>();
        intervals.forEach((op, list) -> copy.put(op, List.copyOf(list)));
        intervals = Collections.unmodifiableMap(copy);
    }

    /** A result without intervals. */
    public RankResult(int rank, String hostname, Status status, Failure failure, long phaseNanos,
                      Map<String, Measurement> measurements, Map<String, Long> counters, List<Stall> stalls,
                      Map<String, String> notes) {
        this(rank, hostname, status, failure, phaseNanos, measurements, counters, stalls, notes, Map.of());
    }

    /** A result without notes. */
    public RankResult(int rank, String hostname, Status status, Failure failure, long phaseNanos,
                      Map<String, Measurement> measurements, Map<String, Long> counters, List<Stall> stalls) {
        this(rank, hostname, status, failure, phaseNanos, measurements, counters, stalls, Map.of());
    }
}
