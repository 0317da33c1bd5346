package dev.prism.cli;

import dev.prism.Parameter;
import picocli.CommandLine;

import java.time.Duration;

/** Reads {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h} the way benchmark parameters do. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Parameter<Duration> ANY = Parameter.ofDuration("duration", Duration.ofSeconds(1),
            Duration.ZERO, Duration.ofDays(365), "any duration");

    @Override
    public Duration convert(String value) {
        try {
            return ANY.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration; use e.g. 500ms, 30s, 10m, 1h");
        }
    }
}
