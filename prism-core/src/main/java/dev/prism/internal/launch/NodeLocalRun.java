package dev.prism.internal.launch;

import dev.prism.internal.coordination.HostProbe;
import dev.prism.internal.files.RunDirectory;

import dev.prism.PrismException;
import dev.prism.RunPlan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A worker rank's run directory on a node-local target ({@code /tmp} or a local NVMe on each node): rank 0
 * made the run directory on its own node, so on this node it is not there. The ranks of each node then
 * make it themselves — each its own {@code rank-<r>} and the node's {@code shared} — and remove it at the
 * end, the node's last rank out taking the run directory along ({@link RunDirectory#removeIfLastRank}); results still travel to rank 0 through
 * the coordinator. Nothing is followed through a symbolic link.
 */
public final class NodeLocalRun {
    private NodeLocalRun() {
    }

    /**
     * @return true when the directory rank 0 made for {@code rank} before sending the plan is not here: the target
     *         is not shared with rank 0's node (asked once per run directory: later this rank made it itself)
     */
    public static boolean isNodeLocal(RunPlan plan, int rank) {
        return !Files.isDirectory(plan.rankDirectory(rank), LinkOption.NOFOLLOW_LINKS);
    }

    /** How long the node's other ranks wait for the mark of the rank that made the node's run directory */
    private static final java.time.Duration MARK_PATIENCE = java.time.Duration.ofSeconds(30);

    /**
     * @return this node's run directory, held: made by this rank, checked and marked; or made by another of the node's
     *         ranks and marked by it
     */
    private static dev.prism.spi.HeldDirectory madeOrMarked(Path target, RunPlan plan, int rank) throws IOException {
        dev.prism.spi.HeldDirectory made;
        try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.open(target)) {
            made = held.makeDirectory(plan.runDirectory().getFileName().toString(), 0700);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return awaitMark(plan, rank); // made by another rank of this node
        }
        try {
            markMade(made, plan, rank);
            return made;
        } catch (IOException | RuntimeException e) {
            made.close();
            throw e;
        }
    }

    /** Checks, on its descriptor, the run directory this rank just made (ours, empty), and marks it as the plan's run's. */
    private static void markMade(dev.prism.spi.HeldDirectory run, RunPlan plan, int rank) throws IOException {
        if (!RunDirectory.isOursAndEmpty(run)) {
            throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + ": the run directory "
                    + plan.runDirectory() + " on the node-local target was replaced the moment it was made: refused,"
                    + " nothing is written there");
        }
        run.markRun(plan.runId());
    }

    /**
     * @return this node's run directory, held, once the rank that made it has marked it as the plan's run's (within
     *         {@link #MARK_PATIENCE}); one marked as another run's, or still unmarked then, is refused
     */
    private static dev.prism.spi.HeldDirectory awaitMark(RunPlan plan, int rank) throws IOException {
        long end = System.nanoTime() + MARK_PATIENCE.toNanos();
        while (true) {
            dev.prism.spi.HeldDirectory run = dev.prism.spi.HeldDirectory.openOwned(plan.runDirectory());
            String mark = run.runMark();
            if (plan.runId().equals(mark)) {
                return run;
            }
            run.close();
            if (mark != null || System.nanoTime() > end) {
                throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + ": the run directory "
                        + plan.runDirectory() + " on the node-local target " + (mark != null
                        ? "is marked as another run's" : "was made by none of this run's ranks (no mark within "
                        + MARK_PATIENCE.toSeconds() + " s)") + ": refused, nothing is written there");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PrismException("rank " + rank + " was interrupted while its node's run directory was made");
            }
        }
    }

    /**
     * Makes this node's run directory, the node's {@code shared} directory and {@code rank}'s own, emptied of what
     * an earlier repetition left, as rank 0 does on its node for every repetition.
     *
     * @throws PrismException naming the path and errno when the target is missing here or not writable
     */
    public static void prepare(RunPlan plan, int rank) {
        Path target = plan.runDirectory().getParent();
        try {
            if (!Files.isDirectory(target)) { // the target as the user named it, a link to a directory included
                throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + ": the target " + target
                        + " is not a directory on this node (node-local targets must exist on every node)");
            }
            // the rank whose mkdir makes this node's run directory checks it on its descriptor and marks it as this
            // run's; the node's others (and rank 0, where the target is its own) find it made, and wait for the mark
            try (dev.prism.spi.HeldDirectory run = madeOrMarked(target, plan, rank)) {
                run.makeOrKeepDirectory(plan.sharedDirectory().getFileName().toString(), 0755).close();
                String own = plan.rankDirectory(rank).getFileName().toString();
                // emptied through the held run directory (/proc/self/fd/N), never by the run directory's name
                Path reached = run.procPath().resolve(own);
                if (Files.isDirectory(reached, LinkOption.NOFOLLOW_LINKS)) {
                    RunDirectory.deleteContents(reached);
                } else {
                    run.makeDirectory(own, 0755).close();
                }
            }
        } catch (IOException e) {
            throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + " cannot prepare its run directory "
                    + plan.rankDirectory(rank) + " on the node-local target: " + RunDirectory.describe(e), e);
        }
    }
}
