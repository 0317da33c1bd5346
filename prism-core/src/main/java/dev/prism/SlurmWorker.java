package dev.prism;

import dev.prism.internal.coordination.CoordinatorEndpoint;
import dev.prism.internal.coordination.Rendezvous;
import dev.prism.internal.coordination.RunSecret;
import dev.prism.internal.rank.RankWorker;
import dev.prism.spi.Errno;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every SLURM task other than rank 0 runs ({@code srun … prism run … --launcher slurm} does it for you): find
 * rank 0 — through the address it publishes in the target, through {@code MASTER_ADDR}/{@code MASTER_PORT}, or
 * through a meeting directory — then serve the plans it sends until it says the run is over. Every wait is bounded by
 * the run's timeout and a grace for rank 0's clean-up between runs. SIGINT or SIGTERM ({@code scancel}) stops this
 * rank's work and tells rank 0, which stops the others; the exit code is then the signal's.
 *
 * <pre>{@code
 * import dev.prism.SlurmWorker;
 *
 * // in a tool of your own started by srun, for every task but rank 0:
 * // int code = dev.prism.SlurmWorker.of(dev.prism.SlurmEnvironment.current().orElseThrow())
 * //         .target(java.nio.file.Path.of("/mnt/lustre/qualify")).timeout(java.time.Duration.ofMinutes(10)).serve();
 * System.out.println(SlurmWorker.EXIT_SERVED);
 * }</pre>
 */
public final class SlurmWorker {
    /** The exit code of a worker that served until rank 0 ended the run. */
    public static final int EXIT_SERVED = 0;
    /** The exit code of a worker that could not reach rank 0 or lost it. */
    public static final int EXIT_FAILED = 1;
    /** What a worker allows beyond the run's timeout: rank 0 cleaning up and writing results between runs. */
    private static final Duration GRACE = Duration.ofSeconds(30);

    private final SlurmEnvironment slurm;
    private Path target;
    private Path meeting;
    private Duration timeout = Duration.ofMinutes(10);
    private Duration cleanupGrace = Duration.ofSeconds(10);
    private Duration silenceLimit;
    private PrintWriter errors = dev.prism.spi.TerminalText.escaping(new PrintWriter(System.err, true));

    private SlurmWorker(SlurmEnvironment slurm) {
        this.slurm = slurm;
    }

    /** @return a worker for this task of the step {@code slurm} describes */
    public static SlurmWorker of(SlurmEnvironment slurm) {
        return new SlurmWorker(Objects.requireNonNull(slurm, "slurm"));
    }

    /** @param target the directory under test, where rank 0 publishes its address (unless MASTER_ADDR sets it) */
    public SlurmWorker target(Path target) {
        this.target = Objects.requireNonNull(target, "target");
        return this;
    }

    /** @param meeting a shared directory where the ranks meet instead of over TCP; null for TCP */
    public SlurmWorker meeting(Path meeting) {
        this.meeting = meeting;
        return this;
    }

    /** @param timeout the run's timeout, the same rank 0 has: 1 s to 7 days */
    public SlurmWorker timeout(Duration timeout) {
        if (timeout == null || timeout.toSeconds() < 1 || timeout.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException("timeout must be in 1s..7 days, was " + timeout);
        }
        this.timeout = timeout;
        return this;
    }

    /** @param grace how long clean-up may take after a signal: 1 s to 10 min (within SLURM's KillWait) */
    public SlurmWorker cleanupGrace(Duration grace) {
        if (grace == null || grace.toSeconds() < 1 || grace.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("cleanupGrace must be in 1s..10m, was " + grace);
        }
        this.cleanupGrace = grace;
        return this;
    }

    /** @param limit how long rank 0 may be silent before this rank checks on it; null for {@link RunPlan#defaultSilenceLimit} */
    public SlurmWorker silenceLimit(Duration limit) {
        this.silenceLimit = limit;
        return this;
    }

    /** @param errors where this rank says what went wrong (standard error by default) */
    public SlurmWorker errors(PrintWriter errors) {
        this.errors = dev.prism.spi.TerminalText.escaping(Objects.requireNonNull(errors, "errors"));
        return this;
    }

    /** Serves until rank 0 ends the run, a signal stops it, or rank 0 cannot be found or is lost; @return the exit code */
    public int serve() {
        if (target == null && meeting == null && slurm.publishesCoordinator()) {
            throw new IllegalArgumentException("target must be set: rank 0 publishes its address there");
        }
        Duration window = timeout.plus(GRACE);
        AtomicReference<RankWorker> serving = new AtomicReference<>();
        Signals signals = Signals.install(signal -> {
            RankWorker worker = serving.get();
            if (worker != null) {
                worker.stop("rank " + slurm.rank() + " received " + signal);
            }
        });
        int code;
        try {
            Rendezvous rendezvous;
            if (meeting != null) {
                rendezvous = Rendezvous.directory(slurm.meetingDirectory(meeting));
            } else if (slurm.publishesCoordinator()) {
                rendezvous = CoordinatorEndpoint.await(slurm.endpointFile(target), slurm.rank(), Instant.now().plus(window),
                        () -> signals.received() != null);
            } else {
                rendezvous = Rendezvous.tcp(slurm.coordinatorHost(), slurm.coordinatorPort());
            }
            RankWorker worker = new RankWorker(rendezvous, slurm.rank(), cleanupGrace, RunSecret.forStep(System.getenv()));
            if (target != null) {
                worker.underTarget(target);
            }
            worker.silenceLimit(silenceLimit != null ? silenceLimit : RunPlan.defaultSilenceLimit(timeout));
            serving.set(worker);
            if (signals.received() != null) {
                worker.stop("rank " + slurm.rank() + " received " + signals.received());
            }
            try {
                worker.serve(window);
            } finally {
                worker.leftBehind().ifPresent(left -> errors.println("prism: rank " + slurm.rank() + ": " + left));
            }
            code = EXIT_SERVED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = EXIT_FAILED;
        } catch (IOException e) {
            errors.println("prism: rank " + slurm.rank() + ": " + Errno.describe(e));
            code = EXIT_FAILED;
        }
        errors.flush();
        return signals.received() != null ? signals.exitCode() : code;
    }
}
