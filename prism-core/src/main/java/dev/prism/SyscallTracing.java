package dev.prism;

import java.util.EnumSet;

/**
 * Whether and how a benchmark that runs a real program (torch, git, tar, an environment tool, fio) reports the file
 * system calls that program made in its timed phases, as measurements named {@code syscall:<call>} per rank
 * ({@code syscall:openat}, {@code syscall:read}…) with the slowest calls and their paths in the notes
 * ({@code syscalls_slowest}) and a call slower than the stall threshold reported as a stall.
 * <ul>
 * <li>{@link #KERNEL}: timed in the kernel by bpftrace, the program's whole process tree in a cgroup of its own (root,
 * bpftrace; {@link dev.prism.spi.SyscallTrace}). Sees every call, from Python, C++ or Rust alike.</li>
 * <li>{@link #PYTHON}: Python's own file functions wrapped in the worker before torch is imported (torch benchmarks
 * only): sees what goes through {@code open} and {@code os.*}, not what torch's C++ or safetensors' Rust calls.</li>
 * <li>{@link #AUTO}: the kernel where it can serve, else Python where the benchmark has a Python worker, else none,
 * the reason noted.</li>
 * <li>{@link #OFF}, the default: a tracer perturbs what it observes (its cost is measured by
 * {@code bench/attribution-overhead.sh}), so a qualification's figures come from runs without it and attribution is
 * the diagnostic run that says which call moved.</li>
 * </ul>
 *
 * <pre>{@code
 * import dev.prism.SyscallTracing;
 * import dev.prism.posix.workflows.DevWorkflows;
 *
 * var b = DevWorkflows.gitClone().with(SyscallTracing.PARAMETER,
 *         SyscallTracing.AUTO);
 * System.out.println(b.parameters());
 * }</pre>
 */
public enum SyscallTracing {
    /** no attribution */
    OFF,
    /** the kernel where it can serve, else Python interposition where there is a Python worker, else none */
    AUTO,
    /** bpftrace in the kernel, or the run fails saying why it cannot */
    KERNEL,
    /** Python interposition in the worker (torch benchmarks) */
    PYTHON;

    /** The {@code syscalls} parameter of benchmarks whose Python worker can interpose as well as the kernel trace */
    public static final Parameter<SyscallTracing> PARAMETER = Parameter.ofEnum("syscalls", SyscallTracing.class, OFF,
            "attribute the file system calls of the programs run in timed phases: off, auto, kernel (bpftrace, root)"
                    + " or python (interposition in the worker)");

    /** The {@code syscalls} parameter of benchmarks that run programs without a Python worker of PRISM's */
    public static final Parameter<SyscallTracing> KERNEL_PARAMETER = Parameter.ofEnum("syscalls", SyscallTracing.class,
            OFF, EnumSet.of(OFF, AUTO, KERNEL), "attribute the file system calls of the programs run in timed phases:"
                    + " off, auto or kernel (bpftrace, root)");
}
