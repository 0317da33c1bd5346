package dev.prism.internal.rank;

import dev.prism.Benchmark;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The benchmarks whose timed phase has run to its end in this JVM, by name and parameter values: their hot path is
 * compiled and their classes, bindings and services are loaded, so a later repetition (or another rank thread) of the
 * same benchmark need not rehearse it at length. A rehearsal still runs one step there, for what is new to each rank:
 * its thread's buffers, its scratch directory; and the wait for the JIT to go quiet still comes after it.
 */
final class WarmBenchmarks {
    private static final Set<String> WARM = ConcurrentHashMap.newKeySet();

    private WarmBenchmarks() {
    }

    static boolean isWarm(Benchmark benchmark) {
        return WARM.contains(key(benchmark));
    }

    static void ranToTheEnd(Benchmark benchmark) {
        WARM.add(key(benchmark));
    }

    private static String key(Benchmark benchmark) {
        return benchmark.name() + " " + benchmark.parameters().asText();
    }
}
