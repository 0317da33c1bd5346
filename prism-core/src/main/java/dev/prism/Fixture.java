package dev.prism;

import java.nio.file.Path;

/**
 * How a workload makes a read-only fixture: the tree {@code git status} scans, the archive {@code tar} extracts, the
 * directory {@code list_files} lists. {@link WorkloadContext#fixture} calls it in set-up the first time a rank needs
 * the fixture in a configuration (one benchmark, its parameters and task count) and keeps what it made for the
 * configuration's later warm-ups and repetitions, so set-up builds it once rather than once per repetition. The timed
 * phase must only read it: a workload that changes its input (moves, deletes, appends) makes that input in set-up
 * every repetition instead.
 *
 * <pre>{@code
 * import dev.prism.Workload;
 * import dev.prism.WorkloadContext;
 * import java.nio.file.Files;
 * import java.nio.file.Path;
 *
 * Workload lister = new Workload() {
 *     Path tree;
 *     public void setup(WorkloadContext ctx) throws Exception {
 *         tree = ctx.fixture("tree", dir -> {
 *             for (int i = 0; i < 10; i++) {
 *                 Files.writeString(dir.resolve("f" + i), "x");
 *             }
 *         });
 *     }
 *     public void run(WorkloadContext ctx) throws Exception {
 *         try (var t = ctx.time("readdir", tree); var entries = Files.list(tree)) {
 *             ctx.addCounter("entries", entries.count());
 *         }
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface Fixture {
    /**
     * Makes the fixture in {@code directory}, which exists and is empty. Not timed. When it throws, the fixture is
     * discarded and the next repetition that asks for it builds it again.
     */
    void build(Path directory) throws Exception;
}
