package dev.prism.testing;

/** Finds rank processes ({@code RankWorker … RANK CONNECT_SECONDS}) below a process, for tests that kill them. */
public final class RankProcesses {
    private RankProcesses() {
    }

    /** @return rank {@code rank}'s process among {@code parent}'s descendants, waiting up to 20 s for it to appear */
    public static ProcessHandle find(ProcessHandle parent, int rank) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            var found = parent.descendants().filter(h -> h.info().arguments()
                    .map(a -> a.length >= 3 && a[a.length - 2].equals(String.valueOf(rank))
                            && String.join(" ", a).contains("RankWorker")).orElse(false)).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("rank " + rank + "'s process never appeared");
    }
}
