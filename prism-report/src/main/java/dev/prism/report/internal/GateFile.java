package dev.prism.report.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Parameter;
import dev.prism.Stat;
import dev.prism.report.Gate;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads a gate file ({@link Gate#fromJson}) into expectations, through the fluent API, naming what is wrong. */
public final class GateFile {
    private static final Parameter<Duration> BELOW = Parameter.ofDuration("below", Duration.ofSeconds(1), Duration.ZERO,
            Duration.ofDays(365), "limit");

    private GateFile() {
    }

    /** @return the expectations of {@code file}, in order */
    public static List<Gate.Expectation> read(Path file) throws IOException {
        JsonNode root;
        try (java.io.InputStream in = dev.prism.spi.InputFiles.open(file, dev.prism.spi.InputFiles.MAX_SETTINGS_BYTES,
                "gate file")) {
            root = new ObjectMapper().readTree(in);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + " is not a gate file: it must be a JSON object with expectations");
        }
        known(root, file + ":", ROOT_FIELDS);
        List<Gate.Expectation> list = new ArrayList<>();
        int i = 0;
        for (JsonNode e : root.path("expectations")) {
            String where = file + ": expectation " + i++;
            try {
                known(e, "", EXPECTATION_FIELDS);
                list.add(expectation(e));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(where + ": " + ex.getMessage(), ex);
            }
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no expectations");
        }
        return list;
    }

    private static final List<String> ROOT_FIELDS = List.of("expectations");
    private static final List<String> EXPECTATION_FIELDS = List.of("benchmark", "tasks", "op", "stat", "below", "above",
            "notSlowerThanBaselineBy");

    /** A typo ({@code "taks"}) would otherwise widen an expectation without a word: every unknown key is an error. */
    private static void known(JsonNode node, String where, List<String> fields) {
        if (!node.isObject()) {
            throw new IllegalArgumentException((where.isEmpty() ? "" : where + " ") + "must be a JSON object");
        }
        node.fieldNames().forEachRemaining(f -> {
            if (!fields.contains(f)) {
                throw new IllegalArgumentException((where.isEmpty() ? "" : where + " ") + "unknown key '"
                        + (f.length() > 64 ? f.substring(0, 64) + "…" : f) + "'; known keys: " + String.join(", ", fields));
            }
        });
    }

    private static Gate.Expectation expectation(JsonNode e) {
        if (!e.hasNonNull("benchmark") || !e.hasNonNull("op") || !e.hasNonNull("stat")) {
            throw new IllegalArgumentException("needs benchmark, op and stat");
        }
        Gate.Subject subject = Gate.expect(e.get("benchmark").asText());
        if (e.has("tasks")) {
            subject = subject.tasks(e.get("tasks").asInt());
        }
        Gate.Operation op = subject.op(e.get("op").asText());
        Stat stat = Stat.parse(e.get("stat").asText());
        List<String> bounds = Stream.of("below", "above", "notSlowerThanBaselineBy").filter(e::has).toList();
        if (bounds.size() != 1) {
            throw new IllegalArgumentException("needs exactly one of below, above or notSlowerThanBaselineBy, has "
                    + (bounds.isEmpty() ? "none" : String.join(" and ", bounds)));
        }
        String bound = bounds.get(0);
        if (bound.equals("notSlowerThanBaselineBy")) {
            double percent = e.get(bound).asDouble();
            return stat.isRate() ? op.rate(stat).notSlowerThanBaselineBy(percent) : op.latency(stat).notSlowerThanBaselineBy(percent);
        }
        if (stat.isRate() != bound.equals("above")) {
            throw new IllegalArgumentException(stat.isRate() ? stat + " is a rate: use above" : stat + " is a latency: use below");
        }
        if (stat.isRate()) {
            return op.rate(stat).above(e.get(bound).asDouble());
        }
        return op.latency(stat).below(BELOW.parse(e.get(bound).asText()));
    }
}
