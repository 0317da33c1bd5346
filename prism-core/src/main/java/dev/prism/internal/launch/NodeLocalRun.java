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
            // another rank of this node may have made them first; each in turn, so that one which is not a directory
            // (a link) is refused, never followed
            Files.createDirectories(plan.runDirectory());
            // this node's run directory is marked as this run's (as rank 0's is when it is made), by whichever of the
            // node's ranks comes first: another run's directory in its place is refused, never used
            try (dev.prism.spi.HeldDirectory held = dev.prism.spi.HeldDirectory.openOwned(plan.runDirectory())) {
                String named = held.runMark();
                if (named == null) {
                    held.markRun(plan.runId());
                } else if (!named.equals(plan.runId())) {
                    throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + ": the run directory "
                            + plan.runDirectory() + " on the node-local target is another run's: refused, nothing is"
                            + " written there");
                }
            }
            Files.createDirectories(plan.sharedDirectory());
            Path own = plan.rankDirectory(rank);
            if (Files.isDirectory(own, LinkOption.NOFOLLOW_LINKS)) {
                RunDirectory.deleteContents(own);
            } else {
                Files.createDirectory(own);
            }
        } catch (IOException e) {
            throw new PrismException("rank " + rank + " on " + HostProbe.hostname() + " cannot prepare its run directory "
                    + plan.rankDirectory(rank) + " on the node-local target: " + RunDirectory.describe(e), e);
        }
    }
}
