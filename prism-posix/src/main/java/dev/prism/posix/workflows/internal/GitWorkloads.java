package dev.prism.posix.workflows.internal;

import dev.prism.ValidationException;
import dev.prism.Workload;
import dev.prism.WorkloadContext;
import dev.prism.posix.Posix;
import dev.prism.posix.internal.ChildPaths;
import dev.prism.posix.internal.Programs;
import dev.prism.posix.internal.TracedPrograms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * git_clone and git_status: the real git against the target. git reaches the run directory through the descriptor
 * the rank holds ({@link ChildPaths}: {@code /proc/<pid>/fd/N/…}), so renaming the run directory or a directory above
 * it mid-run, and putting a link in its place, changes nothing git reads or writes.
 */
public final class GitWorkloads {
    private static final Duration LIMIT = Duration.ofHours(1);

    private GitWorkloads() {
    }

    /** Where the clones come from: a given URL or path, or a repository rank 0 generates in setup. */
    private static String source(WorkloadContext ctx, String git, String source, int files, int commits) throws Exception {
        if (!source.isBlank()) {
            return source;
        }
        // only read (cloned from): rank 0 makes it once per configuration; the other ranks use it after the barrier
        // that ends setup
        Path generated = ctx.sharedFixture("source", dir -> SourceTree.gitRepository(git, ChildPaths.of(ctx, dir.resolve("source.git")),
                files, commits, new Random(ctx.parameters().hashCode()))).resolve("source.git");
        return "file://" + ChildPaths.of(ctx, generated);
    }

    /** Waits in setup until rank 0 has made the source (ranks meet only after setup otherwise). */
    private static void afterRankZero(WorkloadContext ctx) {
        ctx.barrier();
    }

    /** {@code git_clone}: clone the source {@code clones} times into this rank's directory. */
    public static final class Clone implements Workload {
        private final String gitGiven;
        private final String sourceGiven;
        private final int files;
        private final int commits;
        private final int clones;
        private String git;
        private String source;
        private TracedPrograms programs;

        public Clone(String git, String source, int files, int commits, int clones) {
            this.gitGiven = git;
            this.sourceGiven = source;
            this.files = files;
            this.commits = commits;
            this.clones = clones;
        }

        @Override
        public void setup(WorkloadContext ctx) throws Exception {
            git = Programs.require(ctx, "git", gitGiven, "apt-get install git");
            source = source(ctx, git, sourceGiven, files, commits);
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void run(WorkloadContext ctx) {
            for (int i = 0; i < clones; i++) {
                Path into = ctx.workDirectory().resolve("clone-" + i);
                ctx.measure("clone", into, () -> programs.check(List.of(git, "clone", "-q", source, ChildPaths.text(ctx, into)),
                        null, SourceTree.GIT_ENV, LIMIT));
            }
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }

        @Override
        public void validate(WorkloadContext ctx) {
            String expected = Programs.check(List.of(git, "ls-remote", source, "HEAD"), null, SourceTree.GIT_ENV, LIMIT)
                    .stdout().split("\\s")[0];
            for (int i = 0; i < clones; i++) {
                Path clone = ctx.workDirectory().resolve("clone-" + i);
                String head = Programs.check(List.of(git, "-C", ChildPaths.text(ctx, clone), "rev-parse", "HEAD"), null,
                        SourceTree.GIT_ENV, LIMIT).stdout().strip();
                if (!head.equals(expected)) {
                    throw new ValidationException(clone + ": HEAD is " + head + ", the source's is " + expected);
                }
            }
        }
    }

    /** {@code git_status}: a cold status scan after dropping the tree from the page cache, then warm scans. */
    public static final class Status implements Workload {
        private final String gitGiven;
        private final String sourceGiven;
        private final int files;
        private final int commits;
        private final int warmScans;
        private final boolean dropCold;
        private String git;
        private Path repository;
        private TracedPrograms programs;

        public Status(String git, String source, int files, int commits, int warmScans, boolean dropCold) {
            this.gitGiven = git;
            this.sourceGiven = source;
            this.files = files;
            this.commits = commits;
            this.warmScans = warmScans;
            this.dropCold = dropCold;
        }

        @Override
        public void setup(WorkloadContext ctx) throws Exception {
            git = Programs.require(ctx, "git", gitGiven, "apt-get install git");
            String source = source(ctx, git, sourceGiven, files, commits);
            if (sourceGiven.isBlank()) {
                afterRankZero(ctx);
            }
            // scanned, not changed (but for git's own refresh of its index, which the first scan of a configuration's
            // warm-up makes): made once per configuration
            repository = ctx.fixture("working-tree", dir -> {
                Path tree = ChildPaths.of(ctx, dir.resolve("repo"));
                Programs.check(List.of(git, "clone", "-q", source, tree.toString()), null, SourceTree.GIT_ENV, LIMIT);
                // a researcher's tree is rarely clean: two edited files and one new one
                try (Stream<Path> tracked = Files.walk(tree.resolve("src"))) {
                    tracked.filter(Files::isRegularFile).limit(2).forEach(p -> append(p, "\n# edited\n"));
                }
                Files.writeString(tree.resolve("notes.txt"), "untracked\n");
            }).resolve("repo");
            programs = TracedPrograms.begin(ctx); // before the clock: a kernel trace takes seconds to attach
        }

        @Override
        public void teardown(WorkloadContext ctx) {
            TracedPrograms.close(programs);
        }

        private static void append(Path file, String text) {
            try {
                Files.writeString(file, text, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void run(WorkloadContext ctx) throws IOException {
            if (dropCold) {
                long dropped = 0;
                try (Stream<Path> all = Files.walk(ChildPaths.of(ctx, repository))) {
                    for (Path p : (Iterable<Path>) all::iterator) {
                        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                            try {
                                Posix.dropFromPageCache(p);
                                dropped++;
                            } catch (RuntimeException e) {
                                ctx.untimedProblem("dropping " + p + " from the page cache before the cold status", e);
                            }
                        }
                    }
                }
                // file contents leave the page cache; directory entries and inodes may stay cached
                ctx.addCounter("files_dropped_before_cold_scan", dropped);
            }
            status(ctx, programs, "status_cold");
            for (int i = 0; i < warmScans; i++) {
                status(ctx, programs, "status_warm");
            }
        }

        private void status(WorkloadContext ctx, TracedPrograms programs, String operation) {
            String out;
            try (var t = ctx.time(operation, repository)) {
                out = programs.check(List.of(git, "-C", ChildPaths.text(ctx, repository), "status", "--porcelain"), null,
                        SourceTree.GIT_ENV, LIMIT).stdout();
            }
            if (out.lines().count() != 3) {
                throw new ValidationException(repository + ": git status reported " + out.lines().count()
                        + " changed paths, expected 3 (2 edited, 1 untracked)");
            }
        }
    }
}
