package dev.prism;

import dev.prism.internal.output.Durations;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A typed, documented benchmark parameter: name, type, default, unit, accepted range and a line of
 * documentation. Values are checked when set ({@link #check}) or parsed from the command line
 * ({@link #parse}); a bad one raises {@link IllegalArgumentException} naming the parameter, the
 * value and the accepted range.
 *
 * <pre>{@code
 * import dev.prism.Parameter;
 *
 * var files = Parameter.ofInt("files", 100, 1, 1_000_000, "files", "files each rank creates");
 * System.out.println(files.parse("5000") + " in " + files.range());
 * }</pre>
 *
 * @param <T> the value type
 */
public final class Parameter<T> {
    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final String unit;
    private final String description;
    private final T min;
    private final T max;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    /** A rule beyond min..max: returns what is wrong with a value, or null. */
    private final Function<T, String> rule;
    private final String rangeText;

    private Parameter(String name, Class<T> type, T defaultValue, String unit, String description,
                      T min, T max, Function<String, T> parser, Function<T, String> formatter) {
        this(name, type, defaultValue, unit, description, min, max, parser, formatter, v -> null, null);
    }

    private Parameter(String name, Class<T> type, T defaultValue, String unit, String description,
                      T min, T max, Function<String, T> parser, Function<T, String> formatter,
                      Function<T, String> rule, String rangeText) {
        if (name == null || !name.matches("[a-z][a-zA-Z0-9_]*")) {
            throw new IllegalArgumentException("name must be an identifier starting with a lower-case"
                    + " letter (letters, digits, _), was " + (name == null ? "null" : "'" + name + "'"));
        }
        this.name = name;
        this.type = type;
        this.unit = unit;
        this.description = Objects.requireNonNull(description, "description");
        this.min = min;
        this.max = max;
        this.parser = parser;
        this.formatter = formatter;
        this.rule = rule;
        this.rangeText = rangeText;
        this.defaultValue = check(Objects.requireNonNull(defaultValue, "defaultValue"));
    }

    /** An integer parameter accepting {@code min..max} (inclusive). */
    public static Parameter<Integer> ofInt(String name, int defaultValue, int min, int max, String unit,
                                           String description) {
        return new Parameter<>(name, Integer.class, defaultValue, unit, description, min, max,
                text -> parseNumber(name, text, Integer::parseInt, "an integer"), String::valueOf);
    }

    /** A long parameter accepting {@code min..max} (inclusive). */
    public static Parameter<Long> ofLong(String name, long defaultValue, long min, long max, String unit,
                                         String description) {
        return new Parameter<>(name, Long.class, defaultValue, unit, description, min, max,
                text -> parseNumber(name, text, Long::parseLong, "an integer"), String::valueOf);
    }

    /** A decimal parameter accepting {@code min..max} (inclusive). */
    public static Parameter<Double> ofDouble(String name, double defaultValue, double min, double max, String unit,
                                             String description) {
        return new Parameter<>(name, Double.class, defaultValue, unit, description, min, max,
                text -> parseNumber(name, text, Double::parseDouble, "a number"), String::valueOf);
    }

    /** A size parameter accepting {@code min..max}; parses {@code 4096}, {@code 4KiB}, {@code 1M}. */
    public static Parameter<DataSize> ofSize(String name, DataSize defaultValue, DataSize min, DataSize max,
                                             String description) {
        return new Parameter<>(name, DataSize.class, defaultValue, "bytes", description, min, max,
                text -> parseWith(name, text, DataSize::parse), DataSize::toString);
    }

    /** A duration parameter accepting {@code min..max}; parses {@code 500ms}, {@code 2s}, {@code 1m} or ISO-8601. */
    public static Parameter<Duration> ofDuration(String name, Duration defaultValue, Duration min, Duration max,
                                                 String description) {
        return new Parameter<>(name, Duration.class, defaultValue, "duration", description, min, max,
                text -> parseWith(name, text, Parameter::parseDuration), Parameter::formatDuration);
    }

    /**
     * A comma-separated list of sizes ({@code 8KiB,1MiB,1GiB}), each in {@code min..max}, at least one.
     */
    @SuppressWarnings("unchecked")
    public static Parameter<List<DataSize>> ofSizes(String name, List<DataSize> defaultValue, DataSize min, DataSize max,
                                                   String description) {
        Class<List<DataSize>> type = (Class<List<DataSize>>) (Class<?>) List.class;
        String range = "list of " + min + ".." + max;
        return new Parameter<>(name, type, List.copyOf(defaultValue), "bytes", description, null, null,
                text -> parseWith(name, text, t -> Arrays.stream(t.split(",")).map(String::trim)
                        .filter(x -> !x.isEmpty()).map(DataSize::parse).toList()),
                list -> list.stream().map(DataSize::toString).collect(Collectors.joining(",")),
                list -> {
                    if (list.isEmpty()) {
                        return "needs at least one size";
                    }
                    for (DataSize size : list) {
                        if (size.compareTo(min) < 0 || size.compareTo(max) > 0) {
                            return "has " + size + ", outside " + min + ".." + max;
                        }
                    }
                    return null;
                }, range);
    }

    /** A true/false parameter. */
    public static Parameter<Boolean> ofBoolean(String name, boolean defaultValue, String description) {
        return new Parameter<>(name, Boolean.class, defaultValue, null, description, null, null,
                text -> parseBoolean(name, text), String::valueOf);
    }

    /** A choice among an enum's constants, written in lower case with '-' ({@code PER_RANK} → {@code per-rank}). */
    public static <E extends Enum<E>> Parameter<E> ofEnum(String name, Class<E> type, E defaultValue,
                                                          String description) {
        return new Parameter<>(name, type, defaultValue, null, description, null, null,
                text -> parseEnum(name, type, text), Parameter::formatEnum);
    }

    /**
     * A choice among some of an enum's constants ({@code accepted}, in their declaration order), written as
     * {@link #ofEnum(String, Class, Enum, String)} writes them; another constant is refused naming the accepted ones.
     */
    public static <E extends Enum<E>> Parameter<E> ofEnum(String name, Class<E> type, E defaultValue,
                                                          java.util.Set<E> accepted, String description) {
        java.util.EnumSet<E> allowed = java.util.EnumSet.copyOf(accepted);
        String range = allowed.stream().map(Parameter::formatEnum).collect(Collectors.joining("|"));
        return new Parameter<>(name, type, defaultValue, null, description, null, null,
                text -> parseEnum(name, type, text), Parameter::formatEnum,
                value -> allowed.contains(value) ? null : "must be one of " + range.replace("|", ", "), range);
    }

    /** A free-text parameter (any non-null string). */
    public static Parameter<String> ofString(String name, String defaultValue, String description) {
        return new Parameter<>(name, String.class, defaultValue, null, description, null, null,
                text -> text, text -> text);
    }

    /**
     * @return whether one value of this parameter can never hold a comma, so that {@code a,b,c} on the
     *         command line is a sweep of three values: true for numbers, sizes, durations, booleans and
     *         choices; false for lists and free text, whose commas belong to the value
     */
    public boolean sweepable() {
        return type != List.class && type != String.class;
    }

    /** @return the name used in {@code -p name=value} and in result documents */
    public String name() {
        return name;
    }

    /** @return the value type */
    public Class<T> type() {
        return type;
    }

    /** @return the default value */
    public T defaultValue() {
        return defaultValue;
    }

    /** @return the unit of the value ("files", "bytes"…), or null when it has none */
    public String unit() {
        return unit;
    }

    /** @return one line of documentation */
    public String description() {
        return description;
    }

    /** @return the accepted values as text: {@code 1..1000000}, {@code per-rank|shared}, {@code true|false} */
    public String range() {
        if (rangeText != null) {
            return rangeText;
        }
        if (type.isEnum()) {
            return Arrays.stream(type.getEnumConstants()).map(formatter).collect(Collectors.joining("|"));
        }
        if (type == Boolean.class) {
            return "true|false";
        }
        if (min == null) {
            return "any text";
        }
        return format(min) + ".." + format(max);
    }

    /**
     * @return {@code value} when it is accepted
     * @throws IllegalArgumentException naming this parameter, the value and the accepted range
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public T check(T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null; accepted: " + range());
        }
        if (min != null && (((Comparable) value).compareTo(min) < 0 || ((Comparable) value).compareTo(max) > 0)) {
            throw new IllegalArgumentException(name + " must be in " + range() + ", was " + format(value));
        }
        String violation = rule.apply(value);
        if (violation != null) {
            throw new IllegalArgumentException(name + " " + violation + "; accepted: " + range() + ", was " + format(value));
        }
        return value;
    }

    /**
     * @return the checked value written in {@code text}
     * @throws IllegalArgumentException naming this parameter when the text is not a value or out of range
     */
    public T parse(String text) {
        return check(parser.apply(text.trim()));
    }

    /** @return the value as {@link #parse} reads it back */
    public String format(T value) {
        return formatter.apply(value);
    }

    /** Formats a value of unknown static type; fails when it is not of this parameter's type. */
    String formatUnchecked(Object value) {
        return format(type.cast(value));
    }

    @Override
    public String toString() {
        return name + "=" + format(defaultValue) + " (" + range() + ")";
    }

    private static <N> N parseNumber(String name, String text, Function<String, N> parse, String what) {
        // ASCII only: Java would read full-width or other scripts' digits as numbers, which no shell user means
        if (!text.chars().allMatch(c -> c < 128)) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not " + what + " (ASCII digits only)");
        }
        try {
            return parse.apply(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' is not " + what);
        }
    }

    private static <V> V parseWith(String name, String text, Function<String, V> parse) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static Boolean parseBoolean(String name, String text) {
        switch (text.toLowerCase(Locale.ROOT)) {
            case "true": case "yes": case "on": case "1": return true;
            case "false": case "no": case "off": case "0": return false;
            default: throw new IllegalArgumentException(name + ": '" + text + "' is not true or false");
        }
    }

    private static <E extends Enum<E>> E parseEnum(String name, Class<E> type, String text) {
        for (E constant : type.getEnumConstants()) {
            if (formatEnum(constant).equalsIgnoreCase(text.replace('_', '-'))) {
                return constant;
            }
        }
        throw new IllegalArgumentException(name + ": '" + text + "' is not one of "
                + Arrays.stream(type.getEnumConstants()).map(Parameter::formatEnum).collect(Collectors.joining("|")));
    }

    private static String formatEnum(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Suffixes with their size in nanoseconds; two-letter ones first, since "ms" also ends in "s". */
    private static final String[] DURATION_SUFFIXES = {"ns", "us", "µs", "ms", "h", "m", "s"};
    private static final long[] DURATION_NANOS = {1L, 1_000L, 1_000L, 1_000_000L, 3_600_000_000_000L,
            60_000_000_000L, 1_000_000_000L};

    /** Parses {@code 250ms}, {@code 10s}, {@code 5m}, {@code 1h}, {@code 750us}, {@code 20ns} or ISO-8601 {@code PT1S}. */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("p")) {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        }
        for (int i = 0; i < DURATION_SUFFIXES.length; i++) {
            if (t.endsWith(DURATION_SUFFIXES[i])) {
                String number = t.substring(0, t.length() - DURATION_SUFFIXES[i].length()).trim();
                try {
                    return Duration.ofNanos(Math.multiplyExact(Long.parseLong(number), DURATION_NANOS[i]));
                } catch (NumberFormatException | ArithmeticException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration; use e.g. 500ms, 10s, 5m, 1h");
    }

    static String formatDuration(Duration d) {
        return Durations.format(d);
    }
}
