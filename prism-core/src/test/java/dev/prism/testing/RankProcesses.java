package dev.prism.testing;

import java.util.Arrays;
import java.util.Optional;

/** Finds rank processes ({@code RankWorker HOST PORT RANK …}) below a process, for tests that kill them. */
public final class RankProcesses {
    private static final String WORKER = "dev.prism.internal.rank.RankWorker";

    private RankProcesses() {
    }

    /** @return rank {@code rank}'s process among {@code parent}'s descendants, waiting for it to appear */
    public static ProcessHandle find(ProcessHandle parent, int rank) {
        return Await.value("rank " + rank + "'s process appears below process " + parent.pid(), () -> parent.descendants()
                .filter(h -> isRank(h, rank)).findFirst());
    }

    /**
     * @return whether {@code process} has exited: gone, or a zombie nobody has reaped yet (an orphan's new parent,
     *         init or a container's, may take its time; {@link ProcessHandle#isAlive()} counts a zombie as alive)
     */
    public static boolean ended(ProcessHandle process) {
        if (!process.isAlive()) {
            return true;
        }
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", String.valueOf(process.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException e) {
            return true; // gone while we looked
        }
    }

    /** @return whether {@code process} is a PRISM rank process of rank {@code rank} */
    public static boolean isRank(ProcessHandle process, int rank) {
        Optional<String[]> arguments = process.info().arguments();
        if (arguments.isEmpty()) {
            return false;
        }
        int at = Arrays.asList(arguments.get()).indexOf(WORKER);
        return at >= 0 && at + 3 < arguments.get().length && arguments.get()[at + 3].equals(String.valueOf(rank));
    }
}
