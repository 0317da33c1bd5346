package dev.prism;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * An immutable set of parameter values, one for each declared {@link Parameter}, in declaration
 * order. {@link #with} and {@link #withText} return a new set and check each value at once.
 *
 * <pre>{@code
 * import dev.prism.Parameter;
 * import dev.prism.Parameters;
 * import java.util.List;
 * import java.util.Map;
 *
 * var files = Parameter.ofInt("files", 100, 1, 1_000_000, "files", "files per rank");
 * var params = Parameters.defaults(List.of(files)).withText(Map.of("files", "10"));
 * System.out.println(params.get(files) + " " + params.asText());
 * }</pre>
 */
public final class Parameters {
    private final List<Parameter<?>> declared;
    private final Map<String, Object> values;
    /**
     * Values known only as text, by name, where the parameters were not declared here: a custom benchmark made again
     * in a rank's own process ({@link Benchmarks#recreate}), whose workload parses each as it asks for it
     */
    private final Map<String, String> undeclared;

    private Parameters(List<Parameter<?>> declared, Map<String, Object> values) {
        this(declared, values, Map.of());
    }

    private Parameters(List<Parameter<?>> declared, Map<String, Object> values, Map<String, String> undeclared) {
        this.declared = declared;
        this.values = values;
        this.undeclared = undeclared;
    }

    /**
     * @return values known only as text: {@link #get} parses one with the parameter it is asked for (checking its
     *         range); for a benchmark made again from its name and parameters in a rank's process
     */
    static Parameters ofText(Map<String, String> text) {
        return new Parameters(List.of(), Map.of(), Collections.unmodifiableMap(new LinkedHashMap<>(text)));
    }

    /** @return every declared parameter at its default value */
    public static Parameters defaults(List<Parameter<?>> declared) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Parameter<?> p : declared) {
            if (values.put(p.name(), p.defaultValue()) != null) {
                throw new IllegalArgumentException("parameters must have distinct names, '" + p.name()
                        + "' is declared twice");
            }
        }
        return new Parameters(List.copyOf(declared), Collections.unmodifiableMap(values));
    }

    /** @return an empty set, for benchmarks without parameters */
    public static Parameters none() {
        return defaults(List.of());
    }

    /** @return the declared parameters, in order */
    public List<Parameter<?>> declared() {
        return declared;
    }

    /** @return the value of {@code parameter} */
    public <T> T get(Parameter<T> parameter) {
        if (declared.isEmpty() && undeclared.containsKey(parameter.name())) {
            return parameter.parse(undeclared.get(parameter.name()));
        }
        return parameter.type().cast(values.get(requireDeclared(parameter.name()).name()));
    }

    /**
     * @return a copy with {@code parameter} set to {@code value}
     * @throws IllegalArgumentException naming the parameter when the value is out of range or the
     *                                  parameter is not declared here
     */
    public <T> Parameters with(Parameter<T> parameter, T value) {
        requireDeclared(parameter.name());
        Map<String, Object> copy = new LinkedHashMap<>(values);
        copy.put(parameter.name(), parameter.check(value));
        return new Parameters(declared, Collections.unmodifiableMap(copy));
    }

    /**
     * @param text values by parameter name, as typed on a command line
     * @return a copy with each named parameter parsed and set
     * @throws IllegalArgumentException naming the parameter when a name is unknown (listing the
     *                                  known ones) or a value does not parse or is out of range
     */
    public Parameters withText(Map<String, String> text) {
        Map<String, Object> copy = new LinkedHashMap<>(values);
        text.forEach((name, value) -> copy.put(name, requireDeclared(name).parse(value)));
        return new Parameters(declared, Collections.unmodifiableMap(copy));
    }

    /** @return every value as text, by name, in declaration order */
    public Map<String, String> asText() {
        if (declared.isEmpty() && !undeclared.isEmpty()) {
            return undeclared;
        }
        Map<String, String> text = new LinkedHashMap<>();
        for (Parameter<?> p : declared) {
            text.put(p.name(), p.formatUnchecked(values.get(p.name())));
        }
        return Collections.unmodifiableMap(text);
    }

    /** @return the values that differ from their defaults, as text, in declaration order */
    public Map<String, String> changedFromDefaults() {
        Map<String, String> text = new LinkedHashMap<>();
        for (Parameter<?> p : declared) {
            if (!Objects.equals(values.get(p.name()), p.defaultValue())) {
                text.put(p.name(), p.formatUnchecked(values.get(p.name())));
            }
        }
        return Collections.unmodifiableMap(text);
    }

    private Parameter<?> requireDeclared(String name) {
        for (Parameter<?> p : declared) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        List<String> known = new ArrayList<>();
        declared.forEach(p -> known.add(p.name()));
        throw new IllegalArgumentException("unknown parameter '" + name + "'; known: "
                + (known.isEmpty() ? "(none)" : String.join(", ", known)));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Parameters && ((Parameters) o).values.equals(values) && ((Parameters) o).undeclared.equals(undeclared);
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + undeclared.hashCode();
    }

    @Override
    public String toString() {
        return asText().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
