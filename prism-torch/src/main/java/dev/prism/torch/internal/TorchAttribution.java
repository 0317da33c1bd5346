package dev.prism.torch.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prism.Measurement;
import dev.prism.PrismException;
import dev.prism.RankResult;
import dev.prism.RunPlan;
import dev.prism.Stall;
import dev.prism.SyscallTracing;
import dev.prism.spi.SyscallAttribution;
import dev.prism.spi.SyscallTrace;
import dev.prism.torch.TorchBenchmark;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A torch run's file-call attribution ({@code syscalls}): which mechanism serves ({@link #mode}), and with the kernel
 * trace, torchrun's whole tree traced while it runs, each rank's share picked out afterwards — the calls of its
 * process and the DataLoader workers it started, made in its timed phase (the {@code windows} of its document: the
 * blocks of the operation the benchmark is about, load for a load, save for a save, the epoch for the dataloader) —
 * and a call on a file slower than the stall threshold told to the listener as soon as it returns.
 */
final class TorchAttribution implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The most a rank's document may hold (as the launcher reads it) */
    private static final long MAX_DOCUMENT = 512L << 20;
    private static final Pattern MARKER = Pattern.compile(".*/rank-(\\d+)\\.traced$");

    private final RunPlan plan;
    private final SyscallTrace trace;
    private final Map<Integer, Integer> rankOfPid = new ConcurrentHashMap<>();

    private TorchAttribution(RunPlan plan, SyscallTrace trace) {
        this.plan = plan;
        this.trace = trace;
    }

    /**
     * @return what the script is told: {@code off}, {@code kernel} (PRISM traces it) or {@code python} (it interposes)
     * @throws PrismException when syscalls=kernel cannot be served here, saying why
     */
    static String mode(TorchBenchmark benchmark, int nodes) {
        SyscallTracing asked = benchmark.parameters().get(TorchBenchmark.SYSCALLS);
        if (asked == SyscallTracing.OFF || asked == SyscallTracing.PYTHON) {
            return asked.name().toLowerCase(java.util.Locale.ROOT);
        }
        String why = nodes > 1 ? "torch runs on " + nodes + " nodes and the kernel trace sees this node only"
                : SyscallTrace.unavailable();
        if (why == null) {
            return "kernel";
        }
        if (asked == SyscallTracing.KERNEL) {
            throw new PrismException("syscalls=kernel cannot trace here: " + why);
        }
        return "python";
    }

    /** @return the kernel trace started for {@code plan}'s torchrun (its probes attached) */
    static TorchAttribution start(RunPlan plan) {
        AtomicReference<TorchAttribution> self = new AtomicReference<>();
        try {
            SyscallTrace trace = SyscallTrace.start(call -> {
                TorchAttribution a = self.get();
                if (a != null) {
                    a.returned(call);
                }
            });
            self.set(new TorchAttribution(plan, trace));
            return self.get();
        } catch (IOException e) {
            throw new PrismException("syscalls: the kernel trace did not start: " + e.getMessage(), e);
        }
    }

    /** @return torchrun's command placed in the trace's cgroup */
    List<String> wrap(List<String> command) {
        return trace.wrap(command);
    }

    /** Learns a rank's process from its marker; tells the listener of a slow call on a file of a known rank. */
    private void returned(SyscallTrace.Call call) {
        Matcher m = MARKER.matcher(call.path());
        if (m.matches()) {
            rankOfPid.put(call.pid(), Integer.parseInt(m.group(1)));
            return;
        }
        if (call.nanos() < plan.stallThreshold().toNanos() || call.path().isEmpty()) {
            return;
        }
        Integer rank = null;
        for (Integer pid = call.pid(); pid != null && rank == null; pid = trace.parentOf(pid)) {
            rank = rankOfPid.get(pid);
        }
        if (rank != null) {
            try {
                plan.listener().stallDetected(stall(rank, call));
            } catch (RuntimeException e) {
                // a listener's failure must not stop the run
            }
        }
    }

    private static Stall stall(int rank, SyscallTrace.Call call) {
        return new Stall(rank, SyscallAttribution.PREFIX + call.name(), call.path().isEmpty() ? null : call.path(),
                Instant.now().minusNanos(call.nanos()), call.nanos(), true);
    }

    /**
     * Stops the trace and adds each rank's calls to its result: {@code syscall:<call>} measurements, the calls not on
     * files as a counter, the slowest in a note, the ones past the stall threshold as stalls.
     */
    List<RankResult> attribute(List<RankResult> ranks, dev.prism.spi.HeldDirectory documents) {
        SyscallTrace.Result seen = trace.stop();
        List<RankResult> attributed = new ArrayList<>();
        for (RankResult r : ranks) {
            JsonNode doc;
            try (java.io.InputStream in = documents.openInput("rank-" + r.rank() + ".json", MAX_DOCUMENT, "torch rank document")) {
                doc = MAPPER.readTree(in);
            } catch (IOException | IllegalArgumentException e) {
                attributed.add(r);   // a rank that wrote no document has nothing to attribute
                continue;
            }
            List<long[]> windows = new ArrayList<>();
            doc.path("windows").forEach(w -> windows.add(new long[]{w.path(0).asLong(), w.path(1).asLong()}));
            Set<Integer> tree = SyscallAttribution.tree(doc.path("pid").asInt(), seen.parentOf());
            List<SyscallTrace.Call> calls = SyscallAttribution.within(seen.calls(), tree, windows);
            List<SyscallTrace.Call> files = SyscallAttribution.onFiles(calls);
            Map<String, Measurement> measurements = new LinkedHashMap<>(r.measurements());
            measurements.putAll(SyscallAttribution.measurements(files, Math.max(1, r.phaseNanos())));
            Map<String, Long> counters = new LinkedHashMap<>(r.counters());
            if (files.size() < calls.size()) {
                counters.put(SyscallAttribution.NOT_ON_FILES, (long) (calls.size() - files.size()));
            }
            if (seen.lost() > 0) {
                counters.put("syscall_calls_lost", seen.lost());
            }
            Map<String, String> notes = new LinkedHashMap<>(r.notes());
            notes.put("syscalls", "kernel (bpftrace): every call of this rank's process and the processes it started"
                    + " (DataLoader workers), in its timed phase; " + files.size() + " on files"
                    + (seen.lost() > 0 ? "; " + seen.lost() + " calls of the run lost (bpftrace's buffer was full:"
                    + " the counts are lower bounds)" : ""));
            if (!files.isEmpty()) {
                notes.put("syscalls_slowest", SyscallAttribution.slowest(files, SyscallAttribution.SLOWEST));
            }
            List<Stall> stalls = new ArrayList<>(r.stalls());
            files.stream().filter(c -> c.nanos() >= plan.stallThreshold().toNanos()).forEach(c -> stalls.add(stall(r.rank(), c)));
            attributed.add(new RankResult(r.rank(), r.hostname(), r.status(), r.failure(), r.phaseNanos(), measurements,
                    counters, stalls, notes, r.intervals()));
        }
        return attributed;
    }

    @Override
    public void close() {
        trace.close();
    }
}
