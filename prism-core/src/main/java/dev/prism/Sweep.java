package dev.prism;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A benchmark swept over parameter values: every combination of the values given, the first parameter varying
 * slowest, each a configuration of its own (its own row in the table, its own result document), as JMH's
 * {@code param(name, values…)} does. Immutable: {@link #param} returns a new sweep, checking each value at once
 * against the parameter's type and range. {@code prism run -p files=100,1000} is this.
 *
 * <pre>{@code
 * import dev.prism.Benchmarks;
 * import dev.prism.Sweep;
 *
 * var configurations = Sweep.of(Benchmarks.create("create_files", java.util.Map.of()))
 *         .param("files", "100", "1000").param("file_size", "4KiB", "1MiB").benchmarks();
 * configurations.forEach(System.out::println);   // four: files=100 file_size=4KiB, files=100 file_size=1MiB, …
 * }</pre>
 */
public final class Sweep {
    /** The most configurations one sweep makes. */
    public static final int MAX_CONFIGURATIONS = 1000;

    private final Benchmark base;
    private final Map<String, List<String>> values;

    private Sweep(Benchmark base, Map<String, List<String>> values) {
        this.base = base;
        this.values = values;
    }

    /**
     * @param base the benchmark with the values that stay fixed; one its provider makes again from its parameters, or one
     *             built with {@link Benchmark#builder}
     * @return a sweep of {@code base} over nothing yet: {@link #benchmarks()} is {@code base} alone
     */
    public static Sweep of(Benchmark base) {
        return new Sweep(Objects.requireNonNull(base, "base"), Map.of());
    }

    /**
     * @param name      a declared parameter of the benchmark that is not swept already
     * @param values    its values as typed on a command line ({@code 4KiB}, {@code 100}, {@code true}), at least one, each
     *                  once; a list or text parameter takes one value (its commas are part of it)
     * @return a sweep that also goes over these values
     * @throws IllegalArgumentException naming the parameter and the value: unknown, swept twice, a value that does not
     *                                  parse or is out of range, a repeated value, or several values of a parameter
     *                                  that cannot be swept
     */
    public Sweep param(String name, String... values) {
        Parameter<?> parameter = declared(name);
        if (this.values.containsKey(name)) {
            throw new IllegalArgumentException(name + " is swept already, over " + this.values.get(name) + "; give all its values at once");
        }
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException(name + " needs at least one value to sweep, was none");
        }
        if (values.length > 1 && !parameter.sweepable()) {
            throw new IllegalArgumentException(name + " takes one value (a list or text: its commas are part of it), was "
                    + values.length);
        }
        Set<String> seen = new HashSet<>();
        List<String> checked = new ArrayList<>();
        for (String value : values) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " has an empty value in its sweep");
            }
            String v = value.strip();
            if (!seen.add(v)) {
                throw new IllegalArgumentException(name + " sweeps '" + v + "' twice");
            }
            parameter.parse(v);   // its type and range, now
            checked.add(v);
        }
        Map<String, List<String>> next = new LinkedHashMap<>(this.values);
        next.put(name, List.copyOf(checked));
        long combinations = next.values().stream().mapToLong(List::size).reduce(1, (a, b) -> a * b);
        if (combinations > MAX_CONFIGURATIONS) {
            throw new IllegalArgumentException("the sweeps of " + base.name() + " make " + combinations
                    + " configurations; at most " + MAX_CONFIGURATIONS);
        }
        return new Sweep(base, java.util.Collections.unmodifiableMap(next));
    }

    /**
     * @return a sweep that also goes over these typed values of {@code parameter}
     * @throws IllegalArgumentException as {@link #param(String, String...)}
     */
    @SafeVarargs
    public final <T> Sweep param(Parameter<T> parameter, T... values) {
        Objects.requireNonNull(parameter, "parameter");
        if (values == null) {
            throw new IllegalArgumentException(parameter.name() + " needs at least one value to sweep, was none");
        }
        String[] text = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            text[i] = parameter.format(parameter.check(values[i]));
        }
        return param(parameter.name(), text);
    }

    /** @return the values swept so far, by parameter, in the order given */
    public Map<String, List<String>> values() {
        return values;
    }

    /** @return every configuration, the first parameter varying slowest; {@code base} alone when nothing is swept */
    public List<Benchmark> benchmarks() {
        List<Map<String, String>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        values.forEach((name, choices) -> {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : combinations) {
                for (String choice : choices) {
                    Map<String, String> extended = new LinkedHashMap<>(partial);
                    extended.put(name, choice);
                    next.add(extended);
                }
            }
            combinations.clear();
            combinations.addAll(next);
        });
        List<Benchmark> benchmarks = new ArrayList<>();
        for (Map<String, String> one : combinations) {
            benchmarks.add(one.isEmpty() ? base : with(one));
        }
        return benchmarks;
    }

    /** @return {@code base} with {@code values} set, through the benchmark's own copy ({@link Benchmark#withText}) */
    private Benchmark with(Map<String, String> values) {
        return base.withText(values);
    }

    private Parameter<?> declared(String name) {
        for (Parameter<?> p : base.parameters().declared()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        List<String> known = base.parameters().declared().stream().map(Parameter::name).toList();
        throw new IllegalArgumentException("'" + name + "' is not a parameter of " + base.name() + "; known: "
                + (known.isEmpty() ? "(none)" : String.join(", ", known)));
    }

    @Override
    public String toString() {
        return base.name() + " swept over " + values;
    }
}
