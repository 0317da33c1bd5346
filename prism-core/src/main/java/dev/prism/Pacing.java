package dev.prism;

import java.time.Duration;
import java.util.Objects;

/**
 * How a repetition is paced in time. By default ({@link #NONE}) a benchmark does its fixed amount of
 * work. With a {@code duration}, benchmarks whose work is a loop ({@link Benchmark#runsByTime()})
 * go on until the time is up and count what they did, after an untimed {@code ramp} whose
 * operations are not recorded. With an {@code interval}, every operation also keeps one histogram
 * per interval of the timed phase, so a stall in minute 7 shows as minute 7.
 *
 * <pre>{@code
 * import dev.prism.Pacing;
 * import java.time.Duration;
 *
 * var p = Pacing.of(Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofSeconds(1));
 * System.out.println(p);   // 60s after a 5s ramp, intervals of 1s
 * }</pre>
 *
 * @param duration how long the timed phase runs, after the ramp; zero: the benchmark's own amount of work
 * @param ramp     how long a time-based run works untimed first; zero: none
 * @param interval the length of each interval histogram; zero: none
 */
public record Pacing(Duration duration, Duration ramp, Duration interval) {
    /** A fixed amount of work, no ramp, no intervals. */
    public static final Pacing NONE = new Pacing(Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /** Checks: none negative; a ramp only with a duration; an interval of at least 10 ms and at most a day. */
    public Pacing {
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(ramp, "ramp");
        Objects.requireNonNull(interval, "interval");
        if (duration.isNegative() || duration.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException("duration must be in 0s..7d, was " + Durations.text(duration));
        }
        if (ramp.isNegative() || ramp.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("ramp must be in 0s..1d, was " + Durations.text(ramp));
        }
        if (!ramp.isZero() && duration.isZero()) {
            throw new IllegalArgumentException("ramp " + Durations.text(ramp) + " needs a duration: a ramp leads into a time-based run");
        }
        if (!interval.isZero() && (interval.compareTo(Duration.ofMillis(10)) < 0 || interval.compareTo(Duration.ofDays(1)) > 0)) {
            throw new IllegalArgumentException("interval must be in 10ms..1d, was " + Durations.text(interval));
        }
    }

    /** @return the pacing of a time-based run with these parts (zero for none) */
    public static Pacing of(Duration duration, Duration ramp, Duration interval) {
        return new Pacing(duration, ramp, interval);
    }

    /** @return whether the run goes by time rather than by a fixed amount of work */
    public boolean timeBased() {
        return !duration.isZero();
    }

    @Override
    public String toString() {
        return (timeBased() ? Durations.text(duration) + (ramp.isZero() ? "" : " after a " + Durations.text(ramp) + " ramp")
                : "a fixed amount of work") + (interval.isZero() ? "" : ", intervals of " + Durations.text(interval));
    }

    /** Formatting kept here so the public record needs no internal import in its signature. */
    private static final class Durations {
        static String text(Duration d) {
            return dev.prism.internal.output.Durations.format(d);
        }
    }
}
