package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prism.Benchmark;
import dev.prism.Benchmarks;
import dev.prism.PrismException;
import dev.prism.RunPlan;
import dev.prism.ScenarioListener;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link RunPlan} as a message. The benchmark travels as its name and parameters (and its workload class's name,
 * for one built with {@code Benchmark.Builder.workload(Class)}) and is made again in the rank's process, from that
 * class or by its provider; a benchmark of lambdas cannot run in other processes. The deadline travels as time remaining, so clocks of different nodes need not agree.
 */
public final class PlanCodec {
    private PlanCodec() {
    }

    /**
     * @throws IllegalArgumentException when the benchmark cannot be made again in another process: neither from its
     *                                  workload class nor by name through a provider
     */
    public static void requireRecreatable(Benchmark benchmark) {
        if (Benchmarks.workloadClassOf(benchmark).isPresent()) {
            return;
        }
        Benchmark again;
        try {
            again = Benchmarks.create(benchmark.name(), benchmark.parameters().asText());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("benchmark '" + benchmark.name() + "' cannot run in other processes: its"
                    + " workload is a lambda of this JVM's, and ranks there make a benchmark again from its workload"
                    + " class or by name through a BenchmarkProvider (" + e.getMessage() + "); give the builder"
                    + " .workload(YourWorkload.class), or use the threads launcher");
        }
        if (!again.parameters().asText().equals(benchmark.parameters().asText())) {
            throw new IllegalArgumentException("benchmark '" + benchmark.name() + "' made again from its parameters differs: "
                    + again.parameters() + " instead of " + benchmark.parameters());
        }
    }

    static ObjectNode encode(RunPlan plan) {
        ObjectNode m = Channel.message("plan");
        m.put("benchmark", plan.benchmark().name());
        Benchmarks.workloadClassOf(plan.benchmark()).ifPresent(c -> m.put("workloadClass", c));
        m.put("runsByTime", plan.benchmark().runsByTime());
        ObjectNode parameters = m.putObject("parameters");
        plan.benchmark().parameters().asText().forEach(parameters::put);
        m.put("tasks", plan.tasks());
        m.put("runDirectory", plan.runDirectory().toString());
        m.put("seed", plan.seed());
        m.put("timeoutNanos", plan.timeout().toNanos());
        m.put("remainingNanos", Math.max(0, Duration.between(Instant.now(), plan.deadline()).toNanos()));
        m.put("stallThresholdNanos", plan.stallThreshold().toNanos());
        m.put("runId", plan.runId());
        m.put("repetition", plan.repetition());
        m.put("rankOutput", plan.rankOutput() == null ? null : plan.rankOutput().toString());
        m.put("continueOnError", plan.continueOnError());
        m.put("durationNanos", plan.pacing().duration().toNanos());
        m.put("rampNanos", plan.pacing().ramp().toNanos());
        m.put("intervalNanos", plan.pacing().interval().toNanos());
        m.put("silenceLimitNanos", plan.silenceLimit().toNanos());
        return m;
    }

    public static RunPlan decode(JsonNode m, ScenarioListener listener) {
        Map<String, String> parameters = new LinkedHashMap<>();
        m.path("parameters").fields().forEachRemaining(e -> parameters.put(e.getKey(), e.getValue().asText()));
        Benchmark benchmark = m.hasNonNull("workloadClass")
                ? Benchmarks.recreate(m.path("benchmark").asText(), m.path("workloadClass").asText(), parameters,
                m.path("runsByTime").asBoolean(false))
                : Benchmarks.create(m.path("benchmark").asText(), parameters);
        JsonNode output = m.path("rankOutput");
        return new RunPlan(benchmark, m.path("tasks").asInt(), Path.of(m.path("runDirectory").asText()),
                m.path("seed").asLong(), Duration.ofNanos(m.path("timeoutNanos").asLong()),
                Instant.now().plusNanos(m.path("remainingNanos").asLong()),
                Duration.ofNanos(m.path("stallThresholdNanos").asLong()), listener, m.path("runId").asText(),
                m.path("repetition").asInt(), output.isNull() || output.isMissingNode() ? null : Path.of(output.asText()),
                dev.prism.Interruption.create(), m.path("continueOnError").asBoolean(false),
                new dev.prism.Pacing(Duration.ofNanos(m.path("durationNanos").asLong(0)), Duration.ofNanos(m.path("rampNanos").asLong(0)),
                        Duration.ofNanos(m.path("intervalNanos").asLong(0))),
                m.has("silenceLimitNanos") ? Duration.ofNanos(m.path("silenceLimitNanos").asLong()) : null);
    }
}
