package dev.prism.posix.internal;

import dev.prism.Parameter;
import dev.prism.PrismException;
import dev.prism.SyscallTracing;
import dev.prism.WorkloadContext;
import dev.prism.spi.SyscallAttribution;
import dev.prism.spi.SyscallTrace;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The programs a rank runs in its timed operations, with their file system calls attributed when the benchmark's
 * {@code syscalls} parameter asks: {@link #begin}, called at the end of a workload's setup, starts the kernel trace
 * before the clock (bpftrace takes seconds to compile and attach: inside the timed phase it cut ops/s about five
 * times), {@link #check} runs a program inside the trace's cgroup, {@link #close}, called in teardown, records the calls
 * the programs made — counted in the kernel ({@link SyscallTrace#counting}) — as the rank's {@code syscall:<call>}
 * measurements, with the slowest named in a note, after the clock too. Programs run in setup or validation go through {@link Programs} directly and are never traced.
 */
public final class TracedPrograms implements AutoCloseable {
    private final WorkloadContext ctx;
    private final SyscallTrace trace;

    private TracedPrograms(WorkloadContext ctx, SyscallTrace trace) {
        this.ctx = ctx;
        this.trace = trace;
    }

    /**
     * @return the programs of this rank's timed phase, traced when {@code syscalls} is kernel (failing when the kernel
     *         trace cannot serve, saying why) or auto where it can (noting why not where it cannot)
     */
    public static TracedPrograms begin(WorkloadContext ctx) {
        SyscallTracing mode = mode(ctx);
        if (mode == SyscallTracing.OFF) {
            return new TracedPrograms(ctx, null);
        }
        String why = SyscallTrace.unavailable();
        if (why != null) {
            if (mode == SyscallTracing.KERNEL) {
                throw new PrismException("syscalls=kernel cannot trace here: " + why);
            }
            ctx.note("syscalls", "not traced: " + why);
            return new TracedPrograms(ctx, null);
        }
        try {
            return new TracedPrograms(ctx, SyscallTrace.counting(c -> ctx.callReturned(
                    SyscallAttribution.PREFIX + c.name(), c.path().isEmpty() ? null : c.path(), c.nanos())));
        } catch (IOException e) {
            throw new PrismException("syscalls=" + mode.name().toLowerCase(java.util.Locale.ROOT)
                    + ": the kernel trace did not start: " + e.getMessage(), e);
        }
    }

    /** @return the benchmark's {@code syscalls} value, off where it declares none */
    static SyscallTracing mode(WorkloadContext ctx) {
        for (Parameter<?> p : ctx.parameters().declared()) {
            if (p.name().equals(SyscallTracing.PARAMETER.name()) && p.type() == SyscallTracing.class) {
                return (SyscallTracing) ctx.parameters().get(p);
            }
        }
        return SyscallTracing.OFF;
    }

    /** As {@link Programs#check}, the program and everything it starts inside the trace when there is one. */
    public Programs.Result check(List<String> command, Path directory, Map<String, String> environment, Duration timeout) {
        return Programs.check(trace == null ? command : trace.wrap(command), command, directory, environment, timeout);
    }

    /** Closes {@code programs} where there are any: a workload's teardown, whether or not its setup got that far. */
    public static void close(TracedPrograms programs) {
        if (programs != null) {
            programs.close();
        }
    }

    private boolean closed;

    /** Stops the trace and records what it saw into the rank's measurements and notes; once. */
    @Override
    public void close() {
        if (trace == null || closed) {
            return;
        }
        closed = true;
        SyscallTrace.Result seen;
        try {
            seen = trace.stop();
        } finally {
            trace.close();
        }
        SyscallAttribution.record(ctx, seen);
        long onFiles = seen.totals().values().stream().mapToLong(t -> t.count() + t.errors()).sum();
        ctx.note("syscalls", "kernel (bpftrace): " + (trace.countedInKernel() ? "counted in the kernel"
                : "every call delivered (this kernel has no BTF to count in)") + ", every call of the timed programs and the"
                + " processes they started, " + (onFiles + seen.notOnFiles()) + " calls, " + onFiles + " on files"
                + (seen.countsExact() ? "" : "; the kernel's counts did not arrive whole (bpftrace ended early or"
                + " its buffer was full): the counts are lower bounds")
                + (seen.lost() > 0 ? "; " + seen.lost() + " calls slower than " + SyscallTrace.SLOW_CALL.toMillis()
                + " ms not named (bpftrace's buffer was full)" : "")
                + (seen.undrained().isEmpty() ? "" : "; the trace of CPU(s) " + seen.undrained()
                + " was not read to its end before it stopped: calls slower than " + SyscallTrace.SLOW_CALL.toMillis()
                + " ms may be missing from the slowest"));
        if (!seen.countsExact()) {
            ctx.addCounter("syscall_counts_incomplete", 1);
        }
        if (seen.lost() > 0) {
            ctx.addCounter("syscall_slow_calls_lost", seen.lost());
        }
        if (!seen.undrained().isEmpty()) {
            ctx.addCounter("syscall_cpus_undrained", seen.undrained().size());
        }
        if (!seen.calls().isEmpty()) {
            ctx.note("syscalls_slowest", SyscallAttribution.slowest(seen.calls(), SyscallAttribution.SLOWEST));
        } else if (seen.totals().values().stream().anyMatch(t -> t.count() > 0)) {
            ctx.note("syscalls_slowest", slowestWithoutPaths(seen));
        }
    }

    /** @return the slowest call of each name when none took {@link SyscallTrace#SLOW_CALL}: the kernel kept no path */
    static String slowestWithoutPaths(SyscallTrace.Result seen) {
        return seen.totals().entrySet().stream().filter(e -> e.getValue().count() > 0)
                .sorted(java.util.Map.Entry.<String, SyscallTrace.Totals>comparingByValue(
                        java.util.Comparator.comparingLong(SyscallTrace.Totals::maxNanos)).reversed())
                .limit(SyscallAttribution.SLOWEST)
                .map(e -> e.getKey() + " " + dev.prism.spi.Formats.latency(e.getValue().maxNanos()))
                .collect(java.util.stream.Collectors.joining("; "))
                + " (no call took " + SyscallTrace.SLOW_CALL.toMillis() + " ms: the kernel names the files of slower"
                + " calls only)";
    }
}
